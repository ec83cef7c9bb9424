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
    /// Stages whose lines are not all printed yet, in stage order. The first one's lines print as
    /// they come; each later one's (its header, what it prints, its end line) are held until
    /// every stage before it has ended, so overlapping stages never print under each other's
    /// headers. A stage running alone is always first: it streams live.
    private let turns = Mutex<[Turn]>([])
    private struct Turn {
        let name: String
        var held: [@Sendable () -> Void]
        var ended: Bool
    }
    /// The stage the running task works for, so `update` and `note` lines go under its header.
    @TaskLocal static var stage: String?
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

    /// A console for a stage running alongside others: what it prints is held until its turn.
    func stageConsole(for stage: String, diagnostics: DiagnosticsEngine) -> Console {
        let console = stageConsole()
        return Console(
            verbosity: console.verbosity, color: console.color, isInteractive: console.isInteractive,
            diagnostics: diagnostics, out: { console.stdout($0) },
            err: { [weak self] text in
                guard let self else { return console.stderr(text) }
                self.show(for: stage) { console.stderr(text) }
            })
    }

    /// Prints now what `stage` prints when it is its turn (or no stage is named), or holds it.
    private func show(for stage: String?, _ line: @escaping @Sendable () -> Void) {
        turns.withLock { turns in
            guard let stage, let index = turns.firstIndex(where: { $0.name == stage }), index > 0 else {
                return line()
            }
            turns[index].held.append(line)
        }
    }

    /// A stage begins.
    func begin(_ stage: String, index: Int, of total: Int) {
        let label = "[\(index)/\(total)] \(stage)"
        running.withLock { $0.append((stage, label)) }
        let console = self.console
        let header: @Sendable () -> Void
        switch style {
        case .plain:
            header = { console.info("==> \(label)") }
            startHeartbeat(stage)
        case .githubActions:
            // Stages print one after another, so each folds into its own group.
            header = { console.stderr("::group::relctl: \(stage)\n") }
        case .live:
            header = {}
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
        turns.withLock { turns in
            if turns.isEmpty {
                header()
                turns.append(Turn(name: stage, held: [], ended: false))
            } else {
                turns.append(Turn(name: stage, held: [header], ended: false))
            }
        }
    }

    /// Replaces the live status text (e.g. "packaging 2/5"); a plain line otherwise at `-v`.
    func update(_ text: String) {
        switch style {
        case .live: status.withLock { $0 = text }
        case .plain, .githubActions:
            let console = self.console
            show(for: Self.stage) { console.detail("    \(text)") }
        }
    }

    /// A line of detail inside the running stage (build output, hook output).
    func note(_ line: String) {
        let console = self.console
        let live = style == .live
        show(for: Self.stage) {
            if live { console.stderr("\r\u{1B}[K") }
            console.detail("    \(line)")
        }
    }

    /// A stage ended (or was skipped: `label` is then its number, e.g. `[6/22]`).
    func end(_ record: StageRecord, label: String? = nil) {
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
        let console = self.console
        let mark: String
        switch record.status {
        case .ok: mark = console.paint("ok", code: "32")
        case .failed: mark = console.paint("FAILED", code: "31")
        case .skipped: mark = console.paint("skipped", code: "2")
        case .notRun: mark = "not run"
        }
        let line: @Sendable () -> Void
        switch style {
        case .plain:
            let number = label.map { "\($0) " } ?? ""
            let text =
                record.status == .skipped
                ? "--  \(number)\(record.name): \(mark)\(detail)" : "    \(record.name): \(mark) (\(time))\(detail)"
            line = { console.info(text) }
        case .githubActions:
            // Skipped stages never opened a group.
            let closes = record.status != .skipped
            let text = "    \(record.name): \(mark) (\(time))\(detail)"
            line = {
                console.info(text)
                if closes { console.stderr("::endgroup::\n") }
            }
        case .live:
            let symbol = record.status == .ok ? "✓" : record.status == .failed ? "✗" : "–"
            let text =
                "  \(symbol) \(record.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(mark) \(time)\(detail)"
            line = {
                console.stderr("\r\u{1B}[K")
                console.info(text)
            }
        }
        turns.withLock { turns in
            guard let index = turns.firstIndex(where: { $0.name == record.name }) else {
                // Skipped: in its place in stage order, after what the stages before it print.
                if turns.isEmpty { line() } else { turns.append(Turn(name: record.name, held: [line], ended: true)) }
                return
            }
            guard index == 0 else {
                turns[index].held.append(line)
                turns[index].ended = true
                return
            }
            line()
            turns.removeFirst()
            // The next stages' turn: what they held, and (while they run) their lines as they come.
            while !turns.isEmpty {
                for held in turns[0].held { held() }
                turns[0].held = []
                guard turns[0].ended else { break }
                turns.removeFirst()
            }
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
