import Foundation
import RelctlBasics

/// A user name and secret for one registry, from the Docker config file or a credential helper.
package struct RegistryCredentials: Sendable, Equatable {
    package var username: String
    package var password: String

    package init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `Basic base64(user:password)`.
    package var basicHeader: String { "Basic " + Data("\(username):\(password)".utf8).base64EncodedString() }
}
