import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics

/// The MSI's derived codes and version, the WiX source's escaping, and the summary pin on a
/// hand-made compound file (issue 60).
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct MSICodesTests {
    @Test func codesAreVersion5UUIDsOfRelctlsNamespace() {
        // Python: uuid.uuid5(UUID('29a56827-dd8c-5c1b-86f3-180a6c0bd1ba'), 'upgrade:demo').
        #expect(MSICodes.upgradeCode(project: "demo") == "{EB31A897-9F3A-5E7B-A1AE-24DA1C6D4BE2}")
        let first = MSICodes.productCode(project: "demo", version: "1.0.0", target: "x86_64-pc-windows-msvc")
        let second = MSICodes.productCode(project: "demo", version: "1.1.0", target: "x86_64-pc-windows-msvc")
        #expect(first != second && first.count == 38)
        #expect(first == MSICodes.productCode(project: "demo", version: "1.0.0", target: "x86_64-pc-windows-msvc"))
    }

    @Test func productVersionsAreThreeNumbersWithinWindowsInstallersLimits() {
        #expect(MSICodes.productVersion("1.2.3").version == "1.2.3")
        #expect(MSICodes.productVersion("1.2.0-rc.1").version == "1.2.0")
        #expect(MSICodes.productVersion("1.2.0+build.5").version == "1.2.0")
        #expect(MSICodes.productVersion("256.0.0").version == nil)
        #expect(MSICodes.productVersion("1.0.65536").version == nil)
        #expect(MSICodes.productVersion("2024.1.1").problem != nil)
        #expect(MSICodes.productVersion("1.0").problem != nil)
    }

    @Test func xmlValuesAreEscapedAndControlCharactersRefused() throws {
        #expect(try XMLEmitter.attribute("a&b<c>\"d'\te", what: "x") == "a&amp;b&lt;c&gt;&quot;d&apos;&#9;e")
        #expect(throws: EmitterError.self) { try XMLEmitter.text("bell\u{7}", what: "x") }
        #expect(WixSource.problem(inName: "demo") == nil)
        #expect(WixSource.problem(inName: "de:mo") != nil)
        #expect(WixSource.problem(inName: "$(env.HOME)") != nil)
        #expect(WixSource.formattedLiteral("a[b]c") == "a[\\[]b[\\]]c")
        var wix = WixSource(
            project: "a&b", manufacturer: "M <m@example.org>", productVersion: "1.0.0", upgradeCode: "{U}",
            productCode: "{P}", packageCode: "{K}", componentCode: "{C}", architecture: "x64",
            files: [.init(name: "a&b.exe", source: "files/0-a&b.exe")])
        let text = try wix.render()
        #expect(text.contains("Name=\"a&amp;b\"") && text.contains("Manufacturer=\"M &lt;m@example.org&gt;\""))
        #expect(text.contains("<Directory Id=\"ProgramFiles64Folder\">") && text.contains("Win64=\"yes\""))
        wix.architecture = "x86"
        #expect(try wix.render().contains("<Directory Id=\"ProgramFilesFolder\">"))
    }

    /// A one-sector compound file holding a summary stream in the mini stream: the pin changes the
    /// three values and nothing else.
    @Test func thePinRewritesTheTimesAndRevisionInPlace() throws {
        let revision = "{00000000-0000-0000-0000-000000000000}"
        // The property set: header, one section with PIDs 9, 12, 13.
        var section: [UInt8] = []
        func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let body9 = u32(0x1E) + u32(39) + Array(revision.utf8) + [0]
        let body12 = u32(0x40) + [UInt8](repeating: 0xAA, count: 8)
        let body13 = u32(0x40) + [UInt8](repeating: 0xBB, count: 8)
        let listSize = 8 + 3 * 8
        var offset = listSize
        var list: [UInt8] = []
        var bodies: [UInt8] = []
        for (id, body) in [(9, body9), (12, body12), (13, body13)] {
            list += u32(UInt32(id)) + u32(UInt32(offset))
            var padded = body
            while padded.count % 4 != 0 { padded.append(0) }
            bodies += padded
            offset += padded.count
        }
        section = u32(UInt32(offset)) + u32(3) + list + bodies
        var stream: [UInt8] = [0xFE, 0xFF, 0, 0] + u32(0) + [UInt8](repeating: 0, count: 16) + u32(1)
        stream += [UInt8](repeating: 0x11, count: 16) + u32(48)
        stream += section
        // The file: header, FAT sector 0, directory sector 1, mini FAT sector 2, mini stream from sector 3.
        let sectors = 3 + (stream.count + 511) / 512
        var file = [UInt8](repeating: 0, count: 512 * (sectors + 1))
        func put(_ bytes: [UInt8], at: Int) { for (i, b) in bytes.enumerated() { file[at + i] = b } }
        put([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1], at: 0)
        put([9, 0], at: 0x1E)
        put([6, 0], at: 0x20)
        put(u32(1), at: 0x2C)
        put(u32(1), at: 0x30)
        put(u32(4096), at: 0x38)
        put(u32(2), at: 0x3C)
        put(u32(1), at: 0x40)
        put(u32(0xFFFF_FFFE), at: 0x44)
        put(u32(0), at: 0x4C)
        for index in 1..<109 { put(u32(0xFFFF_FFFF), at: 0x4C + 4 * index) }
        // FAT: 0 FATSECT, 1 end, 2 end, 3… the mini stream chain.
        var fat = u32(0xFFFF_FFFD) + u32(0xFFFF_FFFE) + u32(0xFFFF_FFFE)
        for sector in 3..<sectors { fat += u32(sector + 1 < sectors ? UInt32(sector + 1) : 0xFFFF_FFFE) }
        put(fat, at: 512)
        func entry(_ name: String, type: UInt8, start: UInt32, size: UInt32) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 128)
            let units = Array(name.utf16) + [0]
            for (i, unit) in units.enumerated() {
                bytes[2 * i] = UInt8(unit & 0xFF)
                bytes[2 * i + 1] = UInt8(unit >> 8)
            }
            bytes[0x40] = UInt8(units.count * 2)
            bytes[0x42] = type
            for (i, b) in u32(start).enumerated() { bytes[0x74 + i] = b }
            for (i, b) in u32(size).enumerated() { bytes[0x78 + i] = b }
            return bytes
        }
        let miniSectors = (stream.count + 63) / 64
        put(entry("Root Entry", type: 5, start: 3, size: UInt32(miniSectors * 64)), at: 1024)
        put(entry("\u{5}SummaryInformation", type: 2, start: 0, size: UInt32(stream.count)), at: 1024 + 128)
        var miniFAT: [UInt8] = []
        for mini in 0..<miniSectors { miniFAT += u32(mini + 1 < miniSectors ? UInt32(mini + 1) : 0xFFFF_FFFE) }
        put(miniFAT, at: 1536)
        put(stream, at: 2048)

        let pinned = try CompoundFileSummary.pinned(
            Data(file), epoch: 1_700_000_000, revision: "{11111111-2222-5333-8444-555555555555}")
        let changed = zip(file, pinned).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(!changed.isEmpty && changed.allSatisfy { $0 >= 2048 && $0 < 2048 + stream.count })
        let text = String(decoding: pinned, as: UTF8.self)
        #expect(text.contains("{11111111-2222-5333-8444-555555555555}"))
        // 1700000000 s after 1970 in 100 ns ticks since 1601.
        let ticks = UInt64(1_700_000_000 + 11_644_473_600) * 10_000_000
        let expected = (0..<8).map { UInt8(truncatingIfNeeded: ticks >> (8 * UInt64($0))) }
        #expect(Array(pinned).indices(of: expected).count == 2)
        #expect(throws: CompoundFileSummary.Problem.notACompoundFile) {
            try CompoundFileSummary.pinned(Data("not a file".utf8), epoch: 0, revision: revision)
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func indices(of needle: [UInt8]) -> [Int] {
        guard count >= needle.count else { return [] }
        return (0...(count - needle.count)).filter { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
