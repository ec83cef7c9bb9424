import RelctlBasics

/// The rules of `git check-ref-format` for a tag name, checked before anything is tagged so a
/// bad `tag-format` fails in `relctl check` instead of at the last step of a release.
package enum GitRefName {
    /// Why git would refuse `name` as a tag, or nil when it is acceptable.
    package static func problem(in name: String) -> String? {
        if let bad = name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "it contains the control character U+\(String(bad.value, radix: 16, uppercase: true))"
        }
        if let bad = name.first(where: { " ~^:?*[\\".contains($0) }) {
            return bad == " " ? "it contains a space" : "it contains `\(bad)`"
        }
        if name.hasPrefix("-") { return "it starts with `-`, which git reads as an option" }
        if name.contains("..") { return "it contains `..`" }
        if name.contains("@{") { return "it contains `@{`" }
        if name.contains("//") || name.hasPrefix("/") || name.hasSuffix("/") { return "it has an empty `/` component" }
        if name.hasSuffix(".") { return "it ends with `.`" }
        for component in name.split(separator: "/") {
            if component.hasPrefix(".") { return "the component `\(component)` starts with `.`" }
            if component.hasSuffix(".lock") { return "the component `\(component)` ends with `.lock`" }
        }
        return nil
    }
}
