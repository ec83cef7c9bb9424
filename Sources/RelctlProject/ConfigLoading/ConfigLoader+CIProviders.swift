import RelctlBasics
import RelctlModel

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
