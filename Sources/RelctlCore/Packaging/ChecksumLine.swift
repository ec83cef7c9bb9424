/// One line of `sha256sum` output: `HEX  NAME\n` (two spaces: text mode, as sha256sum writes it).
public struct ChecksumLine: Sendable, Equatable {
    public var hex: String
    public var name: String

    public init(hex: String, name: String) {
        self.hex = hex
        self.name = name
    }

    public var text: String { "\(hex)  \(name)\n" }
}
