import Foundation

/// The image configuration blob (`application/vnd.oci.image.config.v1+json`). Fields relctl does
/// not set are kept from a base image when they are listed here; others are dropped.
struct OCIImageConfig: Sendable, Codable, Equatable {
    struct Execution: Sendable, Codable, Equatable {
        var User: String?
        var Env: [String]?
        var Entrypoint: [String]?
        var Cmd: [String]?
        var WorkingDir: String?
        var Labels: [String: String]?
        var StopSignal: String?
        var ExposedPorts: [String: Empty]?
        var Volumes: [String: Empty]?
    }

    /// `{}`, the value of `ExposedPorts` and `Volumes` entries.
    struct Empty: Sendable, Codable, Equatable {}

    struct RootFS: Sendable, Codable, Equatable {
        var type = "layers"
        var diff_ids: [String]
    }

    struct History: Sendable, Codable, Equatable {
        var created: String?
        var created_by: String?
        var comment: String?
        var empty_layer: Bool?
    }

    var created: String?
    var architecture: String
    var os: String
    var variant: String?
    var config: Execution?
    var rootfs: RootFS
    var history: [History]?

    /// An empty image for a platform (what `scratch` means).
    static func scratch(_ platform: ImagePlatform) -> OCIImageConfig {
        OCIImageConfig(
            created: nil, architecture: platform.architecture, os: platform.os, variant: platform.variant,
            config: Execution(), rootfs: RootFS(diff_ids: []), history: nil)
    }
}
