import Foundation
import RelctlBasics

/// Adds the installers `relctl installer` wrote to the checksum files of their folder. A file
/// users download from the release must be in `SHA256SUMS`: that list is what `relctl publish`
/// uploads and what the signatures cover.
package enum InstallerListing {
    /// Upserts `files` (in `directory`) into every `<ALG>SUMS` there, each rewritten atomically;
    /// warns when a signature of a list it changed exists, since it no longer matches.
    package static func list(_ files: [URL], in directory: URL, shown: String, context: Context) async throws {
        for algorithm in ChecksumAlgorithm.allCases {
            let sumsURL = directory.appendingPathComponent(algorithm.sumsFileName)
            guard FileSystem.exists(sumsURL) else { continue }
            let shownSums = "\(shown)/\(algorithm.sumsFileName)"
            var sums = try ChecksumFile.read(sumsURL, displayPath: shownSums)
            let digests = try await FileHasher.digests(of: files, algorithms: [algorithm])
            let names = Set(files.map(\.lastPathComponent))
            let before = FileSystem.contents(of: sumsURL)
            sums.entries = sums.entries.filter { !names.contains($0.name) }
            sums.entries += digests.map {
                ChecksumFile.Entry(name: $0.url.lastPathComponent, digest: $0[algorithm], algorithm: algorithm)
            }
            sums = sums.sorted
            guard Data(sums.render().utf8) != before else { continue }
            try AtomicFile.write(sums.render(), to: sumsURL)
            context.console.detail("listed \(files.map(\.lastPathComponent).joined(separator: ", ")) in \(shownSums)")
            for signature in [ReleaseSigner.sshExtension, ReleaseSigner.minisignExtension]
            where FileSystem.exists(directory.appendingPathComponent(algorithm.sumsFileName + signature)) {
                context.console.warning(
                    "\(shownSums)\(signature) signed the list before the installers were added: sign it again (`relctl sign \(shownSums)`) before publishing"
                )
            }
        }
    }
}
