import Foundation
import RelctlBasics
import RelctlModel

/// What an executable's header says it was built for: its container (ELF, Mach-O, PE, WebAssembly),
/// its CPU (each slice of a fat Mach-O) and, for ELF, the OS ABI byte. A file with none of these
/// headers (a shell script, a text stand-in) is no binary and fits any target.
package struct BinaryHeader: Sendable, Equatable {
    package enum Container: String, Sendable {
        case elf = "ELF"
        case machO = "Mach-O"
        case pe = "PE"
        case wasm = "WebAssembly"
    }

    package var container: Container
    /// Rust-style CPU names (`x86_64`, `aarch64`, `i686`, `arm`…), one per slice of a fat Mach-O;
    /// a machine relctl does not name is spelled with its number (`machine 0x1234`).
    package var machines: [String]
    /// ELF's `EI_OSABI` (0 System V, 3 GNU/Linux, 9 FreeBSD…); nil for the other containers.
    package var osABI: UInt8?
    /// true for a fat (universal) Mach-O.
    package var isFat = false

    /// How many bytes of a file `read` looks at: every header it reads sits well inside.
    package static let readLimit = 64 * 1024

    /// The header of the file at `path`, or nil when it is no binary relctl recognises.
    package static func read(path: String) throws -> BinaryHeader? {
        let file: ReadableFile
        do { file = try ReadableFile(path: path) } catch {
            throw PackagingError.unreadable(path: path, reason: String(cString: strerror(error.code)))
        }
        var bytes = [UInt8](repeating: 0, count: readLimit)
        var filled = 0
        while filled < readLimit {
            let count = bytes.withUnsafeMutableBytes { buffer in
                (try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))) ?? 0
            }
            if count == 0 { break }
            filled += count
        }
        return parse(Array(bytes[..<filled]))
    }

    /// The header whose first bytes are `bytes`, or nil when they start no binary relctl recognises.
    package static func parse(_ bytes: [UInt8]) -> BinaryHeader? {
        func number(_ offset: Int, _ size: Int, bigEndian: Bool) -> UInt64? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in 0..<size {
                value = value << 8 | UInt64(bytes[offset + (bigEndian ? index : size - 1 - index)])
            }
            return value
        }
        guard bytes.count >= 4 else { return nil }
        let magic = number(0, 4, bigEndian: true)!
        switch magic {
        case 0x7F45_4C46:  // "\x7fELF"
            guard bytes.count >= 20 else { return nil }
            let is64 = bytes[4] == 2, big = bytes[5] == 2
            guard let machine = number(18, 2, bigEndian: big) else { return nil }
            return BinaryHeader(
                container: .elf, machines: [elfMachine(Int(machine), is64: is64, bigEndian: big)], osABI: bytes[7])
        case 0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE:
            let big = magic == 0xFEED_FACE || magic == 0xFEED_FACF
            guard let cpu = number(4, 4, bigEndian: big) else { return nil }
            return BinaryHeader(container: .machO, machines: [machOCPU(cpu)], osABI: nil)
        case 0xCAFE_BABE, 0xCAFE_BABF:
            // Java class files share this magic; their version (>= 45) is where a fat file keeps its
            // slice count, which is small.
            guard let count = number(4, 4, bigEndian: true), count > 0, count < 45 else { return nil }
            let entry = magic == 0xCAFE_BABF ? 32 : 20
            var machines: [String] = []
            for index in 0..<Int(count) {
                guard let cpu = number(8 + index * entry, 4, bigEndian: true) else { return nil }
                machines.append(machOCPU(cpu))
            }
            return BinaryHeader(container: .machO, machines: machines, osABI: nil, isFat: true)
        case 0x0061_736D:  // "\0asm"
            return BinaryHeader(container: .wasm, machines: ["wasm32"], osABI: nil)
        default:
            guard bytes[0] == 0x4D, bytes[1] == 0x5A, let start = number(0x3C, 4, bigEndian: false).map(Int.init),
                number(start, 4, bigEndian: true) == 0x5045_0000, let machine = number(start + 4, 2, bigEndian: false)
            else { return nil }
            return BinaryHeader(container: .pe, machines: [peMachine(Int(machine))], osABI: nil)
        }
    }

    private static func hex(_ value: Int) -> String { "machine 0x" + String(value, radix: 16) }

    private static func elfMachine(_ machine: Int, is64: Bool, bigEndian: Bool) -> String {
        switch machine {
        case 3: return "i686"
        case 8: return is64 ? "mips64" : "mips"
        case 20: return "powerpc"
        case 21: return bigEndian ? "powerpc64" : "powerpc64le"
        case 22: return "s390x"
        case 40: return "arm"
        case 62: return "x86_64"
        case 183: return "aarch64"
        case 243: return is64 ? "riscv64" : "riscv32"
        case 258: return "loongarch64"
        default: return hex(machine)
        }
    }

    private static func machOCPU(_ cpu: UInt64) -> String {
        switch cpu {
        case 7: return "i686"
        case 12: return "arm"
        case 0x0100_0007: return "x86_64"
        case 0x0100_000C: return "aarch64"
        case 0x0200_000C: return "arm64_32"
        case 18: return "powerpc"
        default: return hex(Int(cpu))
        }
    }

    private static func peMachine(_ machine: Int) -> String {
        switch machine {
        case 0x14C: return "i686"
        case 0x1C0, 0x1C2, 0x1C4: return "arm"
        case 0x8664: return "x86_64"
        case 0xAA64: return "aarch64"
        default: return hex(machine)
        }
    }

    /// ELF OS ABI values and the OS each one names; 0 (System V) names none.
    private static let elfABIs: [UInt8: String] = [
        1: "hpux", 2: "netbsd", 3: "linux", 6: "illumos", 9: "freebsd", 12: "openbsd",
    ]

    /// The container a target's OS runs; nil for an OS relctl does not know.
    private static func container(for os: String) -> Container? {
        switch os {
        case "linux", "freebsd", "netbsd", "openbsd", "android", "illumos": return .elf
        case "macos", "ios": return .machO
        case "windows": return .pe
        case "wasi": return .wasm
        default: return nil
        }
    }

    /// `x86-64 ELF (Linux ABI)`, `Mach-O universal (x86_64, aarch64)`: what the header says.
    package var summary: String {
        if isFat { return "a universal Mach-O (\(machines.joined(separator: ", ")))" }
        var text = "a \(machines.joined()) \(container.rawValue) binary"
        if let osABI, let os = Self.elfABIs[osABI] { text += " (\(os) ABI)" }
        return text
    }

    /// Why this binary cannot run on `target`, or nil when it can (or relctl cannot tell: an OS
    /// or architecture it does not know). A universal target needs both macOS slices.
    package func mismatch(for target: Target) -> String? {
        if let expected = Self.container(for: target.os), expected != container {
            return "\(target.os) runs \(expected.rawValue) binaries"
        }
        if container == .elf, let osABI, let os = Self.elfABIs[osABI], os != target.os,
            !(os == "linux" && target.os == "android")
        {
            return "its ELF OS ABI is \(os)'s"
        }
        let wanted = target.machines
        guard !wanted.isEmpty else { return nil }
        let missing = wanted.filter { !machines.contains($0) }
        if !missing.isEmpty {
            return "it holds no \(missing.joined(separator: " or ")) code"
        }
        return nil
    }

    /// The refusal for a built binary at `path` that cannot run on `target`, or nil when it can
    /// (or has no binary header: a script fits any target). The deb/rpm and image writers check
    /// each binary as `relctl package` does, before anything is written.
    package static func wrongPlatform(binary: String, path: URL, target: Target) throws -> PackagingError? {
        guard let header = try read(path: path.path), let reason = header.mismatch(for: target) else { return nil }
        return .wrongPlatform(
            binary: binary, path: path.path, target: target.triple, found: header.summary, reason: reason)
    }
}
