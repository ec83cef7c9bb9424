import Foundation
import RelctlBasics
import RelctlModel

/// An OCI platform (`linux/arm64/v8`) derived from a target triple, as Go's GOOS/GOARCH name it.
package struct ImagePlatform: Sendable, Hashable, Codable, CustomStringConvertible {
    package var os: String
    package var architecture: String
    package var variant: String?

    package init(os: String, architecture: String, variant: String? = nil) {
        self.os = os
        self.architecture = architecture
        self.variant = variant
    }

    /// Nil when the triple's OS is not Linux or its CPU has no OCI name.
    package init?(target: Target) {
        guard target.os == "linux" else { return nil }
        switch target.arch {
        case "x86_64": self.init(os: "linux", architecture: "amd64")
        case "aarch64", "arm64": self.init(os: "linux", architecture: "arm64", variant: "v8")
        case "i686", "i586": self.init(os: "linux", architecture: "386")
        case "armv7", "thumbv7neon": self.init(os: "linux", architecture: "arm", variant: "v7")
        case "arm": self.init(os: "linux", architecture: "arm", variant: "v6")
        case "riscv64gc", "riscv64": self.init(os: "linux", architecture: "riscv64")
        case "powerpc64le": self.init(os: "linux", architecture: "ppc64le")
        case "s390x": self.init(os: "linux", architecture: "s390x")
        case "loongarch64": self.init(os: "linux", architecture: "loong64")
        default: return nil
        }
    }

    package var description: String { [os, architecture, variant].compactMap { $0 }.joined(separator: "/") }

    /// True when a base image's platform can carry this one (a missing variant matches any).
    package func accepts(_ other: ImagePlatform) -> Bool {
        os == other.os && architecture == other.architecture
            && (variant == nil || other.variant == nil || variant == other.variant)
    }
}

extension ImageSettings {
    /// The configured targets this image is built for: its `targets`, else every Linux one.
    package func selectTargets(_ all: [Target]) -> [Target] {
        if let targets { return all.filter { targets.contains($0.triple) } }
        return all.filter { $0.os == "linux" }
    }
}
