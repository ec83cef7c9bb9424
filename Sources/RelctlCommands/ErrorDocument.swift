import Foundation
import RelctlBasics

/// What a `--json` command prints on stdout when it fails without a document of its own, so a
/// script reading stdout always gets one JSON document: `{"ok": false, "exitCode": N,
/// "errors": [{"file", "line", "message"}]}` (`file` and `line` only where there is one). Usage
/// errors (exit 64) get the same shape.
struct ErrorDocument: Encodable {
    struct Item: Encodable {
        var file: String?
        var line: Int?
        var message: String
    }

    var ok = false
    var exitCode: Int32
    var errors: [Item]

    init(exitCode: Int32, diagnostics: [Diagnostic]) {
        self.exitCode = exitCode
        errors = diagnostics.map { Item(file: $0.file, line: $0.line, message: $0.message) }
    }

    init(exitCode: Int32, messages: [String]) {
        self.exitCode = exitCode
        errors = messages.map { Item(file: nil, line: nil, message: $0) }
    }

    func rendered() -> String {
        (try? JSONOutput.encode(self)) ?? "{\"ok\": false, \"exitCode\": \(exitCode), \"errors\": []}\n"
    }
}
