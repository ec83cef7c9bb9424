import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// `[ci] setup`: shell lines (the old form), or `[[ci.setup]]` steps.
extension ConfigLoader {
    /// Shell lines that become a `run:` script. A line holding line breaks is several lines (the
    /// workflow writes them as a block scalar); control characters YAML cannot carry, and
    /// `${{ … }}` expressions (template injection), are refused.
    package static func readSetupLines(_ lines: [String], table: TableReader, key: String, what: String) -> [String] {
        var result: [String] = []
        for line in lines {
            if let bad = CISetupStep.unwritableCharacter(in: line, allowingLineBreaks: true) {
                table.report(
                    key,
                    "\(what) \(QuotedString.basic(line)) holds the control character U+\(String(format: "%04X", bad.value)), which a workflow file cannot carry; remove it"
                )
                continue
            }
            // These lines become `run:` scripts; an expression there is expanded before the shell
            // sees it, which is the template injection the generated workflow is built to avoid.
            if line.contains("${{") {
                table.report(
                    key,
                    "\(what) `\(line)` uses a `${{ … }}` expression, which GitHub pastes into the script unquoted (template injection); read the value from the environment instead (`$GITHUB_REF_NAME`, `$RUNNER_OS`, …), or pass a secret with `secrets` in a [[ci.setup]] step"
                )
                continue
            }
            result.append(line)
        }
        return result
    }

    /// `[[ci.setup]]` tables, each one step.
    package static func readSetupSteps(_ ci: TableReader) -> [CISetupStep] {
        var steps: [CISetupStep] = []
        for item in ci.items("setup") {
            guard case .right(let table) = item else {
                ci.report(
                    "setup",
                    "`ci.setup` mixes shell lines and step tables; write every step as a table (`{ run = \"…\" }` or `{ uses = \"…\" }`)"
                )
                continue
            }
            if let step = readSetupStep(table) { steps.append(step) }
        }
        return steps
    }

    private static func readSetupStep(_ table: TableReader) -> CISetupStep? {
        // `ci.setup[2]` → `[[ci.setup]] step 3`, counted as the file lists them.
        let number = table.path.split(separator: "[").last.flatMap { Int($0.dropLast()) }.map { $0 + 1 }
        let where_ = "[[ci.setup]] step \(number.map(String.init) ?? "")"
        let run = table.strings("run")
        let uses = table.string("uses")
        let name = table.string("name")
        let condition = table.string("if")
        // Any problem in this table (counted, since helpers report on their own) drops the step.
        let problemsBefore = table.problems.errors.count
        func refuse(_ key: String?, _ message: String) {
            table.report(key, "\(where_): \(message)")
        }
        for (key, text) in [("name", name), ("if", condition)] {
            guard let text else { continue }
            if CISetupStep.unwritableCharacter(in: text, allowingLineBreaks: false) != nil {
                refuse(key, "`\(key)` holds a line break or control character; write it on one line")
            }
        }
        let body = readSetupBody(run: run, uses: uses, table: table, where_: where_, refuse)
        let with = readSetupInputs(table, body: body, refuse)
        let jobs = readSetupJobs(table, refuse)
        let env = readSetupEnvironment(table, refuse)
        let secrets = readSetupSecrets(table, env: env, refuse)
        table.finish()
        guard table.problems.errors.count == problemsBefore, let body else { return nil }
        var step = CISetupStep(name: name, body: body)
        step.with = with
        step.env = env
        step.secrets = secrets
        step.condition = condition
        step.jobs = jobs
        return step
    }

    /// `run` (shell lines) or `uses` (an action), exactly one of them.
    private static func readSetupBody(
        run: [String]?, uses: String?, table: TableReader, where_: String, _ refuse: (String?, String) -> Void
    ) -> CISetupStep.Body? {
        var body: CISetupStep.Body?
        switch (run, uses) {
        case (let run?, nil):
            let before = table.problems.errors.count
            let lines = readSetupLines(run, table: table, key: "run", what: "\(where_): `run` line")
            if table.problems.errors.count == before,
                lines.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty })
            {
                refuse("run", "`run` holds no command")
            }
            body = .run(lines)
        case (nil, let uses?):
            switch ActionReference.parse(uses) {
            case .success(let reference): body = .uses(reference)
            case .failure(let problem): refuse("uses", problem.message)
            }
        case (.some, .some):
            refuse(nil, "has both `run` and `uses`; a step does one of them, so split it in two")
        case (nil, nil):
            refuse(nil, "needs `run` (shell lines) or `uses` (an action, e.g. `actions/setup-node@v6`)")
        }
        return body
    }

    /// `with`: an action's inputs, as strings.
    private static func readSetupInputs(
        _ table: TableReader, body: CISetupStep.Body?, _ refuse: (String?, String) -> Void
    ) -> [String: String] {
        var with: [String: String] = [:]
        if let inputs = table.table("with") {
            if case .run = body {
                refuse("with", "`with` gives inputs to an action; a `run` step has none (use `env`)")
            }
            for key in inputs.values.keys.sorted() {
                guard let node = inputs.values[key] else { continue }
                let value: String
                switch node {
                case .string(let text): value = text
                case .bool(let flag): value = flag ? "true" : "false"
                case .integer(let number): value = String(number)
                case .float(let number):
                    refuse(
                        "with",
                        "input `\(key)` is a TOML float (\(number)); write it as a string, `\(key) = \"\(number)\"`, since a float loses digits (3.10 reads as 3.1)"
                    )
                    continue
                default:
                    refuse("with", "input `\(key)` must be a string, a boolean or an integer, found \(node.typeName)")
                    continue
                }
                if !CISetupStep.isInputName(key) {
                    refuse("with", "`\(key)` is not an action input name (letters, digits, `_` and `-`)")
                } else if CISetupStep.unwritableCharacter(in: value, allowingLineBreaks: true) != nil {
                    refuse("with", "input `\(key)` holds a control character a workflow file cannot carry")
                } else if value.contains("${{"), CISetupStep.secretExpression(value) == nil {
                    refuse(
                        "with",
                        "input `\(key)` holds a `${{ … }}` expression; the only one relctl writes into `with` is a secret, exactly `${{ secrets.NAME }}`"
                    )
                } else {
                    with[key] = value
                }
            }
        }
        return with
    }

    /// `jobs`: which of the workflow's jobs run the step (all by default).
    private static func readSetupJobs(_ table: TableReader, _ refuse: (String?, String) -> Void) -> Set<CISetupStep.Job>
    {
        var jobs = Set(CISetupStep.Job.allCases)
        if let names = table.strings("jobs") {
            let known = CISetupStep.Job.allCases.map(\.rawValue)
            let unknown = names.filter { CISetupStep.Job(rawValue: $0) == nil }
            if names.isEmpty || !unknown.isEmpty {
                refuse(
                    "jobs",
                    "`jobs` lists the jobs that run the step, some of \(known.map { "`\($0)`" }.joined(separator: ", "))"
                        + (unknown.isEmpty ? "" : "; found \(unknown.map { "`\($0)`" }.joined(separator: ", "))"))
            } else {
                jobs = Set(names.compactMap(CISetupStep.Job.init(rawValue:)))
            }
        }
        return jobs
    }

    private static func readSetupEnvironment(
        _ table: TableReader, _ refuse: (String?, String) -> Void
    ) -> [String: String] {
        var env: [String: String] = [:]
        if let variables = table.table("env") {
            for key in variables.values.keys.sorted() {
                guard let value = variables.string(key) else { continue }
                if !CISetupStep.isIdentifier(key) {
                    refuse("env", "`\(key)` is not an environment variable name (letters, digits and `_`)")
                } else if CISetupStep.unwritableCharacter(in: value, allowingLineBreaks: true) != nil {
                    refuse("env", "`\(key)` holds a control character a workflow file cannot carry")
                } else if value.contains("${{") {
                    refuse(
                        "env",
                        "`\(key)` holds a `${{ … }}` expression; pass a repository secret with `secrets = [\"NAME\"]` (or `secrets = { VAR = \"NAME\" }`)"
                    )
                } else {
                    env[key] = value
                }
            }
            variables.finish()
        }
        return env
    }

    /// `secrets`: a list of names, or a table mapping variables to secret names.
    private static func readSetupSecrets(
        _ table: TableReader, env: [String: String], _ refuse: (String?, String) -> Void
    ) -> [String: String] {
        var secrets: [String: String] = [:]
        if let node = table.values["secrets"], node.table != nil {
            if let mapping = table.table("secrets") {
                for variable in mapping.values.keys.sorted() {
                    guard let secret = mapping.string(variable) else { continue }
                    secrets[variable] = secret
                }
                mapping.finish()
            }
        } else if let names = table.strings("secrets") {
            for name in names { secrets[name] = name }
        }
        for (variable, secret) in secrets.sorted(by: { $0.key < $1.key }) {
            if let problem = CISetupStep.secretNameProblem(secret) {
                refuse("secrets", problem)
            } else if !CISetupStep.isIdentifier(variable) {
                refuse("secrets", "`\(variable)` is not an environment variable name (letters, digits and `_`)")
            } else if env[variable] != nil {
                refuse("secrets", "`\(variable)` is set by both `env` and `secrets`; keep one")
            }
        }
        return secrets
    }
}

/// `[ci] providers = ["github", "gitlab"]`: the pipelines `relctl ci generate` writes.
extension ConfigLoader {
    /// The providers in `CIProvider` order, each once; an unknown id or an empty list is
    /// reported at the key (exit 2), naming the known ids.
    package static func readProviders(_ ids: [String], table: TableReader) -> [CIProvider] {
        let unknown = ids.filter { CIProvider(rawValue: $0) == nil }
        for id in unknown {
            // The id is shown quoted: a line break in it must not start a new diagnostic line.
            let shown = WorkflowValue.problem(in: id) == nil ? id : QuotedString.basic(id)
            table.report("providers", "`ci.providers`: " + CIProvider.unknown(shown))
        }
        if ids.isEmpty {
            table.report(
                "providers",
                "`ci.providers` is empty; name at least one of \(CIProvider.ids.map { "\"\($0)\"" }.joined(separator: ", ")) (or remove the key for GitHub only)"
            )
        }
        guard unknown.isEmpty, !ids.isEmpty else { return [.github] }
        let chosen = Set(ids.compactMap(CIProvider.init(rawValue:)))
        return CIProvider.allCases.filter(chosen.contains)
    }
}

/// `[ci] relctl = "source" | "release"` and `[ci] relctl-minisign-key`: how the default
/// "Install relctl" step gets relctl (RelctlInstallMode).
extension ConfigLoader {
    /// An unknown mode, a key that is not a minisign public key, or either beside a `[ci] setup`
    /// that replaces the default step is reported at its key (exit 2).
    package static func readRelctlInstall(_ table: TableReader, into ci: inout CISettings) {
        if let mode = table.string("relctl") {
            if let known = RelctlInstallMode(rawValue: mode) {
                ci.relctl = known
            } else {
                let shown = WorkflowValue.problem(in: mode) == nil ? mode : QuotedString.basic(mode)
                table.report("relctl", "`ci.relctl`: " + RelctlInstallMode.unknown(shown))
            }
        }
        if let key = table.string("relctl-minisign-key") {
            if (try? MinisignPublicKey(text: key, source: "ci.relctl-minisign-key")) == nil || key.contains("\n") {
                table.report(
                    "relctl-minisign-key",
                    "`ci.relctl-minisign-key` is not a minisign public key: give the base64 line of relctl's minisign .pub file (`RW…`, as `minisign -P` takes it)"
                )
            } else if ci.relctl != .release {
                table.report(
                    "relctl-minisign-key",
                    "`ci.relctl-minisign-key` checks the relctl archive the workflow downloads; it needs `relctl = \"release\"` in [ci]"
                )
            } else {
                ci.relctlMinisignKey = key
            }
        }
        if table.values["relctl"] != nil, !ci.usesDefaultSetup {
            table.report(
                "relctl",
                "`ci.relctl` chooses how the default \"Install relctl\" step works, and `ci.setup` replaces that step; keep one of them"
            )
        }
    }
}
