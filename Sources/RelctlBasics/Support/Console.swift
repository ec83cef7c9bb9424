import Foundation
import Synchronization

/// Where output goes. Human text and progress go to stderr, machine documents to stdout;
/// tests capture both by running the binary or by handing in their own sinks.
public final class Console: Sendable {
    public let verbosity: Verbosity
    package let color: Bool
    /// True when stderr is a terminal, so a live progress display may redraw lines.
    package let isInteractive: Bool
    /// Where warnings are recorded for the command's JSON document; shared by derived consoles.
    public let diagnostics: DiagnosticsEngine
    private let out: @Sendable (String) throws -> Void
    private let err: @Sendable (String) throws -> Void
    private let lock = Mutex<Void>(())
    private let stdoutFailure = Mutex<String?>(nil)
    private let stdoutUsed = Mutex(false)

    package init(
        verbosity: Verbosity = .normal,
        color: Bool = false,
        isInteractive: Bool = false,
        diagnostics: DiagnosticsEngine = DiagnosticsEngine(),
        out: @escaping @Sendable (String) throws -> Void,
        err: @escaping @Sendable (String) throws -> Void
    ) {
        self.verbosity = verbosity
        self.color = color
        self.isInteractive = isInteractive
        self.diagnostics = diagnostics
        self.out = out
        self.err = err
    }

    /// The process's real stdout and stderr.
    public static func standard(verbosity: Verbosity = .normal, color: Bool = false) -> Console {
        Console(
            verbosity: verbosity,
            color: color,
            isInteractive: isatty(STDERR_FILENO) == 1,
            // The throwing writes: the old `write(_:)` traps on a full disk or a closed pipe.
            out: { try FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) },
            err: { try FileHandle.standardError.write(contentsOf: Data($0.utf8)) }
        )
    }

    /// A console that drops everything, for library callers that print nothing.
    public static var silent: Console { Console(verbosity: .quiet, out: { _ in }, err: { _ in }) }

    /// A line of normal human output (stderr), suppressed by `-q`.
    public func info(_ line: String) {
        guard verbosity >= .normal else { return }
        write(err, line + "\n")
    }

    /// Detail shown with `-v` only.
    public func detail(_ line: String) {
        guard verbosity >= .verbose else { return }
        write(err, line + "\n")
    }

    /// A warning: printed now (even with `-q`) and recorded for the `--json` document.
    public func warning(_ line: String) {
        warning(Diagnostic(line, severity: .warning))
    }

    public func warning(_ diagnostic: Diagnostic) {
        diagnostics.record(diagnostic)
        write(err, "relctl: " + paint("warning:", code: "33") + " " + Self.printable(diagnostic.description) + "\n")
    }

    /// `relctl: error: …`, never suppressed.
    public func error(_ line: String) {
        write(err, "relctl: " + paint("error:", code: "31") + " " + Self.printable(line) + "\n")
    }

    /// Raw text on stderr (progress redraws, streamed build output).
    public func stderr(_ text: String) { write(err, text) }

    /// Machine output on stdout (`--json` documents, `matrix --format github`).
    public func stdout(_ text: String) {
        stdoutUsed.withLock { $0 = true }
        lock.withLock { _ in
            do { try out(text) } catch {
                stdoutFailure.withLock { $0 = $0 ?? error.localizedDescription }
            }
        }
    }

    /// Why writing to stdout failed (disk full, closed pipe), if it did: the command must not
    /// exit 0 with its machine output lost.
    public var stdoutError: String? { stdoutFailure.withLock { $0 } }

    /// Whether anything went to stdout: a failed `--json` command that printed its own document
    /// (check's problems, verify's report) gets no second one.
    public var wroteStdout: Bool { stdoutUsed.withLock { $0 } }

    /// Text from outside (tags, file names, subjects, checksum lines) made safe for a terminal:
    /// control characters other than newline and tab are shown as `\u{1B}`-style escapes, so a
    /// hostile name can neither move the cursor nor forge a line; very long text is cut.
    package static func printable(_ text: String, limit: Int = 4000) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            if (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || scalar.value == 0x7F
                || (0x80...0x9F).contains(scalar.value)
            {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if text.unicodeScalars.count > limit { out += "… (\(text.unicodeScalars.count - limit) more characters)" }
        return out
    }

    /// A value from outside (a name or message a server sent, a file's text) as one line, for the
    /// middle of a message: `printable` keeps line breaks for relctl's own multi-line text, so a
    /// value with a newline could start a line of its own, and a CI log reads a line starting
    /// with `::error::` or `##vso[` as a command. CR, LF, tab, every other control character and
    /// the Unicode line and paragraph separators are written as escapes here.
    package static func oneLine(_ text: String, limit: Int = 4000) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                || scalar.value == 0x2029:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        if text.unicodeScalars.count > limit { out += "… (\(text.unicodeScalars.count - limit) more characters)" }
        return out
    }

    /// Wraps text in an ANSI colour when colour is on.
    public func paint(_ text: String, code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Writes human text to stderr; if even that fails there is nowhere left to say so.
    private func write(_ sink: @Sendable (String) throws -> Void, _ text: String) {
        lock.withLock { _ in try? sink(text) }
    }
}

extension DefaultStringInterpolation {
    /// `"… \(outside: name) …"`: a value from outside a message quotes, on one line
    /// (`Console.oneLine`). Every message quoting a server's or a file's text goes through it.
    package mutating func appendInterpolation(outside value: String) {
        appendLiteral(Console.oneLine(value))
    }
}

/// How much human output to print on stderr.
public enum Verbosity: Int, Sendable, Comparable {
    case quiet = 0, normal = 1, verbose = 2
    public static func < (lhs: Verbosity, rhs: Verbosity) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Human-readable sizes for reports: `512 B`, `3.4 KiB`, `81.9 MiB`, `1.20 GiB`.
package enum ByteCount {
    package static func format(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        return String(format: value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value) + " " + units[unit]
    }
}
