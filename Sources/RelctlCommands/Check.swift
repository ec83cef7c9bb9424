import ArgumentParser
import RelctlBasics
import RelctlModel
import RelctlProject
import RelctlRelease

struct Check: RelctlCommand {
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// One line per member: where it is, what was read of it and how it is tagged.
    func printMembers(_ members: [CheckReport.Member], _ context: Context) {
        for member in members {
            let manifests = member.manifests == 0 ? "no manifest" : Self.count(member.manifests, "manifest")
            let targets = member.targets == 0 ? "no target (tag only)" : Self.count(member.targets, "target")
            context.console.info(
                "member \(outside: member.name) (\(outside: member.path == "." ? "./" : member.path + "/")): \(manifests), \(targets), tags \(outside: member.tagFormat)\(member.ownConfig ? ", its own relctl.toml" : "")"
            )
        }
    }

    static let configuration = CommandConfiguration(
        abstract: "Validate relctl.toml and the repository, listing every problem found."
    )

    @OptionGroup var global: GlobalOptions

    func execute(_ context: Context) async throws {
        let report = try await ProjectChecker.check(configPath: global.config, context: context)
        for warning in report.warnings {
            context.console.warning(Diagnostic(file: warning.file, line: warning.line, warning.message).description)
        }
        if global.json { try emitJSON(report, context) }
        if let members = report.members { printMembers(members, context) }
        if let error = report.error { throw error }
        let file = global.config ?? "relctl.toml"
        if let members = report.members {
            context.console.info(
                "\(file): ok (a workspace of \(Self.count(members.count, "member")); at its root \(Self.count(report.manifests, "manifest")), \(Self.count(report.targets, "target")))"
            )
            return
        }
        context.console.info(
            "\(file): ok (\(Self.count(report.manifests, "manifest")), \(Self.count(report.targets, "target"))\(report.targets == 0 ? ": a tag-only release" : ""))"
        )
    }
}

struct ValidateTag: RelctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate-tag",
        abstract: "Check that TAG is well-formed and equals the version in every configured manifest.",
        discussion:
            "Exit 0 when all match, 1 on a mismatch (each file named with the version it holds), 2 for a malformed tag, bad config or missing manifest."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The tag to check, e.g. v1.2.0.") var tag: String

    func execute(_ context: Context) async throws {
        // At a workspace root the tag names its member (`core-v1.2.0`): that member's manifests.
        let config = try await ConfigLoader.load(path: global.config, context: context).forTag(tag, context: context)
        // `.compared` reads every manifest, so the validation is always there.
        guard let validation = try ReleaseIdentity.check(tag, config: config, manifests: .compared).validation else {
            return
        }
        if global.json { try emitJSON(validation, context) }
        if let error = validation.mismatchError { throw error }
        if config.versions.isEmpty {
            context.console.warning("\(config.path): no [[version]] entries; only the tag's syntax was checked")
        }
        let companions =
            validation.companionCount == 0
            ? "" : " and \(validation.companionCount) lock/pin entr\(validation.companionCount == 1 ? "y" : "ies")"
        context.console.info(
            "tag \(tag) matches \(validation.sources.count) manifest\(validation.sources.count == 1 ? "" : "s")\(companions) (version \(validation.version))"
        )
    }
}
