import Foundation

/// The strict reading a signed JSON document needs before it is decoded: JSON leaves duplicate
/// keys undefined (RFC 8259, 4), and two readers may pick different copies, so a signature over
/// `{"payload": A, "payload": B}` could vouch for a document one tool reads as A and another as
/// B. JSONDecoder keeps one silently; this scan refuses any object with a key twice, at any
/// depth, comparing keys as decoded (`"pay\u006coad"` is `payload`), within a size and a depth
/// limit. It looks only at structure and keys: whatever else is wrong is the decoder's to say.
package enum StrictJSON {
    /// Larger than any provenance or manifest relctl writes, by far.
    package static let defaultSizeLimit = 16 << 20
    package static let depthLimit = 512

    package enum Problem: Error, Equatable, CustomStringConvertible {
        /// `path` names the object (`$`, `$.predicate.buildDefinition`, `$.subject[2]`).
        case duplicateKey(key: String, path: String)
        case tooLarge(limit: Int)
        case tooDeep(limit: Int)

        package var description: String {
            switch self {
            case let .duplicateKey(key, path):
                return "the key `\(outside: key)` appears twice in the object at \(outside: path)"
            case .tooLarge(let limit):
                return "larger than \(ByteCount.format(Int64(limit))), the most relctl reads of a signed JSON document"
            case .tooDeep(let limit):
                return "nested deeper than \(limit) levels"
            }
        }
    }

    /// The first problem in `data`, nil when there is none.
    package static func problem(in data: Data, sizeLimit: Int = defaultSizeLimit) -> Problem? {
        guard data.count <= sizeLimit else { return .tooLarge(limit: sizeLimit) }
        return data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            return scanner.run()
        }
    }

    /// One pass over the bytes with an explicit stack, so depth costs no recursion.
    private struct Scanner {
        enum Frame {
            case object(keys: Set<String>, current: String?, expectingKey: Bool)
            case array(index: Int)
        }

        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var stack: [Frame] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func run() -> Problem? {
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "{"):
                    guard stack.count < StrictJSON.depthLimit else { return .tooDeep(limit: StrictJSON.depthLimit) }
                    stack.append(.object(keys: [], current: nil, expectingKey: true))
                    position += 1
                case UInt8(ascii: "["):
                    guard stack.count < StrictJSON.depthLimit else { return .tooDeep(limit: StrictJSON.depthLimit) }
                    stack.append(.array(index: 0))
                    position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if !stack.isEmpty { stack.removeLast() }
                    position += 1
                case UInt8(ascii: ","):
                    switch stack.last {
                    case let .object(keys, current, _)?:
                        stack[stack.count - 1] = .object(keys: keys, current: current, expectingKey: true)
                    case .array(let index)?: stack[stack.count - 1] = .array(index: index + 1)
                    case nil: break
                    }
                    position += 1
                case UInt8(ascii: "\""):
                    guard let text = string() else { return nil }
                    if case .object(var keys, _, true)? = stack.last {
                        guard !keys.contains(text) else { return .duplicateKey(key: text, path: path()) }
                        // Off the stack while it grows, so the set is not copied for every key.
                        stack.removeLast()
                        keys.insert(text)
                        stack.append(.object(keys: keys, current: text, expectingKey: false))
                    }
                default:
                    position += 1
                }
            }
            return nil
        }

        /// Where the innermost object sits, as `$.key[index].key`.
        func path() -> String {
            var text = "$"
            for frame in stack.dropLast() {
                switch frame {
                case .object(_, let current, _): text += "." + (current ?? "")
                case .array(let index): text += "[\(index)]"
                }
            }
            return text
        }

        /// The string starting at the quote under `position`, escapes decoded; nil when unterminated.
        mutating func string() -> String? {
            position += 1
            var utf8: [UInt8] = []
            var units: [UInt16] = []
            func flushUnits() {
                guard !units.isEmpty else { return }
                utf8 += Array(String(decoding: units, as: UTF16.self).utf8)
                units = []
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    flushUnits()
                    return String(decoding: utf8, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\"), position + 1 < bytes.count {
                    let escaped = bytes[position + 1]
                    if escaped == UInt8(ascii: "u"), let unit = hexUnit(at: position + 2) {
                        units.append(unit)
                        position += 6
                        continue
                    }
                    flushUnits()
                    switch escaped {
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    default: utf8.append(escaped)
                    }
                    position += 2
                    continue
                }
                flushUnits()
                utf8.append(byte)
                position += 1
            }
            return nil
        }

        func hexUnit(at index: Int) -> UInt16? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt16 = 0
            for byte in bytes[index..<(index + 4)] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
            }
            return value
        }
    }
}
