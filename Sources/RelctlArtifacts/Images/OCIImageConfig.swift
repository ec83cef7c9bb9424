import Foundation
import RelctlBasics

/// The image configuration blob (`application/vnd.oci.image.config.v1+json`). Fields relctl does
/// not set are kept from a base image when they are listed here; others are dropped.
package struct OCIImageConfig: Sendable, Codable, Equatable {
    package struct Execution: Sendable, Codable, Equatable {
        package var User: String?
        package var Env: [String]?
        package var Entrypoint: [String]?
        package var Cmd: [String]?
        package var WorkingDir: String?
        package var Labels: [String: String]?
        package var StopSignal: String?
        package var ExposedPorts: [String: Empty]?
        package var Volumes: [String: Empty]?
    }

    /// `{}`, the value of `ExposedPorts` and `Volumes` entries.
    package struct Empty: Sendable, Codable, Equatable {}

    package struct RootFS: Sendable, Codable, Equatable {
        package var type = "layers"
        package var diff_ids: [String]
    }

    package struct History: Sendable, Codable, Equatable {
        package var created: String?
        package var created_by: String?
        package var comment: String?
        package var empty_layer: Bool?
    }

    package var created: String?
    package var architecture: String
    package var os: String
    package var variant: String?
    package var config: Execution?
    package var rootfs: RootFS
    package var history: [History]?

    /// An empty image for a platform (what `scratch` means).
    package static func scratch(_ platform: ImagePlatform) -> OCIImageConfig {
        OCIImageConfig(
            created: nil, architecture: platform.architecture, os: platform.os, variant: platform.variant,
            config: Execution(), rootfs: RootFS(diff_ids: []), history: nil)
    }
}
