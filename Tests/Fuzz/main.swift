// relctl-fuzz: runs the parser fuzzer (Tests/Support/Fuzz*.swift) for a time, from a seed it
// prints, and saves every input that broke the invariant. scripts/fuzz builds and drives it.
//
//   relctl-fuzz --seconds 600 [--seed N] [--out DIR] [--target NAME]...
//   relctl-fuzz --replay FILE --target NAME     (one saved input, for a finding's test)
import Foundation
import RelctlTestSupport

struct Options {
    var seconds = 60.0
    var seed = UInt64.random(in: 1...UInt64.max)
    var out = "fuzz-findings"
    var targets: [String] = []
    var replay: String?
}

func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("relctl-fuzz: \(message)\n".utf8))
    exit(64)
}

var options = Options()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    guard let value = arguments.popFirst() else { usage("\(argument) needs a value") }
    switch argument {
    case "--seconds":
        guard let seconds = Double(value), seconds >= 0 else { usage("--seconds takes a number, not \(value)") }
        options.seconds = seconds
    case "--seed":
        guard let seed = UInt64(value) else { usage("--seed takes an unsigned 64-bit number, not \(value)") }
        options.seed = seed
    case "--out": options.out = value
    case "--target": options.targets.append(value)
    case "--replay": options.replay = value
    default: usage("unknown option \(argument)")
    }
}
let targets = FuzzTargets.named(options.targets)
for name in options.targets where !targets.contains(where: { $0.name == name }) {
    usage("unknown target \(name); known: \(FuzzTargets.all.map(\.name).joined(separator: ", "))")
}

let out = URL(fileURLWithPath: options.out, isDirectory: true)
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-fuzz-\(getpid())")
try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

if let replay = options.replay {
    guard targets.count == 1 else { usage("--replay needs exactly one --target") }
    let input = try [UInt8](Data(contentsOf: URL(fileURLWithPath: replay)))
    let outcome = await targets[0].run(input, scratch)
    print("\(targets[0].name): \(outcome)")
    exit(outcome == .parsed || outcome == .refused ? 0 : 1)
}

/// The input being parsed, on disk before the parser sees it: if the process dies (a trap, a
/// stack overflow) or hangs, scripts/fuzz finds it here.
final class CurrentInput: @unchecked Sendable {
    private let lock = NSLock()
    private let descriptor: Int32
    private let targetFile: URL
    private var target = ""
    private var count = 0

    init(folder: URL) {
        descriptor = open(folder.appendingPathComponent("current-input").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        targetFile = folder.appendingPathComponent("current-target")
    }

    func record(_ name: String, _ input: [UInt8]) {
        if name != target {
            try? Data(name.utf8).write(to: targetFile)
            target = name
        }
        _ = input.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(descriptor, off_t(input.count))
        lock.withLock { count += 1 }
    }

    var progress: Int { lock.withLock { count } }
    var currentTarget: String { target }
}

let current = CurrentInput(folder: out)
// The hang watchdog: one input may take long on a loaded machine, never this long.
let hangLimit = 60
Thread.detachNewThread {
    var last = -1
    var still = 0
    while true {
        sleep(1)
        let now = current.progress
        still = now == last ? still + 1 : 0
        last = now
        if still >= hangLimit {
            FileHandle.standardError.write(Data("relctl-fuzz: HANG: one input ran \(hangLimit) s (saved as current-input)\n".utf8))
            _exit(3)
        }
    }
}

/// The run itself, in a function: the runner is a local, not a main-actor global.
func fuzz(_ targets: [FuzzTarget], options: Options) async -> FuzzReport {
    var runner = FuzzRunner(seed: options.seed, targets: targets)
    let deadline = Date().addingTimeInterval(options.seconds)
    var nextProgress = Date().addingTimeInterval(60)
    while Date() < deadline {
        await runner.round(iterations: 50, scratch: scratch, willRun: current.record)
        if Date() >= nextProgress {
            // A crash loses the final table: the minute lines say how far the run got.
            FileHandle.standardError.write(
                Data("relctl-fuzz: \(runner.report.iterations) inputs so far, \(runner.report.findings.count) findings\n".utf8))
            nextProgress = nextProgress.addingTimeInterval(60)
        }
    }
    return runner.report
}

// On stderr, unbuffered: a run that crashes must still have said which seed to replay.
FileHandle.standardError.write(
    Data("relctl-fuzz: seed \(options.seed), \(Int(options.seconds)) s, \(targets.count) targets, findings in \(out.path)\n".utf8))
let report = await fuzz(targets, options: options)
let width = targets.map(\.name.count).max() ?? 10
print("target".padding(toLength: width, withPad: " ", startingAt: 0) + "  iterations      parsed     refused  violations")
for target in targets {
    let counts = report.counts[target.name] ?? .init()
    let cells = [counts.iterations, counts.parsed, counts.refused, counts.violations].map {
        String($0).leftPadded(to: 10)
    }
    print(target.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + cells.joined(separator: "  "))
}
print("total: \(report.iterations) inputs, \(report.findings.count) findings")
for (number, finding) in report.findings.enumerated() {
    let stem = "finding-\(number + 1)-\(finding.target.replacingOccurrences(of: " ", with: "_"))"
    try Data(finding.input).write(to: out.appendingPathComponent(stem + ".input"))
    try Data("\(finding.target)\n\(finding.problem)\n".utf8).write(to: out.appendingPathComponent(stem + ".txt"))
    print("FINDING \(number + 1) [\(finding.target)] \(finding.problem.prefix(200)) -> \(stem).input")
}
exit(report.findings.isEmpty ? 0 : 1)

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
