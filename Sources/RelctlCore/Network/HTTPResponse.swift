import Foundation

/// A response with its headers looked up case-insensitively, as HTTP requires.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var body: Data
    private var fields: [String: String]

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.body = body
        var fields: [String: String] = [:]
        for (name, value) in headers { fields[name.lowercased()] = value }
        self.fields = fields
    }

    public func header(_ name: String) -> String? { fields[name.lowercased()] }

    public var text: String { String(decoding: body, as: UTF8.self) }
}
