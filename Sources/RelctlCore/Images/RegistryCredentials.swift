import Foundation

/// A user name and secret for one registry, from the Docker config file or a credential helper.
struct RegistryCredentials: Sendable, Equatable {
    var username: String
    var password: String

    init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `Basic base64(user:password)`.
    var basicHeader: String { "Basic " + Data("\(username):\(password)".utf8).base64EncodedString() }
}
