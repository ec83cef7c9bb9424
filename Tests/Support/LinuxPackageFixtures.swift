import Foundation

/// A git project for the .deb/.rpm tests: one `hello` program per target (a POSIX sh stand-in,
/// or for x86_64 a stripped C program, `static` or `dynamic`ally linked), full `[project]` metadata,
/// an MIT license file and two conventional commits for the changelog.
public struct LinuxPackageFixture: Sendable {
    public let repository: GitRepository
    public var url: URL { repository.url }
    public var dist: URL { url.appendingPathComponent("dist") }

    public static let metadata = """
        description = \"\"\"Says hello from a release.
        A stand-in program that prints its version and target.

        It exists for relctl's package tests.\"\"\"
        license = "MIT"
        homepage = "https://example.com/hello"
        maintainer = "Test User <test@example.com>"
        """

    public static let packages = """
        [[package]]
        format = "deb"

        [[package]]
        format = "rpm"

        """

    /// - Parameters:
    ///   - metadata: the `[project]` metadata lines.
    ///   - packages: the `[[package]]` tables.
    ///   - directory: where to create it (another path for reproducibility checks).
    public init(
        metadata: String = LinuxPackageFixture.metadata, packages: String = LinuxPackageFixture.packages,
        binary: Binary = .script, directory: TemporaryDirectory? = nil
    ) throws {
        repository = try GitRepository(directory: directory)
        let config = """
            [project]
            name = "hello"
            \(metadata)

            [[version]]
            path = "VERSION"

            [build]
            command = "sh build.sh {target} {version}"
            binaries = ["hello"]
            binary-dir = "out/{target}"

            [[target]]
            triple = "x86_64-unknown-linux-gnu"
            [[target]]
            triple = "aarch64-unknown-linux-gnu"
            [[target]]
            triple = "x86_64-apple-darwin"

            \(packages)
            """
        let build =
            binary != .script
            ? """
            set -eu
            mkdir -p "out/$1"
            case "$1" in
            x86_64-*linux*) gcc \(binary == .static ? "-static " : "")-s -O2 -o "out/$1/hello" hello.c ;;
            *) printf '#!/bin/sh\\necho hello %s %s\\n' "$2" "$1" > "out/$1/hello"; chmod +x "out/$1/hello" ;;
            esac

            """
            : """
            set -eu
            mkdir -p "out/$1"
            printf '#!/bin/sh\\necho hello %s %s\\n' "$2" "$1" > "out/$1/hello"
            chmod +x "out/$1/hello"

            """
        try repository.commit(
            "feat: say hello",
            files: [
                "relctl.toml": config, "VERSION": "1.0.0\n", "build.sh": build, ".gitignore": "out/\ndist/\n",
                "README.md": "# hello\n",
                "hello.c": "#include <stdio.h>\nint main(void) { puts(\"hello 1.0.0 compiled\"); return 0; }\n",
                "LICENSE": Self.license,
                "docs/hello.1": Self.manual, "completions/hello.bash": "complete -W \"--help --version\" hello\n",
            ])
        try repository.commit("fix(cli): exit cleanly when stdout is closed")
    }

    public static let manual = """
        .TH HELLO 1 "2026-01-02" "hello 1.0.0" "User Commands"
        .SH NAME
        hello \\- say hello from a release
        .SH SYNOPSIS
        .B hello
        .SH DESCRIPTION
        .B hello
        prints its version and target.

        """

    public static let license = """
        MIT License

        Copyright (c) 2026 Test User

        Permission is hereby granted, free of charge, to any person obtaining a copy
        of this software and associated documentation files (the "Software"), to deal
        in the Software without restriction, including without limitation the rights
        to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
        copies of the Software, and to permit persons to whom the Software is
        furnished to do so, subject to the following conditions:

        The above copyright notice and this permission notice shall be included in all
        copies or substantial portions of the Software.

        THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
        IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
        FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
        AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
        LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
        OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
        SOFTWARE.

        """

    /// What `hello` is on x86_64 Linux.
    public enum Binary: Sendable {
        case script, `static`, dynamic
    }

    public static let deb = "hello_1.0.0_amd64.deb"
    public static let debARM = "hello_1.0.0_arm64.deb"
    public static let rpm = "hello-1.0.0-1.x86_64.rpm"
    public static let rpmARM = "hello-1.0.0-1.aarch64.rpm"

    public func remove() { repository.directory.remove() }
}

/// lintian's verdict on a package, read only when lintian itself worked. Its exit status (lintian
/// 2.116, Debian 12, `man lintian`): 0 normal operation, 1 a run-time error (said on stderr), 2 a
/// tag of the `--fail-on` severity (here `error`) was emitted. So a verdict is exit 0 with no `E:`
/// line, or exit 2 with at least one, and nothing on stderr. Anything else throws: a lintian that
/// is missing, crashes, refuses its arguments or cannot read the package says nothing about the
/// package, and must never read as a clean one.
public struct LintianVerdict: Sendable, CustomStringConvertible {
    /// The tags of the `E:` lines (`E: hello: tag-name details` gives `tag-name`).
    public var errorTags: [String]
    public var output: RunResult

    public var description: String { "\(output)" }

    /// Runs `lintian --allow-root --no-cfg --fail-on error PACKAGE` (PATH from `environment`,
    /// else the test's).
    public static func of(_ package: URL, environment: [String: String] = [:]) throws -> LintianVerdict {
        let result = try run(
            "lintian", ["--allow-root", "--no-cfg", "--fail-on", "error", package.path], environment: environment)
        let errorLines = result.stdout.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("E:") }
        let tags = errorLines.compactMap { line in line.split(separator: " ").dropFirst(2).first.map(String.init) }
        let consistent = (result.status == 0 && errorLines.isEmpty) || (result.status == 2 && !errorLines.isEmpty)
        guard consistent, result.stderr.isEmpty, tags.count == errorLines.count else {
            throw TestFailure(
                "lintian did not judge \(package.lastPathComponent) (exit 0 without E: lines or 2 with them,"
                    + " and an empty stderr, expected):\n\(result)")
        }
        return LintianVerdict(errorTags: tags, output: result)
    }
}
