import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What session 84's rounds left and session 85's rounds 38 and 39 found: each on a generated
/// repository of the shape read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound38CLITests {
    /// flame: a Dart workspace (the root pubspec.yaml's `workspace:` lists `packages/**`; melos
    /// versions each package, tagged `flame_audio-v2.12.2`) whose packages depend on each other by
    /// name. init saw no workspace, so `flame_audio` was never a member, and its releases for a
    /// dependency's release alone ("Update a dependency to the latest release.") were missed: 3 of
    /// 10 points (round 34). An example (`publish_to: none`) is never released.
    @Test(arguments: [true, false])
    func aDartWorkspacesPackagesAreMembersReleasedWithTheirDependencies(pubWorkspace: Bool) throws {
        let repository = try GitRepository()
        func files(_ engine: String, _ audio: String) -> [String: String] {
            var files = [
                "packages/engine/pubspec.yaml": """
                    name: engine
                    \(pubWorkspace ? "resolution: workspace\n" : "")version: \(engine)
                    dependencies:
                      meta: ^1.12.0
                    dev_dependencies:
                      lints: ^1.0.0
                    """,
                "packages/engine/lib/engine.dart": "// engine\n",
                "packages/engine/example/pubspec.yaml": "name: engine_example\npublish_to: none\ndependencies:\n  engine: ^\(engine)\n",
                "packages/engine_audio/pubspec.yaml": """
                    name: engine_audio
                    version: \(audio)

                    dependencies:
                      audioplayers: ^6.2.0
                      engine: ^\(engine)   # the engine itself
                    """,
                "packages/engine_audio/lib/audio.dart": "// audio\n",
            ]
            if pubWorkspace {
                files["pubspec.yaml"] = "name: _\npublish_to: none\nworkspace:\n  - packages/**\n\ndev_dependencies:\n  melos: ^7.0.0\n"
            } else {
                files["melos.yaml"] = "name: engine_workspace\n\npackages:\n  - \"packages/**\"\n"
            }
            return files
        }
        for (index, (engine, audio)) in [("1.30.0", "2.11.7"), ("1.31.0", "2.11.8"), ("1.32.0", "2.11.9")].enumerated() {
            try repository.commit(
                "chore(release): publish packages", files: files(engine, audio), date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "engine-v\(engine)")
            try repository.git("tag", "engine_audio-v\(audio)")
        }
        try repository.commit(
            "feat: A camera that follows two targets (#3400)",
            files: ["packages/engine/lib/engine.dart": "// camera\n"], date: "2025-04-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("[workspace]") && config.contains("packages/**"), "\(config)")
        let result = try relctl(["plan", "--json"], in: repository.url)
        #expect(result.status == 0, "\(result)")
        let plan = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        let rows = (plan["members"] as? [[String: Any]]) ?? []
        let engine = rows.first { $0["name"] as? String == "engine" }
        let audio = rows.first { $0["name"] as? String == "engine_audio" }
        let example = rows.first { $0["name"] as? String == "engine_example" }
        #expect(engine?["next"] as? String == "1.33.0", "\(rows)")
        #expect(audio?["next"] as? String == "2.11.10", "\(rows)")
        #expect(audio?["reason"] as? String == "dependency", "\(rows)")
        #expect(example == nil || example?["next"] == nil || example?["next"] is NSNull, "\(rows)")
    }
}
