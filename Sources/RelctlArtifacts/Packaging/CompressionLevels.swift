import RelctlBasics

/// Every compression level relctl chooses on its own, in one place. A project sets the archives'
/// level with `[archive] compression-level`; each format clamps it to its range.
package enum CompressionLevels {
    /// tar.gz and zip archives without a configured level: gzip -6's ratio, which libdeflate reaches
    /// faster and about 1% smaller.
    package static let archiveDeflate = 6
    package static let archiveXz = 6
    package static let archiveZstd = 3

    /// Whole-buffer gzip members written in one call (deb members, the rpm payload, changelog.gz, chart
    /// and flake tarballs): 9. These files are small, so the time does not matter, and level 9 sets
    /// the gzip header's "maximum compression" flag that lintian checks on changelog.gz.
    package static let wholeBuffer = 9

    /// npm packages (`[npm]`): 9, as `npm pack` gzips its tarballs.
    package static let npmPackage = 9

    /// The levels of deflate as tar.gz, zip and image layers use it.
    package static let deflateLevels = 1...9

    /// `level` moved into `range`: the one place a configured level is clamped (each archive
    /// format to its own range, image layers to deflate's).
    package static func clamped(_ level: Int, to range: ClosedRange<Int>) -> Int {
        min(max(level, range.lowerBound), range.upperBound)
    }
}
