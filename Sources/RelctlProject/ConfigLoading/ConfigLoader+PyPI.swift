import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// `[pypi]`: the wheels' distribution name, the upload URL, the readme and `Requires-Python`.
extension ConfigLoader {
    package static func readPyPI(_ table: TableReader?) -> PyPISettings? {
        guard let table else { return nil }
        defer { table.finish() }
        // Every key is read even when `package` is wrong, so all problems show at once.
        var valid = true
        let name = table.string("package")
        if name == nil, table.values["package"] == nil {
            table.report(nil, "[pypi] needs `package`: the distribution's name on PyPI (e.g. package = \"velostream\")")
        }
        if let name, let problem = WheelName.problem(inName: name) {
            table.report("package", problem)
            valid = false
        }
        var settings = PyPISettings(package: name ?? "")
        settings.line = table.line
        for key in ["repository-url", "index-url"] {
            guard let url = table.string(key) else { continue }
            // The token goes to the upload URL's origin: https, or plain http on this machine only.
            if let parsed = URL(string: url), let origin = HTTPOrigin(parsed),
                origin.scheme == "https" || origin.isLoopback,
                !url.contains(where: {
                    $0.isWhitespace || $0.unicodeScalars.first!.properties.generalCategory == .control
                })
            {
                if key == "repository-url" { settings.repositoryURL = url } else { settings.indexURL = url }
            } else {
                table.report(
                    key,
                    "`[pypi] \(key)` `\(Console.printable(url))` must be an https URL without blanks (plain http only for 127.0.0.1 or localhost), e.g. \"\(key == "repository-url" ? PyPISettings.defaultRepositoryURL : "https://pypi.org/simple/")\""
                )
            }
        }
        if let readme = table.string("readme") {
            if readme.isEmpty {
                table.report("readme", "`[pypi] readme` is empty; name the file (e.g. \"README.md\") or leave it out")
            } else {
                settings.readme = readme
            }
        }
        if let requires = table.string("requires-python") {
            if let problem = WheelContents.problem(field: "requires-python", value: requires) {
                table.report("requires-python", problem)
            } else {
                settings.requiresPython = requires
            }
        }
        return valid && name != nil ? settings : nil
    }
}
