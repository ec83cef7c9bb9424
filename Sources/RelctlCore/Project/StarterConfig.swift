import Foundation

/// `relctl init`: a commented starter `relctl.toml` built from the manifests found in the project.
public enum StarterConfig {
    /// Manifest files relctl recognises at the project root, in the order they are listed.
    public static let detectable = ["Cargo.toml", "package.json", "pyproject.toml", "VERSION"]

    /// Writes the starter file; exit 2 if one already exists (it is never overwritten).
    @discardableResult
    public static func write(path: String?, context: Context) throws -> (url: URL, detected: [String]) {
        let url = context.resolve(path ?? ConfigLoader.defaultFileName)
        if FileManager.default.fileExists(atPath: url.path) {
            throw SimpleError(.badInput, file: path ?? ConfigLoader.defaultFileName, "already exists; relctl init never overwrites it (edit it, or remove it first)")
        }
        let root = url.deletingLastPathComponent()
        let detected = detectable.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
        try AtomicFile.write(render(root: root, detected: detected), to: url)
        return (url, detected)
    }

    public static func render(root: URL, detected: [String]) -> String {
        let name = projectName(root: root, detected: detected)
        var text = """
        # relctl.toml: how this project is released. Reference: relctl's README.
        # Check it with `relctl check`, then try `relctl release vX.Y.Z --dry-run`.

        [project]
        name = \(QuotedString.basic(name))
        tag-format = "v{version}"          # tags look like v1.2.3

        # Every manifest whose version must equal the tag's. The kind is inferred from the
        # file name (cargo, npm, python, plain, swift); use kind = "regex" with a pattern otherwise.

        """
        if detected.isEmpty {
            text += """
            # No manifest was found. For example:
            # [[version]]
            # path = "Sources/App/Version.swift"   # kind "swift": let version = "1.2.3"


            """
        }
        for file in detected {
            text += "[[version]]\npath = \(QuotedString.basic(file))\n\n"
        }
        let binaries = binaryNames(root: root, detected: detected, fallback: name)
        let isCargo = detected.contains("Cargo.toml")
        text += """
        [build]
        # Run once per target through /bin/sh, in the project root. Placeholders:
        # {project} {version} {tag} {target} {os} {arch}; RELCTL_TARGET, RELCTL_VERSION, RELCTL_TAG,
        # RELCTL_COMMIT and SOURCE_DATE_EPOCH are in its environment.
        command = "\(isCargo ? "cargo build --release --locked --target {target}" : "./build.sh {target}")"
        binaries = [\(binaries.map(QuotedString.basic).joined(separator: ", "))]
        binary-dir = "target/{target}/release"

        # One [[target]] per platform; runner, archive format and links policy default by OS.
        [[target]]
        triple = "x86_64-unknown-linux-gnu"
        [[target]]
        triple = "aarch64-apple-darwin"
        [[target]]
        triple = "x86_64-pc-windows-msvc"   # zip, symlinks stored as copies, .exe added

        [archive]
        name = "{project}-{tag}-{target}"    # file stem and the single top-level folder
        files = [\(["README.md", "LICENSE"].filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }.map(QuotedString.basic).joined(separator: ", "))]
        # trees = [{ from = "demo", to = "demo" }]
        setup-env = true                     # setup-env.sh / setup-env.bat put bin/ on PATH

        # [[archive.symlink]]                # repeated for each binary
        # path = "target/release/{binary}"
        # to = "../../bin/{binary}"

        [release]
        branches = ["main", "master"]

        """
        return text
    }


    private static func projectName(root: URL, detected: [String]) -> String {
        if detected.contains("Cargo.toml"),
           let document = try? TOMLDocument(contentsOf: root.appendingPathComponent("Cargo.toml")),
           let name = document.root["package"]?.table?["name"]?.string { return name }
        if detected.contains("package.json"),
           let data = FileManager.default.contents(atPath: root.appendingPathComponent("package.json").path),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
           let name = object["name"] as? String { return name.split(separator: "/").last.map(String.init) ?? name }
        if detected.contains("pyproject.toml"),
           let document = try? TOMLDocument(contentsOf: root.appendingPathComponent("pyproject.toml")),
           let name = document.root["project"]?.table?["name"]?.string ?? document.root["tool"]?.table?["poetry"]?.table?["name"]?.string { return name }
        // The name becomes archive and folder names: a folder called `a\b` must not give archives
        // that Windows would unpack into two folders.
        return String(root.lastPathComponent.map { $0 == "\\" || $0 == "/" || ($0.asciiValue.map { $0 < 0x20 } ?? false) ? "-" : $0 })
    }

    private static func binaryNames(root: URL, detected: [String], fallback: String) -> [String] {
        if detected.contains("Cargo.toml"),
           let document = try? TOMLDocument(contentsOf: root.appendingPathComponent("Cargo.toml")) {
            let bins = document.root["bin"]?.array?.compactMap { $0.table?["name"]?.string } ?? []
            if !bins.isEmpty { return bins }
        }
        return [fallback]
    }
}
