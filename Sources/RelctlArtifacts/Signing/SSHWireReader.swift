import Foundation
import RelctlBasics

/// Reads the SSH wire encoding; every read is bounds-checked and a short buffer throws.
package struct SSHWireReader {
    package struct Truncated: Error {}

    private let bytes: [UInt8]
    package private(set) var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { offset == bytes.count }
    package var remaining: ArraySlice<UInt8> { bytes[offset...] }

    package mutating func raw(_ count: Int) throws -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else { throw Truncated() }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    package mutating func uint32() throws -> UInt32 {
        let b = try raw(4)
        return UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
    }

    package mutating func string() throws -> [UInt8] { try raw(Int(try uint32())) }

    package mutating func text() throws -> String { String(decoding: try string(), as: UTF8.self) }
}
