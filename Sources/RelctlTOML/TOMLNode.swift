import TOMLKit

/// A TOML value converted out of TOMLKit's reference types into a plain Sendable tree, so the
/// rest of relctl never touches toml++ pointers.
public indirect enum TOMLNode: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    case array([TOMLNode])
    case table([String: TOMLNode])
    /// Dates and times: relctl reads none, but keeps their text for error messages.
    case other(String)

    /// How deep tables and arrays may nest. relctl and the manifests it reads go a few levels
    /// deep; toml++ bounds values nested in values, but not dotted keys: `a.b.c.….z = 1` with
    /// thousands of parts made this conversion (and the tree's release) recurse until the
    /// stack overflowed (SIGSEGV, found by the fuzzer, issue 26).
    static let maximumDepth = 64

    init(_ value: any TOMLValueConvertible, depth: Int = 0) throws(TOMLSyntaxError) {
        guard depth <= Self.maximumDepth else {
            throw TOMLSyntaxError(
                line: 0,
                message:
                    "tables and arrays nest more than \(Self.maximumDepth) levels deep (a key with that many dotted parts, "
                    + "or values inside values); nothing relctl reads is that deep")
        }
        switch value.type {
        case .string: self = .string(value.string ?? "")
        case .int: self = .integer(value.int ?? 0)
        case .double: self = .float(value.double ?? 0)
        case .bool: self = .bool(value.bool ?? false)
        case .array:
            var result: [TOMLNode] = []
            for element in value.array.map({ Array($0) }) ?? [] { result.append(try TOMLNode(element, depth: depth + 1)) }
            self = .array(result)
        case .table:
            var result: [String: TOMLNode] = [:]
            if let table = value.table {
                for key in table.keys {
                    if let child = table[key] { result[key] = try TOMLNode(child, depth: depth + 1) }
                }
            }
            self = .table(result)
        default:
            self = .other(value.debugDescription)
        }
    }

    /// A short name of the value's type for "expected a string, found an array" messages.
    public var typeName: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .bool: return "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        case .other: return "a date/time"
        }
    }

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var table: [String: TOMLNode]? { if case .table(let t) = self { return t } else { return nil } }
    public var array: [TOMLNode]? { if case .array(let a) = self { return a } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var integer: Int? { if case .integer(let i) = self { return i } else { return nil } }

    /// Follows a dotted path of table keys.
    public subscript(path: String...) -> TOMLNode? {
        var node: TOMLNode? = self
        for key in path { node = node?.table?[key] }
        return node
    }
}
