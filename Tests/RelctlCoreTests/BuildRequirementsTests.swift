import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// `RelctlBuildRequirements` is the one list of what building relctl needs; every place that
/// installs or names those packages must agree with it (issue 24: the default "Install relctl"
/// step and relctl's own workflow lacked libdeflate-dev and libsodium-dev, and nothing noticed).
@Suite("What building relctl needs, in every place that says it", .timeLimit(.minutes(30)), .removesTemporaries)
struct BuildRequirementsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Package.swift as SwiftPM reads it (`dump-package`, in a scratch folder of its own so a
    /// running build's lock on .build does not block it).
    @Test func packageManifestDeclaresTheListedLibraries() throws {
        let scratch = try TemporaryDirectory(prefix: "relctl-dump")
        let dump = try run(
            "swift", ["package", "--package-path", Self.root.path, "--scratch-path", scratch.path, "dump-package"])
        try #require(dump.status == 0, "\(dump)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]]).filter { $0["type"] as? String == "system" }
        #expect(
            targets.compactMap { $0["name"] as? String }.sorted()
                == RelctlBuildRequirements.libraries.map(\.module).sorted())
        for library in RelctlBuildRequirements.libraries {
            let target = try #require(targets.first { $0["name"] as? String == library.module })
            #if os(macOS)
            let pkgConfig = library.macOSPkgConfig
            #else
            let pkgConfig = library.linuxPkgConfig
            #endif
            #expect(target["pkgConfig"] as? String == pkgConfig, "\(library.module): pkgConfig")
            // dump-package spells a provider as {"apt": [["libarchive-dev"]]}.
            let providers = (target["providers"] as? [[String: [[String]]]]) ?? []
            let apt = providers.compactMap { $0["apt"]?.first }.flatMap { $0 }
            let brew = providers.compactMap { $0["brew"]?.first }.flatMap { $0 }
            #expect(apt == [library.apt], "\(library.module): apt provider")
            #expect(brew == [library.brew], "\(library.module): brew provider (keg-only formulae are found only so)")
        }
    }

    /// The first `packages=` line of scripts/install-deps: the build's apt packages, plus git.
    @Test func installDepsInstallsTheListedPackages() throws {
        let script = try String(contentsOf: Self.root.appendingPathComponent("scripts/install-deps"), encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("packages=\"") })
        let words = line.dropFirst("packages=\"".count).dropLast().split(separator: " ").map(String.init)
        #expect(words.filter { $0 != "git" } == RelctlBuildRequirements.aptPackages)
    }

    /// The default "Install relctl" step installs exactly the list, on both runner kinds.
    @Test func defaultSetupInstallsTheListedPackages() {
        let script = ReleaseWorkflow.defaultSetup.joined(separator: "\n")
        #expect(
            script.contains("\(RelctlBuildRequirements.aptGetInstall) \(RelctlBuildRequirements.aptPackages.joined(separator: " "))\n"))
        #expect(script.contains("brew install \(RelctlBuildRequirements.brewPackages.joined(separator: " "))\n"))
        #expect(script.contains("$(brew --prefix libarchive)/lib/pkgconfig"))
    }

    /// relctl's own relctl.toml builds relctl from the checkout with its own setup lines.
    @Test func ownConfigInstallsTheListedPackages() throws {
        let config = try String(contentsOf: Self.root.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(
            config.contains("\(RelctlBuildRequirements.aptGetInstall) \(RelctlBuildRequirements.aptPackages.joined(separator: " ")); fi"))
        #expect(config.contains("brew install \(RelctlBuildRequirements.brewPackages.joined(separator: " ")) "))
        let workflow = try String(
            contentsOf: Self.root.appendingPathComponent(".github/workflows/release.yml"), encoding: .utf8)
        #expect(
            workflow.contains(
                "\(RelctlBuildRequirements.aptGetInstall) \(RelctlBuildRequirements.aptPackages.joined(separator: " ")); fi"))
    }

    /// The static release build (issue 56): Package.swift's `RELCTL_STATIC` archives cover every
    /// library `pkg-config --static` names for libarchive and libsodium on this machine, and the
    /// -dev packages holding them are installed by relctl's own workflow and `install-deps --static`.
    @Test func staticReleaseBuildLinksAndInstallsWhatLibarchivePullsIn() throws {
        let flags = try run("pkg-config", ["--static", "--libs", "libarchive", "libsodium"])
        try #require(flags.status == 0, "\(flags)")
        let libraries = flags.stdout.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("-l") }.map {
            String($0.dropFirst(2))
        }
        #expect(libraries.contains("archive") && libraries.contains("sodium"), "\(flags)")
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let archives = try #require(
            manifest.components(separatedBy: "let staticArchives = [").dropFirst().first?.components(separatedBy: "]")
                .first)
        for library in libraries {
            #expect(archives.contains("\"\(library)\""), "Package.swift's staticArchives lacks \(library)")
        }
        let line = "\(RelctlBuildRequirements.aptGetInstall) \(RelctlBuildRequirements.staticAptPackages.joined(separator: " ")); fi"
        let config = try String(contentsOf: Self.root.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains(line))
        let workflow = try String(
            contentsOf: Self.root.appendingPathComponent(".github/workflows/release.yml"), encoding: .utf8)
        #expect(workflow.contains(line))
        let script = try String(contentsOf: Self.root.appendingPathComponent("scripts/install-deps"), encoding: .utf8)
        #expect(
            script.contains(
                "static_packages=\"\(RelctlBuildRequirements.staticAptPackages.joined(separator: " "))\""))
    }

    /// scripts/build-static-curl (issue 56) merges the static OpenSSL and zlib into its libcurl.a and
    /// unpacks curl's source with dpkg-source: the packages holding them on this machine are among
    /// the static build's, so `install-deps --static` and the workflow install them.
    @Test func theStaticCurlBuildNeedsOnlyListedPackages() throws {
        var files: [String] = []
        for archive in ["libssl.a", "libcrypto.a", "libz.a"] {
            let found = try run("gcc", ["-print-file-name=\(archive)"])
            let real = try run("readlink", ["-f", found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
            try #require(found.status == 0 && real.status == 0, "\(found) \(real)")
            files.append(real.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        files.append(try Tool.path("dpkg-source"))
        for file in files {
            let owner = try run("dpkg", ["-S", file])
            try #require(owner.status == 0, "\(owner)")
            let package = String(owner.stdout.prefix { $0 != ":" })
            #expect(RelctlBuildRequirements.staticAptPackages.contains(package), "\(file) comes from \(package)")
        }
        let script = try String(
            contentsOf: Self.root.appendingPathComponent("scripts/build-static-curl"), encoding: .utf8)
        #expect(script.contains("--without-gssapi") && script.contains("--disable-ldap"), "the small libcurl")
    }

    /// README's install line and docs/development.md's source layout name the same packages.
    @Test func docsNameTheListedPackages() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            readme.contains(
                "scripts/install-deps            # \(RelctlBuildRequirements.aptPackages.joined(separator: ", ")), git")
        )
        let layout = try String(contentsOf: Self.root.appendingPathComponent("docs/development.md"), encoding: .utf8)
        for library in RelctlBuildRequirements.libraries {
            #expect(
                layout.contains("`Sources/\(library.module)`: the system"),
                "docs/development.md names \(library.module)")
            #expect(layout.contains("(`\(library.apt)`)"), "docs/development.md names \(library.apt)")
        }
    }
}
