import Foundation
import RelctlBasics

/// `pyproject.toml`: PEP 621 `[project] version` or Poetry `[tool.poetry] version`; any other
/// file (hatch's `[tool.hatch.version] path`, a package's `__init__.py`): `__version__ = "…"`;
/// or what `pattern` captures. Compared by PEP 440 whichever way it is read.
package struct PythonManifestReader: ManifestReader {
    package static let moduleVersionPattern =
        #"^\s*(?:__version__|VERSION|version)\s*(?::\s*(?:str|(?:typing\.)?Final(?:\[str\])?)\s*)?=\s*["'](?<version>[^"'\n]+)["']"#
    package var comparison: VersionComparison { .pep440 }
    package init() {}

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        if let pattern = source.pattern {
            return try RegexManifestReader.match(pattern, in: url, displayPath: displayPath)
        }
        guard url.lastPathComponent.hasSuffix(".toml") else {
            do {
                return try RegexManifestReader.match(Self.moduleVersionPattern, in: url, displayPath: displayPath)
            } catch ManifestError.noVersion {
                throw ManifestError.noVersion(
                    path: displayPath, hint: "expected `__version__ = \"1.2.3\"`, or give a `pattern`")
            }
        }
        let document = try TOMLDocument(file: ProjectFile.open(location: url, shown: displayPath))
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
