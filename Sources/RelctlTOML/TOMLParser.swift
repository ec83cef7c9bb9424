import TOMLKit

/// The only door to TOMLKit. It lives in its own module because TOMLKit declares operator
/// overloads (`+`, `??`) that would leak into every file of a module importing it.
public enum TOMLParser {
    public static func parse(_ text: String) throws(TOMLSyntaxError) -> [String: TOMLNode] {
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
