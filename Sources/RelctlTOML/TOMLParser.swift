import TOMLKit

/// The only door to TOMLKit. It lives in its own module because TOMLKit declares operator
/// overloads (`+`, `??`) that would leak into every file of a module importing it.
public enum TOMLParser {
    public static func parse(_ text: String) throws(TOMLSyntaxError) -> [String: TOMLNode] {
        do {
            return try parseVersion1_0(text)
        } catch {
            // toml++ reads TOML 1.0; what 1.1 added (Cargo reads it) is lowered and read again.
            // A text that still fails reports the lowered reading's error: the lowering keeps
            // every line's number outside a joined inline table, so it names the real mistake
            // rather than the first multi-line table.
            guard let lowered = TOML11Lowering.lowered(text) else { throw error }
            return try parseVersion1_0(lowered)
        }
    }

    private static func parseVersion1_0(_ text: String) throws(TOMLSyntaxError) -> [String: TOMLNode] {
        // Texts toml++ would abort the process on (`[`, `[[[`, `[!]`, `[1, }]`) are refused before it sees them.
        if let problem = TOMLAbortCheck.problem(in: text) { throw problem }
        do {
            let table = try TOMLTable(string: text)
            return try TOMLNode(table).table ?? [:]
        } catch let error as TOMLSyntaxError {
            throw error
        } catch let error as TOMLParseError {
            throw TOMLSyntaxError(line: error.source.begin.line, message: error.description)
        } catch {
            throw TOMLSyntaxError(line: 0, message: "\(error)")
        }
    }
}
