import RelctlBasics

/// Where each string value of a JSON document sits: its key path and line. JSONSerialization
/// gives values but no positions, and a companion must name (and edit) its exact line.
package struct JSONStringLines {
    package struct Entry: Equatable {
        package var path: [String]
        package var line: Int
        package var value: String
        /// UTF-8 offset of the value's first byte within its line: a minified document holds
        /// every value on line 1, and two versions on one line must not be taken for one.
        package var column: Int = 0
    }

    package var entries: [Entry] = []

    /// Scans `text`; array elements get their index as a path step. Escapes inside strings are
    /// kept as written (version texts and package names hold none).
    package init(_ text: String) {
        enum Container { case object(key: String?), array(index: Int) }
        var stack: [Container] = []
        var path: [String] {
            stack.compactMap { frame -> String? in
                switch frame {
                case .object(let key): return key
                case .array(let index): return String(index)
                }
            }
        }
        let bytes = Array(text.utf8)
        var index = 0, line = 1, lineStart = 0
        var expectingKey = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = index + 1
            case UInt8(ascii: "{"):
                stack.append(.object(key: nil))
                expectingKey = true
            case UInt8(ascii: "["):
                stack.append(.array(index: 0))
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
                expectingKey = false
            case UInt8(ascii: ","):
                if case .array(let position)? = stack.last { stack[stack.count - 1] = .array(index: position + 1) }
                if case .object? = stack.last { stack[stack.count - 1] = .object(key: nil); expectingKey = true }
            case UInt8(ascii: "\""):
                let start = index + 1
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\") { end += 1 }
                    end += 1
                }
                let value = String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
                if expectingKey, case .object? = stack.last {
                    stack[stack.count - 1] = .object(key: value)
                    expectingKey = false
                } else {
                    entries.append(Entry(path: path, line: line, value: value, column: start - lineStart))
                }
                index = end
            default:
                break
            }
            index += 1
        }
    }

    /// The string at exactly `path`, or nil.
    package func entry(at path: [String]) -> Entry? { entries.first { $0.path == path } }
}
