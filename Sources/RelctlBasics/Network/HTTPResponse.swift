import Foundation

/// A response with its headers looked up case-insensitively, as HTTP requires.
public struct HTTPResponse: Sendable {
    package var status: Int
    package var body: Data
    private var fields: [String: String]

    package init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.body = body
        var fields: [String: String] = [:]
        for (name, value) in headers { fields[name.lowercased()] = value }
        self.fields = fields
    }

    package func header(_ name: String) -> String? { fields[name.lowercased()] }

    package var text: String { String(decoding: body, as: UTF8.self) }
}
