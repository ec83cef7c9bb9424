import Foundation
import RelctlBasics
import RelctlModel

/// `[npm]`: the package name and the registry.
extension ConfigLoader {
    package static func readNpm(_ table: TableReader) -> NpmSettings? {
        defer { table.finish() }
        guard let name = table.string("package") else {
            table.report(nil, "[npm] needs `package`, the main package's name (e.g. package = \"@acme/velostream\")")
            return nil
        }
        var settings = NpmSettings(package: name, line: table.line)
        if let problem = NpmSettings.problem(inName: name) {
            table.report("package", "`[npm] package` \(QuotedString.basic(name)) \(problem)")
        }
        if let registry = table.string("registry") {
            let url = URL(string: registry)
            let origin = url.flatMap(HTTPOrigin.init)
            if let origin, origin.scheme == "https" || origin.isLoopback, url?.query == nil, url?.user == nil,
                url?.password == nil, !registry.contains(where: { $0.isWhitespace })
            {
                settings.registry = registry
            } else {
                table.report(
                    "registry",
                    "`[npm] registry` \(QuotedString.basic(registry)) must be an https URL without credentials or query (plain http only to this machine), e.g. \"https://npm.example.com/\""
                )
            }
        }
        return settings
    }
}
