import RelctlBasics

/// `relctl matrix --format json`: the fully expanded targets.
package struct MatrixDocument: Sendable, Encodable {
    package struct Item: Sendable, Encodable {
        package var target: String
        package var runner: String
        package var format: String
        package var os: String
        package var arch: String
        package var env: String?
        package var links: String
        package var executableSuffix: String
        package var recognized: Bool

        package init(_ target: Target) {
            self.target = target.triple
            self.runner = target.runner
            self.format = target.format
            self.os = target.os
            self.arch = target.arch
            self.env = target.env
            self.links = target.links.rawValue
            self.executableSuffix = target.executableSuffix
            self.recognized = target.isRecognized
        }

        package enum CodingKeys: String, CodingKey {
            case target, runner, format, os, arch, env, links, recognized
            case executableSuffix = "executable-suffix"
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(target, forKey: .target)
            try container.encode(runner, forKey: .runner)
            try container.encode(format, forKey: .format)
            try container.encode(os, forKey: .os)
            try container.encode(arch, forKey: .arch)
            try container.encode(env, forKey: .env)
            try container.encode(links, forKey: .links)
            try container.encode(executableSuffix, forKey: .executableSuffix)
            try container.encode(recognized, forKey: .recognized)
        }
    }

    package var targets: [Item]
}

/// Problems turning `[[target]]` entries into the build matrix; all are bad input (exit 2).
public enum MatrixError: RelctlError, CustomStringConvertible {
    /// A triple relctl has no defaults for, without `runner` or `format`; `missing` names the keys.
    case unknownTriple(triple: String, missing: String, line: Int?)
    /// No `[[target]]` at all, where an empty matrix cannot work (GitHub's).
    case noTargets(config: String)

    public var exitCode: RelctlExitCode { .badInput }

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .unknownTriple(triple, missing, line):
            return [
                Diagnostic(
                    line: line,
                    "unknown target triple `\(triple)`: relctl cannot choose its defaults; give \(missing) in its [[target]] entry, or fix the triple (e.g. `x86_64-unknown-linux-gnu`)"
                )
            ]
        case .noTargets(let config):
            return [Diagnostic(file: config, "no [[target]] entries; \(TargetResolver.addTargetHint)")]
        }
    }

    public var description: String { message }
}
