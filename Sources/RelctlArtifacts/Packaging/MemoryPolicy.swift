import CDeflate

/// How relctl asks glibc to hand out large blocks. glibc raises its mmap threshold each time a
/// mapped block is freed, so after the first large array grows (a layout of 100,000 entries, a
/// list of commits, an archive's 1 MiB chunk buffers) every later block up to that size comes
/// from the heap of the thread that allocated it, and stays resident once freed. A fixed
/// 256 KiB threshold keeps each large block its own mapping, returned to the system when freed.
/// Measured at the largest scaling sizes (issue 31): `package` of 100,000 files 66 -> 63 MB peak
/// RSS, `notes` over 100,000 commits 63 -> 61 MB; archive compression was already under it.
package enum MemoryPolicy {
    package static let mmapThreshold = 256 * 1024

    /// Applies the policy; any number of calls, from any thread, set it once.
    package static func apply() { _ = applied }

    private static let applied: Void = relctl_fix_mmap_threshold(Int32(mmapThreshold))
}
