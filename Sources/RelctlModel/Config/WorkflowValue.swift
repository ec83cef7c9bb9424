import RelctlBasics

/// Rules for config values relctl writes into the generated workflow (and into names of files,
/// installers and signatures). A line break there would start a new YAML key or step; a
/// `${{ … }}` expression is expanded by GitHub before the step sees it (template injection, which
/// no quoting can prevent: Actions expands expressions inside quoted scalars too). Such values are
/// refused when the config is read, so `check` says so and nothing is generated from them.
package enum WorkflowValue {
    /// Why `text` cannot be written into a workflow, or nil when it can.
    package static func problem(in text: String) -> String? {
        if let bad = CISetupStep.unwritableCharacter(in: text, allowingLineBreaks: false) {
            let code = "U+" + String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4)
            return bad == "\n" || bad == "\r"
                ? "holds a line break; write it on one line"
                : "holds the control character \(code); remove it"
        }
        if text.contains("${{") {
            return
                "holds `${{`, which GitHub Actions expands as an expression in the generated workflow (template injection); remove it"
        }
        return nil
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
