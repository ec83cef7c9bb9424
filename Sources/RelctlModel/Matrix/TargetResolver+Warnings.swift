import RelctlBasics

extension TargetResolver {
    /// Warnings for triples relctl does not recognise (they still work with an explicit runner and format).
    public static func unrecognizedWarnings(_ targets: [Target], config: RelctlConfig) -> [Diagnostic] {
        targets.filter { !$0.isRecognized }.map { target in
            let line = config.targets.first { $0.triple == target.triple }?.line
            return Diagnostic(
                file: config.path, line: line,
                "unknown target triple `\(target.triple)`: using the given runner `\(target.runner)` and format `\(target.format)`; check the spelling (e.g. `x86_64-unknown-linux-gnu`)"
            )
        }
    }
}
