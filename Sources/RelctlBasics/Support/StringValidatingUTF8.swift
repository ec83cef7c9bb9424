import Foundation

extension String {
    /// The text of `data` when it is valid UTF-8 (no replacement characters), else nil.
    package init?(validatingUTF8Data data: Data) {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        self = text
    }
}
