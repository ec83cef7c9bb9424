import Crypto
import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// A chart's declared dependencies (`dependencies:` in an apiVersion v2 `Chart.yaml`) and their
/// lock (`Chart.lock`), read as Helm reads them.
///
/// `Chart.lock`'s `digest` is not a hash of any archive: Helm (`internal/resolver.HashReq`)
/// hashes the JSON of the pair [Chart.yaml's dependencies, the lock's dependencies] with SHA-256,
/// each dependency encoded as Go's `encoding/json` encodes `chart.Dependency` (fields `name`,
/// `version`, `repository`, `condition`, `tags`, `enabled`, `import-values`, `alias` in that
/// order, empty ones left out but `name` and `repository`). It proves the lock was made from these
/// dependencies; `helm dependency build` refuses a lock whose digest does not match. Each archive is
/// checked on its own where it is fetched: against the repository index's `digest` (SHA-256 of the
/// `.tgz`) or the OCI layer's digest, and by the name and version its own Chart.yaml holds.
package struct HelmDependencies: Sendable {
    package struct Dependency: Sendable, Equatable {
        package var name: String
        package var version: String
        package var repository: String
        package var condition: String = ""
        package var tags: [String] = []
        package var enabled = false
        package var importValues: [HelmYAML] = []
        package var alias: String = ""
    }

    package struct Lock: Sendable {
        package var digest: String
        package var dependencies: [Dependency]
    }

    /// As Chart.yaml declares them, in order.
    package var declared: [Dependency]
    package var lock: Lock?

    /// Reads `dependencies` from Chart.yaml's text and the lock from Chart.lock's text (nil when
    /// there is none). `shown` is the chart folder as messages name it.
    package static func read(chartText: String, lockText: String?, shown: String) throws -> HelmDependencies {
        let chartShown = HelmChartFile.fileName(in: shown)
        let chart = try parse(chartText, shown: chartShown)
        let declared = try dependencies(chart["dependencies"], shown: chartShown)
        guard let lockText else { return HelmDependencies(declared: declared, lock: nil) }
        let lockShown = shown == "." ? "Chart.lock" : shown + "/Chart.lock"
        let lockDocument = try parse(lockText, shown: lockShown)
        guard let digest = lockDocument["digest"]?.text else {
            // `dependencies: []` alone (no digest) is a lock of nothing: nothing to check against.
            if declared.isEmpty, (lockDocument["dependencies"]?.items ?? []).isEmpty {
                return HelmDependencies(declared: declared, lock: nil)
            }
            throw ChannelError.chartInvalid(
                path: lockShown, line: nil,
                reason: "has no `digest`; run `helm dependency update` to write the lock again")
        }
        let locked = try dependencies(lockDocument["dependencies"], shown: lockShown)
        return HelmDependencies(declared: declared, lock: Lock(digest: digest, dependencies: locked))
    }

    private static func parse(_ text: String, shown: String) throws -> HelmYAML {
        do { return try HelmYAML.parse(text) } catch {
            throw ChannelError.chartInvalid(
                path: shown, line: error.line == 0 ? nil : error.line, reason: error.reason)
        }
    }

    private static func dependencies(_ node: HelmYAML?, shown: String) throws -> [Dependency] {
        guard let node else { return [] }
        guard let items = node.items else {
            throw ChannelError.chartInvalid(path: shown, line: nil, reason: "`dependencies` is not a list")
        }
        return try items.map { item in
            guard case .map = item, let name = item["name"]?.text.map(sanitized), !name.isEmpty else {
                throw ChannelError.chartInvalid(
                    path: shown, line: nil,
                    reason: "a dependency has no `name`; each needs `name`, `version` and `repository`")
            }
            var dependency = Dependency(
                name: name, version: item["version"]?.text.map(sanitized) ?? "",
                repository: item["repository"]?.text.map(sanitized) ?? "")
            dependency.condition = item["condition"]?.text.map(sanitized) ?? ""
            dependency.tags = (item["tags"]?.items ?? []).compactMap { $0.text.map(sanitized) }
            dependency.enabled = item["enabled"]?.text == "true"
            dependency.importValues = item["import-values"]?.items ?? []
            dependency.alias = item["alias"]?.text ?? ""
            return dependency
        }
    }

    /// Helm's `sanitizeString`: white space becomes a space, what cannot be printed is dropped.
    static func sanitized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                result.append(" ")
            } else if !(scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                || scalar.properties.generalCategory == .unassigned
                || scalar.properties.generalCategory == .surrogate
                || scalar.properties.generalCategory == .privateUse)
            {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `sha256:` and the hex SHA-256 of `[[declared…],[locked…]]` as Go's encoding/json writes it.
    package static func digest(declared: [Dependency], locked: [Dependency]) -> String {
        let json = "[" + list(declared) + "," + list(locked) + "]"
        return "sha256:" + FileHasher.hex(SHA256.hash(data: Data(json.utf8)))
    }

    private static func list(_ dependencies: [Dependency]) -> String {
        // A nil slice is `null` in Go; Helm reads an absent list as nil.
        if dependencies.isEmpty { return "null" }
        return "[" + dependencies.map(object).joined(separator: ",") + "]"
    }

    private static func object(_ dependency: Dependency) -> String {
        var fields = ["\"name\":" + goString(dependency.name)]
        if !dependency.version.isEmpty { fields.append("\"version\":" + goString(dependency.version)) }
        fields.append("\"repository\":" + goString(dependency.repository))
        if !dependency.condition.isEmpty { fields.append("\"condition\":" + goString(dependency.condition)) }
        if !dependency.tags.isEmpty {
            fields.append("\"tags\":[" + dependency.tags.map(goString).joined(separator: ",") + "]")
        }
        if dependency.enabled { fields.append("\"enabled\":true") }
        if !dependency.importValues.isEmpty {
            fields.append("\"import-values\":[" + dependency.importValues.map(goValue).joined(separator: ",") + "]")
        }
        if !dependency.alias.isEmpty { fields.append("\"alias\":" + goString(dependency.alias)) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A YAML value as Go encodes what sigs.k8s.io/yaml decoded into `interface{}` (map keys sorted).
    private static func goValue(_ value: HelmYAML) -> String {
        switch value {
        case .null: return "null"
        case .scalar(let text):
            if text == "true" || text == "false" || Double(text) != nil && text.first != "+" && !text.hasPrefix(".") {
                return text
            }
            return goString(text)
        case .list(let items): return "[" + items.map(goValue).joined(separator: ",") + "]"
        case .map(let entries):
            let sorted = entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            return "{" + sorted.map { goString($0.key) + ":" + goValue($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// A string as Go's encoding/json writes it: HTML-safe (`<`, `>`, `&` escaped), U+2028 and U+2029 escaped.
    static func goString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                result += String(format: "\\u%04x", scalar.value)
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The lock's entry for a declared dependency (same name; Helm keeps them in the same order).
    package func locked(_ dependency: Dependency, at index: Int) -> Dependency? {
        guard let lock else { return nil }
        if index < lock.dependencies.count, lock.dependencies[index].name == dependency.name {
            return lock.dependencies[index]
        }
        return lock.dependencies.first { $0.name == dependency.name }
    }
}
