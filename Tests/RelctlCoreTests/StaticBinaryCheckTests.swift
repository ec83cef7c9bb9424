import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The fast half of scripts/check-static-binary (issue 56): it reads an ELF file's dynamic
/// section and refuses any DT_NEEDED library outside the C library family, which is what lets a
/// relctl release binary run where no Swift toolchain and no -dev package is installed. The full
/// check (a release build run with the toolchain hidden) is too slow for the suite; the release
/// workflow and docs/releasing-relctl.md run it.
@Suite("The static-link check of relctl's release binary", .timeLimit(.minutes(30)), .removesTemporaries)
struct StaticBinaryCheckTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var script: String { root.appendingPathComponent("scripts/check-static-binary").path }

    /// A C program linked with `flags`, compiled by gcc into `dir`.
    static func program(_ name: String, flags: [String], in dir: TemporaryDirectory) throws -> String {
        try dir.write("\(name).c", "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n")
        let output = dir.url.appendingPathComponent(name).path
        let compiled = try run("gcc", ["-o", output, dir.url.appendingPathComponent("\(name).c").path] + flags)
        try #require(compiled.status == 0, "\(compiled)")
        return output
    }

    @Test func aProgramNeedingOnlyTheCLibraryFamilyPasses() throws {
        try withTemporaryDirectory { dir in
            let plain = try Self.program("plain", flags: ["-lm", "-lpthread"], in: dir)
            let whole = try Self.program("whole", flags: ["-static"], in: dir)
            let checked = try run("python3", [Self.script, "--needed", plain, whole])
            #expect(checked.status == 0, "\(checked)")
            #expect(checked.stdout.contains("\(plain): needs libc.so.6"), "\(checked)")
            #expect(checked.stdout.contains("\(whole): needs nothing (static)"), "\(checked)")
        }
    }

    /// libcurl.so.4 is no exception: the release build links its own libcurl statically
    /// (scripts/build-static-curl), so a binary that still needs the shared one is refused.
    @Test func libcurlIsRefusedLikeAnyOtherLibrary() throws {
        try withTemporaryDirectory { dir in
            // The runtime library by its file name: `-lcurl` needs libcurl's -dev package, which
            // the curl command does not bring (a fresh machine has libcurl.so.4 only).
            let curl = try Self.program("curl", flags: ["-Wl,--no-as-needed", "-l:libcurl.so.4"], in: dir)
            let checked = try run("python3", [Self.script, "--needed", curl])
            #expect(checked.status == 1, "\(checked)")
            #expect(checked.stdout.contains("\(curl): needs libcurl.so.4, libc.so.6"), "\(checked)")
            #expect(checked.stderr.contains("\(curl) needs libcurl.so.4, outside the C library family"), "\(checked)")
        }
    }

    @Test func aSharedLibraryOutsideTheFamilyIsRefusedByName() throws {
        try withTemporaryDirectory { dir in
            let zlib = try Self.program("zlib", flags: ["-Wl,--no-as-needed", "-lz"], in: dir)
            let checked = try run("python3", [Self.script, "--needed", zlib])
            #expect(checked.status == 1, "\(checked)")
            #expect(checked.stderr.contains("\(zlib) needs libz.so.1, outside the C library family"), "\(checked)")
        }
    }

    /// relctl as `swift build` makes it (the binary under test) links the toolchain's runtime and
    /// the shared C libraries: exactly what a release binary must not. The names are the ones
    /// binutils' readelf reads from the same file.
    @Test func aPlainBuildOfRelctlIsRefusedAndReadAsReadelfReadsIt() throws {
        let checked = try run("python3", [Self.script, "--needed", relctlBinary.path])
        #expect(checked.status == 1, "\(checked)")
        for library in ["libswiftCore.so", "libFoundation.so", "libarchive.so.13", "libsodium.so.23"] {
            #expect(checked.stderr.contains(library), "\(library): \(checked)")
        }
        let readelf = try run("readelf", ["-d", relctlBinary.path])
        try #require(readelf.status == 0, "\(readelf)")
        let expected = readelf.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
        #expect(!expected.isEmpty)
        #expect(checked.stdout.contains("\(relctlBinary.path): needs \(expected.joined(separator: ", "))"), "\(checked)")
    }

    @Test func aFileThatIsNotELFIsAnError() throws {
        try withTemporaryDirectory { dir in
            try dir.write("notes.txt", "not a program\n")
            let checked = try run("python3", [Self.script, "--needed", dir.url.appendingPathComponent("notes.txt").path])
            #expect(checked.status == 2, "\(checked)")
            #expect(checked.stderr.contains("notes.txt: not an ELF file"), "\(checked)")
        }
    }
}
