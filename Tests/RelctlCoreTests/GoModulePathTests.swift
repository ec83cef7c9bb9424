import Testing

@testable import RelctlChanges

/// go.mod's module path and the majors Go lets it release (`GoModulePath`).
@Suite("Go's major version rule", .timeLimit(.minutes(30)))
struct GoModulePathTests {
    @Test func aPathWithoutASuffixTakesZeroAndOneOnly() throws {
        let module = try #require(GoModulePath.parse("// the SDK\nmodule go.opentelemetry.io/otel\n\ngo 1.23.0\n"))
        #expect(module.path == "go.opentelemetry.io/otel" && module.suffixMajor == nil)
        #expect(module.allows(major: "0") && module.allows(major: "1") && !module.allows(major: "2"))
        #expect(module.path(forMajor: "2") == "go.opentelemetry.io/otel/v2")
    }

    @Test func theSuffixNamesTheOnlyMajor() throws {
        let module = try #require(GoModulePath.parse("module \"github.com/go-chi/chi/v5\" // router\n"))
        #expect(module.suffixMajor == 5 && module.basePath == "github.com/go-chi/chi")
        #expect(module.allows(major: "5") && !module.allows(major: "1") && !module.allows(major: "6"))
        #expect(module.path(forMajor: "6") == "github.com/go-chi/chi/v6")
    }

    /// `/v1`, `/v01` and `/version` are path elements, not majors; gopkg.in names its major after a dot.
    @Test func onlyAWellFormedSuffixIsAMajor() throws {
        for path in ["example.com/tool/v1", "example.com/tool/v01", "example.com/tool/version", "v2"] {
            #expect(try #require(GoModulePath.parse("module \(path)\n")).suffixMajor == nil, "\(path)")
        }
        let yaml = try #require(GoModulePath.parse("module gopkg.in/yaml.v3\n"))
        #expect(yaml.suffixMajor == 3 && yaml.basePath == "gopkg.in/yaml" && yaml.path(forMajor: "4") == "gopkg.in/yaml.v4")
        #expect(GoModulePath.parse("go 1.22\n") == nil)
    }
}
