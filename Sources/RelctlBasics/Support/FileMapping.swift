import Foundation
import Synchronization

/// One of relctl's own temporary files mapped into memory, for a library call that only takes a
/// whole buffer (libdeflate) over a file too large to hold. The pages the call has used stay
/// resident, and count in relctl's memory, until `trimmingBehindUse` gives them back.
///
/// Only for temporaries relctl created and nobody else holds: a mapped file cut short under the
/// mapping would end the process with SIGBUS, and a mapped page written on a full disk too, so a
/// writable mapping has its blocks allocated (`posix_fallocate`) before the first byte is written.
/// `@unchecked Sendable`: the trimming thread only calls madvise(2) on the mapping, which leaves
/// the bytes as they are.
package final class FileMapping: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer
    package let count: Int

    /// Maps the first `count` (> 0) bytes of the file open at `descriptor`: read-only and private,
    /// or `writable` and shared (what is written goes to the file).
    package init(descriptor: Int32, count: Int, writable: Bool) throws(SystemCallFailure) {
        let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
        let pointer = mmap(nil, count, protection, writable ? MAP_SHARED : MAP_PRIVATE, descriptor, 0)
        guard let pointer, pointer != MAP_FAILED else { throw SystemCallFailure(code: errno) }
        base = pointer
        self.count = count
    }

    deinit { munmap(base, count) }

    /// Allocates the file's blocks up to `count` bytes, so writing through a mapping of it cannot
    /// meet a full disk or the file-size limit (which would be SIGBUS, not an error).
    package static func reserve(descriptor: Int32, count: Int) throws(SystemCallFailure) {
        let code = posix_fallocate(descriptor, 0, off_t(count))
        if code != 0 { throw SystemCallFailure(code: code) }
    }

    /// Cuts the file to `count` bytes, once its mappings are gone (a page mapped past the end of a
    /// file is SIGBUS), giving back what `reserve` allocated beyond what was written.
    package static func truncate(descriptor: Int32, to count: Int) throws(SystemCallFailure) {
        guard ftruncate(descriptor, off_t(count)) == 0 else { throw SystemCallFailure(code: errno) }
    }

    /// Unmaps the pages of `pages` (page numbers). The bytes stay in the file: a page used again
    /// is mapped again from it, so this changes memory use, never the bytes anyone reads.
    fileprivate func release(_ pages: Range<Int>) {
        guard !pages.isEmpty else { return }
        _ = madvise(base + pages.lowerBound * Self.pageSize, pages.count * Self.pageSize, MADV_DONTNEED)
    }

    fileprivate static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Runs `body` (one call reading or writing `mappings` front to back) while a thread of its own
    /// keeps each mapping's resident pages to about `margin` bytes behind the furthest page in use:
    /// libdeflate has no progress callback, so the thread looks at which pages are mapped
    /// (/proc/self/pagemap) every few milliseconds. Where the page map cannot be read, nothing is
    /// given back and the memory is the mappings' size; the result is the same either way.
    package static func trimmingBehindUse<Result>(
        _ mappings: [FileMapping], margin: Int = 2 << 20, _ body: () throws -> Result
    ) rethrows -> Result {
        let pageMap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pageMap >= 0 else { return try body() }
        let trimmer = Trimmer(mappings: mappings, pageMap: pageMap, marginPages: max(1, margin / pageSize))
        let thread = Thread { trimmer.run() }
        thread.start()
        defer { trimmer.finish() }
        return try body()
    }

    private final class Trimmer: @unchecked Sendable {
        // Written only by the trimming thread; `finish` waits for it to end before closing.
        private let mappings: [FileMapping]
        private let pageMap: Int32
        private let marginPages: Int
        private var released: [Int]
        private let stopping = Atomic<Bool>(false)
        private let ended = DispatchSemaphore(value: 0)

        init(mappings: [FileMapping], pageMap: Int32, marginPages: Int) {
            self.mappings = mappings
            self.pageMap = pageMap
            self.marginPages = marginPages
            released = mappings.map { _ in 0 }
        }

        func run() {
            while !stopping.load(ordering: .acquiring) {
                for index in mappings.indices { trim(index) }
                usleep(2_000)
            }
            ended.signal()
        }

        func finish() {
            stopping.store(true, ordering: .releasing)
            ended.wait()
            close(pageMap)
        }

        /// Releases the pages more than the margin behind the furthest mapped page of mapping `index`.
        private func trim(_ index: Int) {
            let mapping = mappings[index]
            guard let furthest = furthestMapped(mapping, from: released[index]) else { return }
            let end = furthest - marginPages
            guard end > released[index] else { return }
            mapping.release(released[index]..<end)
            released[index] = end
        }

        /// The furthest page of `mapping` at or after `start` that is mapped, looking at most 64 MiB
        /// ahead and stopping at the first 2 MiB without one once one was found (pages are used
        /// front to back; the kernel maps at most 64 KiB around a used page ahead of time).
        private func furthestMapped(_ mapping: FileMapping, from start: Int) -> Int? {
            let pages = (mapping.count + FileMapping.pageSize - 1) / FileMapping.pageSize
            let first = Int(bitPattern: mapping.base) / FileMapping.pageSize
            let batch = 512
            var entries = [UInt64](repeating: 0, count: batch)
            var furthest: Int?
            var page = start
            while page < min(pages, start + (64 << 20) / FileMapping.pageSize) {
                let count = min(batch, pages - page)
                let read = entries.withUnsafeMutableBytes { buffer in
                    pread(pageMap, buffer.baseAddress, count * 8, off_t((first + page) * 8))
                }
                guard read == count * 8 else { return furthest }
                var found = false
                for offset in 0..<count where entries[offset] & (1 << 63) != 0 {
                    furthest = page + offset
                    found = true
                }
                if !found, furthest != nil { break }
                page += count
            }
            return furthest
        }
    }
}
