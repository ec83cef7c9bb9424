import Foundation

/// `pyproject.toml`: PEP 621 `[project] version` or Poetry `[tool.poetry] version`, compared by PEP 440.
struct PythonManifestReader: ManifestReader {
    var comparison: VersionComparison { .pep440 }
    init() {}

    func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        let document = try TOMLDocument(contentsOf: url, displayPath: displayPath)
        if let project = document.root["project"]?.table {
            if let version = project["version"]?.string {
                return ManifestVersion(
                    text: version, foundIn: displayPath,
                    line: ManifestText.tomlVersionLine(in: document.text, table: "project"))
            }
            if project["dynamic"]?.array?.contains(.string("version")) == true {
                throw ManifestError.dynamicVersion(path: displayPath)
            }
        }
        if let version = document.root["tool"]?.table?["poetry"]?.table?["version"]?.string {
            return ManifestVersion(
                text: version, foundIn: displayPath,
                line: ManifestText.tomlVersionLine(in: document.text, table: "tool.poetry"))
        }
        throw ManifestError.noVersion(
            path: displayPath, hint: "expected `version` under [project] (PEP 621) or [tool.poetry]")
    }
}
