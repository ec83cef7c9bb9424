import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

/// Shows a release's stages as they run: plain lines in logs, `::group::`/`::error::` workflow
/// commands under GitHub Actions, and a live, redrawn line with the elapsed time on a terminal.
final class ReleaseProgress: Sendable {
    enum Style: Sendable, Equatable {
        /// One line per stage start and end (logs, pipes).
        case plain
        /// GitHub Actions: each stage folds into a group, failures become annotations.
        case githubActions
        /// A terminal: the running stage's line is redrawn with its elapsed time.
        case live
    }

    let style: Style
    private let console: Console
    private let ticker = Mutex<Task<Void, Never>?>(nil)
    private let status = Mutex<String?>(nil)
    /// The stages running now with their labels, latest last: stages may overlap.
    private let running = Mutex<[(name: String, label: String)]>([])
    /// Under GitHub Actions, the stage whose output the open group folds: groups do not nest, so a
    /// stage that starts while another runs gets a line, not a group.
    private let openGroup = Mutex<String?>(nil)
    /// In a plain log, how often a line says which stages still run (a long build would otherwise
    /// show only its start until it ends): every 30 s, or `RELCTL_HEARTBEAT_SECONDS`.
    let heartbeat: Duration
    /// When each running stage began, for the heartbeat's elapsed times.
    private let started = Mutex<[String: ContinuousClock.Instant]>([:])

    init(console: Console, environment: [String: String]) {
        self.console = console
        let seconds = environment["RELCTL_HEARTBEAT_SECONDS"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        heartbeat = .milliseconds(Int((seconds ?? 30) * 1000))
        if environment["GITHUB_ACTIONS"] == "true" {
            style = .githubActions
        } else if console.isInteractive && console.verbosity >= .normal {
            style = .live
        } else {
            style = .plain
        }
    }

    /// The console stages should print through. On a terminal, every line they print first
    /// clears the live status line, so output never runs into it; the status is redrawn below.
    func stageConsole() -> Console {
        guard style == .live else { return console }
        let console = self.console
        return Console(
            verbosity: console.verbosity, color: console.color, isInteractive: console.isInteractive,
            diagnostics: console.diagnostics, out: { console.stdout($0) },
            err: { console.stderr("\r\u{1B}[K" + $0) }
        )
    }

    /// A stage begins.
    func begin(_ stage: String, index: Int, of total: Int) {
        let label = "[\(index)/\(total)] \(stage)"
        running.withLock { $0.append((stage, label)) }
        switch style {
        case .plain:
            console.info("==> \(label)")
            startHeartbeat(stage)
        case .githubActions:
            let opens = openGroup.withLock { open in
                guard open == nil else { return false }
                open = stage
                return true
            }
            if opens { console.stderr("::group::relctl: \(stage)\n") } else { console.info("==> \(label)") }
        case .live:
            let start = ContinuousClock.now
            status.withLock { $0 = label }
            redraw(label, elapsed: 0)
            let task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    guard !Task.isCancelled, let self else { return }
                    let elapsed = (ContinuousClock.now - start).components
                    let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                    if let label = self.status.withLock({ $0 }) { self.redraw(label, elapsed: seconds) }
                }
            }
            ticker.withLock {
                $0?.cancel(); $0 = task
            }
        }
    }

    /// Replaces the live status text (e.g. "packaging 2/5"); a plain line otherwise at `-v`.
    func update(_ text: String) {
        switch style {
        case .live: status.withLock { $0 = text }
        case .plain, .githubActions: console.detail("    \(text)")
        }
    }

    /// A line of detail inside the running stage (build output, hook output).
    func note(_ line: String) {
        clearLine()
        console.detail("    \(line)")
    }

    /// A stage ended.
    func end(_ record: StageRecord) {
        let stillRunning = running.withLock { running in
            running.removeAll { $0.name == record.name }
            return running.last?.label
        }
        started.withLock { _ = $0.removeValue(forKey: record.name) }
        // The live line (or the log's heartbeat) goes on for a stage still running alongside.
        if let stillRunning, style == .live {
            status.withLock { $0 = stillRunning }
        } else if stillRunning == nil || style != .plain {
            stopTicker()
        }
        let time = Self.format(record.seconds)
        let detail = record.detail.map { " — \($0)" } ?? ""
        let mark: String
        switch record.status {
        case .ok: mark = console.paint("ok", code: "32")
        case .failed: mark = console.paint("FAILED", code: "31")
        case .skipped: mark = console.paint("skipped", code: "2")
        case .notRun: mark = "not run"
        }
        switch style {
        case .plain:
            console.info(
                record.status == .skipped
                    ? "--  \(record.name): \(mark)\(detail)" : "    \(record.name): \(mark) (\(time))\(detail)")
        case .githubActions:
            console.info("    \(record.name): \(mark) (\(time))\(detail)")
            // Skipped stages never opened a group, nor did stages that started beside another.
            let closes = openGroup.withLock { open in
                guard open == record.name, record.status != .skipped else { return false }
                open = nil
                return true
            }
            if closes { console.stderr("::endgroup::\n") }
        case .live:
            clearLine()
            console.info(
                "  \(record.status == .ok ? "✓" : record.status == .failed ? "✗" : "–") \(record.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(mark) \(time)\(detail)"
            )
        }
    }

    /// An error line; under GitHub Actions it also becomes an annotation on the run.
    func error(_ message: String) {
        if style == .githubActions {
            console.stderr("::error title=relctl release::\(Self.escapeAnnotation(message))\n")
        }
    }

    /// The end of the stage list: what never ran (after a failure) and the total time.
    func summary(_ records: [StageRecord], total: Double) {
        // When only the preflight ran, its problems say everything.
        guard records.contains(where: { $0.name != "preflight" && $0.status != .notRun }) else { return }
        let notRun = records.filter { $0.status == .notRun }.map(\.name)
        if !notRun.isEmpty { console.info("    not run: \(notRun.joined(separator: ", "))") }
        console.info("    total \(Self.format(total))")
    }

    static func format(_ seconds: Double) -> String {
        seconds < 10 ? String(format: "%.2fs", seconds) : String(format: "%.1fs", seconds)
    }

    /// GitHub workflow commands end at a newline; `%`, CR and LF must be escaped in the message.
    static func escapeAnnotation(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A plain log's heartbeat: every `heartbeat`, one line per running stage with its elapsed time.
    private func startHeartbeat(_ stage: String) {
        started.withLock { $0[stage] = ContinuousClock.now }
        let interval = heartbeat
        ticker.withLock { ticker in
            guard ticker == nil else { return }
            ticker = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled, let self else { return }
                    let now = ContinuousClock.now
                    let stages = self.started.withLock { $0 }.sorted { $0.value < $1.value }
                    for (name, start) in stages {
                        let elapsed = (now - start).components
                        self.console.info("    … \(name): still running (\(Self.format(Double(elapsed.seconds))))")
                    }
                }
            }
        }
    }

    private func redraw(_ label: String, elapsed: Double) {
        console.stderr("\r\u{1B}[K  … \(label) \(Self.format(elapsed))")
    }

    private func clearLine() {
        if style == .live { console.stderr("\r\u{1B}[K") }
    }

    private func stopTicker() {
        ticker.withLock {
            $0?.cancel(); $0 = nil
        }
        status.withLock { $0 = nil }
    }
}
