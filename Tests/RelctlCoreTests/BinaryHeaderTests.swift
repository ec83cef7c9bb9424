import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlModel

/// Headers as the specifications lay them out (ELF gABI, Mach-O `fat_header`, PE/COFF), written
/// byte by byte here, read by `BinaryHeader` (issue 57, item 1).
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct BinaryHeaderTests {
    private func target(_ triple: String) throws -> Target {
        try TargetResolver.resolve(TargetSettings(triple: triple, runner: "any", format: "tar.gz"))
    }

    /// A 64-bit little-endian ELF header with `osABI` and `machine`.
    private func elf(osABI: UInt8, machine: UInt16) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes[0...3] = [0x7F, 0x45, 0x4C, 0x46]
        bytes[4] = 2
        bytes[5] = 1
        bytes[7] = osABI
        bytes[18] = UInt8(machine & 0xFF)
        bytes[19] = UInt8(machine >> 8)
        return bytes
    }

    @Test func elfMachineAndABI() throws {
        let linuxArm = try #require(BinaryHeader.parse(elf(osABI: 0, machine: 183)))
        #expect(linuxArm.machines == ["aarch64"])
        #expect(linuxArm.mismatch(for: try target("aarch64-unknown-linux-gnu")) == nil)
        #expect(linuxArm.mismatch(for: try target("arm64-unknown-linux-gnu")) == nil)
        #expect(linuxArm.mismatch(for: try target("x86_64-unknown-linux-gnu")) != nil)
        #expect(linuxArm.mismatch(for: try target("aarch64-apple-darwin")) != nil)
        let freebsd = try #require(BinaryHeader.parse(elf(osABI: 9, machine: 62)))
        #expect(freebsd.mismatch(for: try target("x86_64-unknown-freebsd")) == nil)
        #expect(freebsd.mismatch(for: try target("x86_64-unknown-linux-gnu")) != nil)
        #expect(freebsd.mismatch(for: try target("amd64-unknown-freebsd")) == nil)
    }

    @Test func fatMachOAndJavaClass() throws {
        // fat_header: magic, 2 slices; fat_arch: cputype, subtype, offset, size, align (big-endian).
        var fat: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2]
        fat += [0x01, 0, 0, 0x07, 0, 0, 0, 3, 0, 0, 0x40, 0, 0, 0, 0x10, 0, 0, 0, 0, 14]
        fat += [0x01, 0, 0, 0x0C, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x10, 0, 0, 0, 0, 14]
        let header = try #require(BinaryHeader.parse(fat))
        #expect(header.isFat && header.machines == ["x86_64", "aarch64"])
        #expect(header.mismatch(for: try target("universal-apple-darwin")) == nil)
        #expect(header.mismatch(for: try target("aarch64-apple-darwin")) == nil)
        #expect(header.mismatch(for: try target("aarch64-unknown-linux-gnu")) != nil)
        // A Java class file (version 52) shares the magic: no binary.
        #expect(BinaryHeader.parse([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 0]) == nil)
        let thin = try #require(BinaryHeader.parse([0xCF, 0xFA, 0xED, 0xFE, 0x07, 0, 0, 0x01, 3, 0, 0, 0]))
        #expect(thin.mismatch(for: try target("universal-apple-darwin")) != nil, "one slice is not universal")
    }

    @Test func peMachineAndScripts() throws {
        var pe = [UInt8](repeating: 0, count: 0x90)
        pe[0] = 0x4D
        pe[1] = 0x5A
        pe[0x3C] = 0x80
        pe[0x80...0x85] = [0x50, 0x45, 0, 0, 0x64, 0xAA]
        let header = try #require(BinaryHeader.parse(pe))
        #expect(header.container == .pe && header.machines == ["aarch64"])
        #expect(header.mismatch(for: try target("aarch64-pc-windows-msvc")) == nil)
        #expect(header.mismatch(for: try target("x86_64-pc-windows-msvc")) != nil)
        #expect(BinaryHeader.parse(Array("#!/bin/sh\necho hi\n".utf8)) == nil)
        #expect(BinaryHeader.parse(Array("MZ".utf8)) == nil)
    }
}
