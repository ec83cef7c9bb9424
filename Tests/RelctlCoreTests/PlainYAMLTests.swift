import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlProject

/// The YAML shapes relctl reads without a parser: pnpm-workspace.yaml's and melos.yaml's lists, a
/// root pubspec.yaml's `workspace:`, a pubspec's scalars and dependency keys.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct PlainYAMLTests {
    @Test func listsInBlockAndFlowStyleWithCommentsAndQuotes() {
        let block = "packages:\r\n  - 'packages/*'\r\n  # not this\r\n  - \"apps/**\" # the apps\r\nother:\r\n  - no\r\n"
        #expect(PlainYAML.topLevelList("packages", in: block) == ["packages/*", "apps/**"])
        #expect(PlainYAML.topLevelList("packages", in: "packages: ['a/*', b]\n") == ["a/*", "b"])
        // A key that only starts like another is not it; a list one level in is not top level.
        #expect(PlainYAML.topLevelList("packages", in: "packages_extra:\n  - x\nmelos:\n  packages:\n    - y\n").isEmpty)
    }

    @Test func aPubspecsNameVersionPublishingAndDependencies() {
        let pubspec = Pubspec(
            text: """
                name: flame_audio
                resolution: workspace
                description: |
                  Audio support.
                  version: 9.9.9
                version: "2.12.2"
                publish_to: 'none' # an example

                environment:
                  sdk: ">=3.12.0 <4.0.0"

                dependencies:
                  audioplayers: ^6.2.0
                  flame:
                    path: ../flame
                  flutter:
                    sdk: flutter

                dev_dependencies:
                  flame_lint: ^1.4.3
                """)
        #expect(pubspec.name == "flame_audio")
        #expect(pubspec.version == "2.12.2")
        #expect(pubspec.publishedNowhere)
        #expect(pubspec.dependencies == ["audioplayers", "flame", "flutter"])
        #expect(pubspec.devDependencies == ["flame_lint"])
    }
}
