import Foundation
import RelctlBasics

/// Turns `[[target]]` entries into `Target`s with per-OS defaults, and reports triples it does not know.
public enum TargetResolver {
    /// Resolves one entry. An unrecognised triple needs `runner` and `format`; without them this
    /// throws (exit 2) naming the triple.
    package static func resolve(_ settings: TargetSettings) throws -> Target {
        let triple = TargetTriple(settings.triple)
        let windows = triple.isWindows
        let runner = settings.runner ?? (triple.isRecognized ? CIRunners.defaultRunner(for: triple) : nil)
        let format = settings.format ?? (triple.isRecognized ? (windows ? "zip" : "tar.gz") : nil)
        guard let runner, let format else {
            let missing = [settings.runner == nil ? "`runner`" : nil, settings.format == nil ? "`format`" : nil]
                .compactMap { $0 }.joined(separator: " and ")
            throw MatrixError.unknownTriple(triple: settings.triple, missing: missing, line: settings.line)
        }
        return Target(
            triple: settings.triple,
            os: triple.os,
            arch: triple.arch,
            env: triple.env,
            runner: runner,
            format: format,
            extraFormats: settings.extraFormats.isEmpty ? nil : settings.extraFormats,
            links: settings.links ?? (windows || format == "zip" && windows ? .copy : .keep),
            archiveName: settings.archiveName?.text,
            executableSuffix: windows ? ".exe" : "",
            isRecognized: triple.isRecognized
        )
    }

    /// Every configured target, resolved; all problems reported together.
    public static func resolveAll(_ config: RelctlConfig) throws -> [Target] {
        var targets: [Target] = []
        var problems: [Diagnostic] = []
        for settings in config.targets {
            do { targets.append(try resolve(settings)) } catch let error as RelctlError {
                problems += error.diagnostics.map {
                    Diagnostic(file: config.path, line: $0.line ?? settings.line, $0.message)
                }
            }
        }
        if !problems.isEmpty { throw ProblemList(exitCode: .badInput, diagnostics: problems) }
        return targets
    }

    /// Targets whose triple matches any of the globs (`*linux*`); all targets when none are given.
    /// A glob matching nothing is bad input naming it and the known triples.
    public static func select(_ targets: [Target], globs: [String]) throws -> [Target] {
        guard !globs.isEmpty else { return targets }
        var unmatched: [String] = []
        var selected: [Target] = []
        for glob in globs {
            let matches = targets.filter { Glob.matches(glob, $0.triple) }
            if matches.isEmpty { unmatched.append(glob) }
            for match in matches where !selected.contains(match) { selected.append(match) }
        }
        if !unmatched.isEmpty {
            let known = targets.map(\.triple).joined(separator: ", ")
            throw ProblemList(
                exitCode: .badInput,
                diagnostics: unmatched.map {
                    Diagnostic(
                        "--target `\($0)` matches no configured target\(Suggestion.hint(for: $0, in: targets.map(\.triple))); configured: \(known.isEmpty ? "none (add [[target]] entries to relctl.toml)" : known)"
                    )
                })
        }
        // Keep the configured order, whatever order the globs came in.
        return targets.filter { selected.contains($0) }
    }

    /// What to do about a config without targets; build, matrix and check all say it.
    package static let addTargetHint = "add one, e.g. [[target]] triple = \"x86_64-unknown-linux-gnu\""

    /// This machine's OS as relctl names it (`linux`, `macos`, `windows`).
    package static let hostOS: String = {
        #if os(Linux)
        "linux"
        #elseif os(macOS)
        "macos"
        #elseif os(Windows)
        "windows"
        #else
        "unknown"
        #endif
    }()

    /// The architecture names a triple may use for this machine's CPU.
    package static let hostArchitectures: [String] = {
        #if arch(x86_64)
        ["x86_64"]
        #elseif arch(arm64)
        ["aarch64", "arm64"]
        #else
        []
        #endif
    }()

    /// The target that matches this machine's OS and architecture, for `--host`.
    public static func host(in targets: [Target]) -> Target? {
        let os = hostOS, arches = hostArchitectures
        let candidates = targets.filter {
            $0.os == os && (arches.contains($0.arch) || $0.machines.count == 1 && arches.contains($0.machines[0]))
        }
        // Prefer the platform's usual C library (gnu) when there are several.
        return candidates.first { $0.env == "gnu" } ?? candidates.first
    }
}

extension TargetResolver {
    /// Warnings for triples relctl does not recognise (they still work with an explicit runner and format).
    public static func unrecognizedWarnings(_ targets: [Target], config: RelctlConfig) -> [Diagnostic] {
        targets.filter { !$0.isRecognized }.map { target in
            let line = config.targets.first { $0.triple == target.triple }?.line
            return Diagnostic(
                file: config.path, line: line,
                "unknown target triple `\(target.triple)`: using the given runner `\(target.runner)` and format `\(target.format)`; check the spelling (e.g. `x86_64-unknown-linux-gnu`)"
            )
        }
    }
}

/// Shell-style globs with `*`, `?` and `[...]`, via fnmatch(3).
package enum Glob {
    package static func matches(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}
