import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ArchivePathTests {
    @Test func normalizesAndRefusesEscapes() throws {
        #expect(try ArchivePath.normalize("./demo//1brc/", what: "test") == "demo/1brc")
        #expect(try ArchivePath.normalize("a/b/../c", what: "test") == "a/c")
        for bad in ["/etc/passwd", "../outside", "a/../../outside", "tab\there"] {
            #expect(throws: PackagingError.self) { try ArchivePath.normalize(bad, what: "test") }
        }
    }

    @Test func unknownFormatListsKnownIds() {
        #expect(ArchiveWriterFormats.all.keys.sorted() == ArchiveFormats.ids.sorted())
        do {
            _ = try ArchiveWriterFormats.format("tar.bz3")
            Issue.record("unknown format accepted")
        } catch let error as RelctlError {
            #expect(error.exitCode == .badInput)
            #expect("\(error.diagnostics)".contains("tar.gz, tar.xz, tar.zst, zip"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
