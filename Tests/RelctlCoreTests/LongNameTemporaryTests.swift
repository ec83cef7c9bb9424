import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// A file whose name fits the file system can be written atomically, however long (issue 26,
/// leftover of the earlier trial: a 242-byte archive name failed on its temporary's name).
@Suite("Temporaries for long names", .timeLimit(.minutes(30)), .removesTemporaries)
struct LongNameTemporaryTests {
    @Test(arguments: [242, 255])
    func aLongNameIsWrittenAtomically(length: Int) throws {
        try withTemporaryDirectory { directory in
            let name = String(repeating: "é", count: 10) + String(repeating: "a", count: length - 28) + ".tar.gz"
            #expect(name.utf8.count == length - 1)
            let url = directory.url.appendingPathComponent(name)
            try AtomicFile.write(Data("archive".utf8), to: url)
            #expect(FileManager.default.contents(atPath: url.path) == Data("archive".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name])
            let temporary = Temporaries.name("." + name)
            #expect(temporary.utf8.count <= 255 && Temporaries.owner(of: temporary) == getpid())
        }
    }
}
