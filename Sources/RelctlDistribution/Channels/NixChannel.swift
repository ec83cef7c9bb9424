import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// `[nix] enabled = true`: `dist/{project}-{tag}-flake.tar.gz`, a flake whose `flake.nix` gives
/// `packages.<system>.default` for each Linux and macOS target: the release archive fetched by its
/// download URL and SRI hash (`fetchurl`), its `bin/` installed. The hashes come from this
/// release's own archives, so the flake can never ship a stale one.
package struct NixChannel: Channel {
    package static let id = "nix"
    package var id: String { Self.id }
    package var title: String { "nix flake" }

    package static let systems: [(system: String, os: String, cpu: String)] = [
        ("aarch64-darwin", "macos", "aarch64"), ("aarch64-linux", "linux", "aarch64"),
        ("i686-linux", "linux", "i686"), ("x86_64-darwin", "macos", "x86_64"), ("x86_64-linux", "linux", "x86_64"),
    ]

    package static func fileName(project: String, tag: String) -> String { "\(project)-\(tag)-flake.tar.gz" }

    package func write(_ release: ChannelRelease) async throws -> ChannelOutput {
        let text = try Self.flake(release)
        let name = Self.fileName(project: release.project, tag: release.tag)
        let folder = String(name.dropLast(".tar.gz".count))
        let destination = release.dist.appendingPathComponent(name)
        let bytes = try ChannelTarball.bytes(
            [ChannelTarball.Entry(name: folder + "/flake.nix", data: Array(text.utf8))], mtime: release.time,
            destination: destination.path)
        try AtomicFile.write(bytes, to: destination)
        return ChannelOutput(channel: id, files: [name], assets: [name])
    }

    /// The `flake.nix` text.
    package static func flake(_ release: ChannelRelease) throws -> String {
        var packages: [(system: String, archive: Artifact, url: String)] = []
        for entry in systems {
            guard
                let archive = PlatformArchives.pick(
                    release.archives, os: entry.os, cpu: entry.cpu, formats: ["tar.gz", "tar.xz"])
            else { continue }
            packages.append((entry.system, archive, try release.url(of: archive, for: Self.id)))
        }
        guard !packages.isEmpty else {
            throw ChannelError.noArchives(channel: Self.id, wanted: "Linux or macOS (tar.gz or tar.xz)")
        }
        let binaries = release.config.build.binaries
        let description = "\(release.project) \(release.version), from the \(release.tag) release archives"
        var lines = [
            "{",
            "  description = " + (try NixEmitter.string(description, what: "the flake description")) + ";",
            "",
            "  inputs.nixpkgs.url = \"github:NixOS/nixpkgs/nixos-unstable\";",
            "",
            "  outputs = { self, nixpkgs }:",
            "    let",
            "      release = {",
        ]
        for entry in packages {
            // A glibc binary names the FHS loader (/lib64/ld-linux…), which NixOS does not have:
            // autoPatchelfHook points it at nixpkgs' glibc and finds libgcc_s in buildInputs.
            let glibc = TargetTriple(entry.archive.target).isGlibcLinux
            lines += [
                "        " + (try NixEmitter.string(entry.system)) + " = {",
                "          url = " + (try NixEmitter.string(entry.url, what: "the archive URL")) + ";",
                "          hash = " + (try NixEmitter.string(PlatformArchives.sri(hex: entry.archive.sha256))) + ";",
                "          root = "
                    + (try NixEmitter.string(
                        PlatformArchives.topFolder(entry.archive, flat: !release.config.archive.topFolder) ?? "."))
                    + ";",
                "          glibc = " + (glibc ? "true" : "false") + ";",
                "        };",
            ]
        }
        lines += [
            "      };",
            "      package = system: archive:",
            "        let pkgs = nixpkgs.legacyPackages.${system}; in",
            "        (if archive.glibc then pkgs.stdenv else pkgs.stdenvNoCC).mkDerivation {",
            "          pname = " + (try NixEmitter.string(release.project, what: "the project name")) + ";",
            "          version = " + (try NixEmitter.string(release.version, what: "the version")) + ";",
            "          src = pkgs.fetchurl { inherit (archive) url hash; };",
            "          nativeBuildInputs = pkgs.lib.optionals archive.glibc [ pkgs.autoPatchelfHook ];",
            "          buildInputs = pkgs.lib.optionals archive.glibc [ pkgs.stdenv.cc.cc.lib ];",
            "          sourceRoot = archive.root;",
            "          dontConfigure = true;",
            "          dontBuild = true;",
            "          installPhase = ''",
            "            runHook preInstall",
            "            mkdir -p $out/bin",
            "            cp -R bin/. $out/bin/",
            "            runHook postInstall",
            "          '';",
            "          meta = {",
            "            description = " + (try NixEmitter.string(description, what: "the flake description")) + ";",
            "            platforms = [ system ];",
        ]
        if let main = binaries.first {
            lines.append("            mainProgram = " + (try NixEmitter.string(main, what: "[build] binaries")) + ";")
        }
        lines += [
            "          };",
            "        };",
            "    in {",
            "      packages = builtins.mapAttrs (system: archive: { default = package system archive; }) release;",
            "    };",
            "}",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
