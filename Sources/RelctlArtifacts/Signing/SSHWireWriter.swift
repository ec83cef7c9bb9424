import Foundation
import RelctlBasics

/// The SSH wire encoding (RFC 4251 §5) used by OpenSSH keys and SSHSIG: big-endian `uint32`
/// and length-prefixed `string`s.
package struct SSHWireWriter {
    package private(set) var bytes: [UInt8] = []

    package mutating func raw(_ data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }

    package mutating func uint32(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }

    package mutating func string(_ data: some Collection<UInt8>) {
        uint32(UInt32(data.count))
        bytes.append(contentsOf: data)
    }

    package mutating func string(_ text: String) { string(Array(text.utf8)) }
}
