import Foundation
import RelctlBasics

/// One step of `[[ci.setup]]`: a shell script or an action, with the action's inputs, plain
/// environment values and repository secrets. The steps run in every job of the generated
/// workflow, after the checkout, and must leave `relctl` on PATH.
package struct CISetupStep: Sendable, Equatable {
    package enum Body: Sendable, Equatable {
        /// Shell lines, one `run:` script (bash, like every step of the workflow).
        case run([String])
        /// An action.
        case uses(ActionReference)
    }

    package var name: String?
    package var body: Body
    /// `with:` inputs of a `uses` step, as strings (TOML booleans and integers are written as text).
    package var with: [String: String] = [:]
    /// Plain environment values.
    package var env: [String: String] = [:]
    /// Environment variable → repository secret: `env: { VAR: ${{ secrets.NAME }} }`.
    package var secrets: [String: String] = [:]
    /// `if:`, a GitHub expression (e.g. `runner.os == 'Windows'`).
    package var condition: String?
    /// The jobs that run the step (default: all three); a secret only the release job needs
    /// stays out of the build jobs.
    package var jobs: Set<Job> = Set(Job.allCases)

    /// The jobs of the generated workflow.
    package enum Job: String, Sendable, CaseIterable, Hashable {
        case plan, build, release
    }

    package init(name: String? = nil, body: Body) {
        self.name = name
        self.body = body
    }

    /// The name the step has in the workflow: its own, or one made from what it does.
    package func displayName(index: Int) -> String {
        if let name { return name }
        switch body {
        case .uses(let action): return "Set up: \(action.displayName)"
        case .run(let lines):
            let first = lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            let short = first.count > 60 ? String(first.prefix(57)) + "..." : first
            return short.isEmpty
                ? "Set up (step \(index + 1))" : "Set up: \(short.trimmingCharacters(in: .whitespaces))"
        }
    }

    /// A GitHub secret name: letters, digits and underscores, not starting with a digit or `GITHUB_`.
    package static func secretNameProblem(_ name: String) -> String? {
        if !isIdentifier(name) {
            return "`\(name)` is not a GitHub secret name (letters, digits and `_`, not starting with a digit)"
        }
        if name.uppercased().hasPrefix("GITHUB_") {
            return "`\(name)` is not a GitHub secret name: names starting with `GITHUB_` are reserved"
        }
        return nil
    }

    /// An environment variable name a shell can read: `[A-Za-z_][A-Za-z0-9_]*`.
    package static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first == "_" || first.properties.isAlphabetic
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// An action input name: letters, digits, `_` and `-`, not starting with `-`.
    package static func isInputName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "-" else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// Characters no generated YAML scalar may carry as they are: the C0 and C1 controls but tab
    /// and the line breaks, DEL, U+2028/U+2029 (YAML 1.1 readers break lines there) and a BOM.
    package static func unwritableCharacter(in text: String, allowingLineBreaks: Bool) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            switch scalar.value {
            case 0x09: return false
            case 0x0A, 0x0D: return !allowingLineBreaks
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF: return true
            default: return false
            }
        }
    }

    /// A `${{ secrets.NAME }}` expression, the only expression a `with` value may hold.
    package static func secretExpression(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("${{"), trimmed.hasSuffix("}}") else { return nil }
        let inner = trimmed.dropFirst(3).dropLast(2).trimmingCharacters(in: .whitespaces)
        guard inner.hasPrefix("secrets.") else { return nil }
        let name = String(inner.dropFirst("secrets.".count))
        return secretNameProblem(name) == nil ? name : nil
    }
}
