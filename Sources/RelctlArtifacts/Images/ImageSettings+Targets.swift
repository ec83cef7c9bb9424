import RelctlBasics
import RelctlModel

extension ImageSettings {
    /// The configured targets this image is built for: its `targets`, else every Linux one.
    package func selectTargets(_ all: [Target]) -> [Target] {
        if let targets { return all.filter { targets.contains($0.triple) } }
        return all.filter { $0.os == "linux" }
    }
}
