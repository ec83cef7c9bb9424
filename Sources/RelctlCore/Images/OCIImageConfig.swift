import Foundation

/// The image configuration blob (`application/vnd.oci.image.config.v1+json`). Fields relctl does
/// not set are kept from a base image when they are listed here; others are dropped.
public struct OCIImageConfig: Sendable, Codable, Equatable {
    public struct Execution: Sendable, Codable, Equatable {
        public var User: String?
        public var Env: [String]?
        public var Entrypoint: [String]?
        public var Cmd: [String]?
        public var WorkingDir: String?
        public var Labels: [String: String]?
        public var StopSignal: String?
        public var ExposedPorts: [String: Empty]?
        public var Volumes: [String: Empty]?
    }

    /// `{}`, the value of `ExposedPorts` and `Volumes` entries.
    public struct Empty: Sendable, Codable, Equatable {}

    public struct RootFS: Sendable, Codable, Equatable {
        public var type = "layers"
        public var diff_ids: [String]
    }

    public struct History: Sendable, Codable, Equatable {
        public var created: String?
        public var created_by: String?
        public var comment: String?
        public var empty_layer: Bool?
    }

    public var created: String?
    public var architecture: String
    public var os: String
    public var variant: String?
    public var config: Execution?
    public var rootfs: RootFS
    public var history: [History]?

    /// An empty image for a platform (what `scratch` means).
    static func scratch(_ platform: ImagePlatform) -> OCIImageConfig {
        OCIImageConfig(
            created: nil, architecture: platform.architecture, os: platform.os, variant: platform.variant,
            config: Execution(), rootfs: RootFS(diff_ids: []), history: nil)
    }
}
