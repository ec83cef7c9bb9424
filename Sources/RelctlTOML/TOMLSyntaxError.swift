/// A TOML syntax error, with the line toml++ reported.
public struct TOMLSyntaxError: Error, Sendable {
    public let line: Int
    public let message: String
}
