import Foundation

/// Real seed inputs for the fuzzer, one list per parser: the shapes the tools that write these
/// files produce (cargo, npm, minisign, ssh-keygen, sha256sum, docker login, the forges' APIs),
/// plus the repository's own examples at run time.
package enum FuzzCorpus {
    package static let config = [
        """
        [project]
        name = "demo"
        tag-format = "v{version}"
        description = "A demo"

        [[version]]
        path = "Cargo.toml"

        [build]
        command = "cargo build --release --target {target}"
        binaries = ["demo"]
        binary-dir = "target/{target}/release"

        [[target]]
        triple = "x86_64-unknown-linux-gnu"
        [[target]]
        triple = "x86_64-pc-windows-msvc"

        [archive]
        name = "{project}-{tag}-{target}"
        files = ["README.md", "LICENSE"]

        [checksum]
        file = "SHA256SUMS"

        [notes]
        changelog = "CHANGELOG.md"

        [publish]
        github = "acme/demo"

        [sign]
        minisign-public-key = "RWQ+V1ToPg4iANNIeh/m8VrO0g1BDHgjmGCsbZAaRMUxX0sCG8Wnq4sj"

        [[image]]
        name = "ghcr.io/acme/demo"
        base = "docker.io/library/alpine:3.20"

        [[package]]
        format = "deb"
        """,
        "[project]\nname = \"x\"\n[[version]]\npath = \"VERSION\"\nkind = \"plain\"\n",
        "[[version]]\npath = \"version.txt\"\nkind = \"regex\"\npattern = 'v(?<version>[0-9.]+)'\n",
    ] + examples("relctl.toml")

    package static let cargo = [
        "[package]\nname = \"demo\"\nversion = \"1.2.3\"\nedition = \"2021\"\n\n[dependencies]\nserde = \"1\"\n",
        "[workspace]\nmembers = [\"a\"]\n[workspace.package]\nversion = \"0.4.0-rc.1\"\n",
        "[package]\nname = \"a\"\nversion.workspace = true\n",
        // TOML 1.1, lowered to 1.0 before toml++ reads it (TOML11Lowering).
        "[package]\nname = \"b\"\nversion = \"0.2.0\"\n[dependencies]\nt = {\n  version = \"1\", # c\n  f = [\"x\",\n  \"y\"],\n  s = \"\"\"\nz\"\"\",\n}\ne = \"\\e\\x41\"\n",
    ] + examples("Cargo.toml")

    package static let npm = [
        #"{"name": "demo", "version": "1.2.3", "scripts": {"test": "node t.js"}, "dependencies": {"a": "^1"}}"#,
        "{\n  \"version\": \"2.0.0-beta.1\"\n}\n",
    ]

    package static let python = [
        "[project]\nname = \"demo\"\nversion = \"1.2.3.post1\"\n",
        "[tool.poetry]\nname = \"demo\"\nversion = \"0.1.0\"\n",
        "[project]\nname = \"demo\"\ndynamic = [\"version\"]\n",
    ]

    package static let swift = [
        "import Foundation\n\nlet version = \"1.2.3\"\n",
        "public enum Build {\n    public static var version: String = \"0.9.0-rc.2\"\n}\n",
    ]

    package static let plain = ["1.2.3\n", "v2.0.0-rc.1+build.5\r\n", "2024.5.1"]

    package static let regex = ["release v1.2.3 (stable)\n", "version: 0.0.1\nname: x\n"]

    package static let helmChart = [
        "apiVersion: v2\nname: demo\ndescription: A chart\ntype: application\nversion: 1.2.3\nappVersion: \"1.2.3\"\n",
        "apiVersion: v2\nname: demo # comment\nversion: '0.1.0'\nappVersion: v0.1.0\ndependencies:\n  - name: x\n    version: 1.0.0\n",
    ]

    package static let semver = [
        "1.2.3", "0.0.0", "1.0.0-alpha.1", "1.0.0-rc.1+build.5", "10.20.30-beta.11.x-y+sha.5114f85", "1.2.3+001",
    ]

    package static let pep440 = ["1.2.3", "1!2.0.post1.dev3", "1.0a1", "2.0rc2+local.7", "0.1.dev0", "1.0.0-RC.1"]

    package static let calver = ["2024.5.1", "2024.05.01", "24.1", "2024.12.0-rc.1", "2025.1"]

    package static let checksums = [
        """
        e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  demo-v1.2.3-x86_64-unknown-linux-gnu.tar.gz
        9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 *demo-v1.2.3-x86_64-pc-windows-msvc.zip

        """,
        "SHA256 (demo.tar.gz) = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n",
        "\\e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a\\nb.tar.gz\n",
    ]

    package static let allowedSigners = [
        """
        # release signers
        fuzz@example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICHRAeN0tZV5HxVmSvrf0WZN0gD3wZh2evHTO5kCtG5/
        *@example.com namespaces="file,git",valid-after="20240101",valid-before="20300101Z" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICHRAeN0tZV5HxVmSvrf0WZN0gD3wZh2evHTO5kCtG5/
        ca@example cert-authority ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICHRAeN0tZV5HxVmSvrf0WZN0gD3wZh2evHTO5kCtG5/

        """
    ]

    package static let minisignPublicKey = [
        "untrusted comment: minisign public key 220E3EE854573E\nRWQ+V1ToPg4iANNIeh/m8VrO0g1BDHgjmGCsbZAaRMUxX0sCG8Wnq4sj\n",
        "RWQ+V1ToPg4iANNIeh/m8VrO0g1BDHgjmGCsbZAaRMUxX0sCG8Wnq4sj",
    ]

    package static let minisignSignature = [
        """
        untrusted comment: signature from minisign secret key
        RUQ+V1ToPg4iAB1I6PzoFUhISR+Ts47QCWgy24I0WVnHCtGAprg2k+qa19aaWEAbZeD6WtYCw/xZW3YQE4YopTGN68y/lFcYawQ=
        trusted comment: timestamp:1 file:f.txt
        E0Eu/rXjEarXq3WM3u+cczvsd1wnKG15dVEqFDJdUQmUIzQ2hijcSPUGeRJkZU2C0HnSURxUbg+1FUwHvHDKBg==

        """
    ]

    package static let sshSignature = [
        """
        -----BEGIN SSH SIGNATURE-----
        U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgIdEB43S1lXkfFWZK+t/RZk3SAP
        fBmHZ68dM7mQK0bn8AAAAEZmlsZQAAAAAAAAAGc2hhNTEyAAAAUwAAAAtzc2gtZWQyNTUx
        OQAAAEAvtBjhQ6tktAR4WVJ/VPN3b2hVLzq5RXkXOuLGRwyqRlU+nEroRfZ8jwJz6e3oXN
        i4izDLICA50tBNckmtihcO
        -----END SSH SIGNATURE-----

        """
    ]

    package static let dockerConfig = [
        #"{"auths": {"ghcr.io": {"auth": "dXNlcjpwYXNz"}, "https://index.docker.io/v1/": {"username": "u", "password": "p"}}}"#,
        #"{"auths": {"registry.example": {"identitytoken": "x"}}, "credHelpers": {"gcr.io": "gcloud"}}"#,
        #"{"auths": {}, "credsStore": "desktop", "HttpHeaders": {"User-Agent": "Docker-Client"}}"#,
    ]

    package static let ociManifest = [
        #"""
        {"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","size":1469},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","size":3623807}],"annotations":{"org.opencontainers.image.source":"https://github.com/acme/demo"}}
        """#
    ]

    package static let ociIndex = [
        #"""
        {"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","size":528,"platform":{"architecture":"arm64","os":"linux","variant":"v8"}}]}
        """#
    ]

    package static let ociConfig = [
        #"""
        {"architecture":"amd64","os":"linux","created":"2024-01-01T00:00:00Z","config":{"Env":["PATH=/usr/bin"],"Entrypoint":["/demo"],"User":"65532","Labels":{"a":"b"},"ExposedPorts":{"80/tcp":{}}},"rootfs":{"type":"layers","diff_ids":["sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"]},"history":[{"created_by":"COPY demo /demo","empty_layer":false}]}
        """#
    ]

    package static let imageReference = [
        "ghcr.io/acme/demo:v1.2.3", "alpine", "docker.io/library/alpine:3.20",
        "localhost:5000/a/b@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    ]

    package static let authChallenge = [
        #"Bearer realm="https://ghcr.io/token",service="ghcr.io",scope="repository:acme/demo:pull""#,
        #"Basic realm="Registry Realm""#, #"Bearer realm="https://auth.docker.io/token", service="registry.docker.io""#,
    ]

    /// A registry token (a JWT whose claims list the granted actions) and a registry error body.
    package static let registryToken = ["eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJhY2Nlc3MiOiBbeyJ0eXBlIjogInJlcG9zaXRvcnkiLCAibmFtZSI6ICJhY21lL2RlbW8iLCAiYWN0aW9ucyI6IFsicHVsbCIsICJwdXNoIl19XX0.c2lnbmF0dXJl", "opaque-token"]

    package static let registryError = [
        #"{"errors":[{"code":"DENIED","message":"requested access to the resource is denied","detail":null}]}"#,
    ]

    package static let githubRelease = [
        #"""
        {"id":1,"tag_name":"v1.2.3","name":"v1.2.3","draft":false,"prerelease":false,"body":"notes","html_url":"https://github.com/acme/demo/releases/tag/v1.2.3","upload_url":"https://uploads.github.com/repos/acme/demo/releases/1/assets{?name,label}","assets":[{"id":7,"name":"demo.tar.gz","size":10,"state":"uploaded","browser_download_url":"https://github.com/acme/demo/releases/download/v1.2.3/demo.tar.gz","digest":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}]}
        """#
    ]

    package static let githubAssets = [
        #"[{"id":7,"name":"demo.tar.gz","size":10,"state":"uploaded","browser_download_url":"https://example.com/d"}]"#
    ]

    package static let gitlabRelease = [
        #"""
        {"tag_name":"v1.2.3","name":"v1.2.3","description":"notes","upcoming_release":false,"_links":{"self":"https://gitlab.example/acme/demo/-/releases/v1.2.3"},"assets":{"links":[{"id":3,"name":"demo.tar.gz","url":"https://gitlab.example/api/v4/projects/1/packages/generic/demo/v1.2.3/demo.tar.gz","link_type":"package"}]}}
        """#
    ]

    package static let gitlabLinks = [
        #"[{"id":3,"name":"demo.tar.gz","url":"https://gitlab.example/x","direct_asset_url":"https://gitlab.example/y","link_type":"other"}]"#
    ]

    package static let gitlabPackageFiles = [
        #"[{"id":1,"package_id":2,"file_name":"demo.tar.gz","size":10,"file_sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}]"#
    ]

    package static let giteaRelease = [
        #"""
        {"id":5,"tag_name":"v1.2.3","name":"v1.2.3","body":"notes","draft":false,"prerelease":false,"html_url":"https://gitea.example/acme/demo/releases/tag/v1.2.3","assets":[{"id":9,"name":"demo.tar.gz","size":10,"browser_download_url":"https://gitea.example/attachments/x"}]}
        """#
    ]

    package static let giteaAttachments = [
        #"[{"id":9,"name":"demo.tar.gz","size":10,"download_count":0,"browser_download_url":"https://gitea.example/attachments/x"}]"#
    ]

    package static let linkHeader = [
        #"<https://api.github.com/repositories/1/releases?page=2>; rel="next", <https://api.github.com/repositories/1/releases?page=5>; rel="last""#
    ]

    package static let channelAnswer = [
        #"{"files": ["dist/homebrew/Formula/demo.rb"], "published": ["https://example.com/tap"]}"#, "{}\n",
    ]

    /// The repository's own example files named `name` (Examples/*/name), when the sources are there.
    private static func examples(_ name: String) -> [String] {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: examples.path))?.sorted() ?? []
        return folders.compactMap { try? String(contentsOf: examples.appendingPathComponent("\($0)/\(name)"), encoding: .utf8) }
    }
}
