import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// Keys made by the stock tools, the way a maintainer makes them: `ssh-keygen -t ed25519` and
/// `minisign -G` (with `-W` for no password, or a password fed on stdin).
public struct SigningKeysFixture: Sendable {
    public let directory: URL
    public static let principal = "release@velostream.example"
    public static let password = "correct horse battery staple"

    public var sshKey: URL { directory.appendingPathComponent("release_ed25519") }
    public var allowedSigners: URL { directory.appendingPathComponent("allowed_signers") }
    public var minisignKey: URL { directory.appendingPathComponent("release.key") }
    public var minisignPublicKey: URL { directory.appendingPathComponent("release.pub") }
    public var encryptedMinisignKey: URL { directory.appendingPathComponent("encrypted.key") }
    public var encryptedMinisignPublicKey: URL { directory.appendingPathComponent("encrypted.pub") }

    /// Creates `directory` and the keys in it; `encrypted` also makes a password-protected minisign key (slow: scrypt with 1 GiB).
    public init(in directory: URL, encrypted: Bool = false) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.check(run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", Self.principal, "-f", sshKey.path]))
        let publicKey = try String(contentsOf: URL(fileURLWithPath: sshKey.path + ".pub"), encoding: .utf8)
        try "\(Self.principal) namespaces=\"file\" \(publicKey)".write(
            to: allowedSigners, atomically: true, encoding: .utf8)
        try Self.check(run("minisign", ["-G", "-W", "-p", minisignPublicKey.path, "-s", minisignKey.path]))
        if encrypted {
            try Self.check(
                sh(
                    "printf '%s\\n%s\\n' \"$PW\" \"$PW\" | minisign -G -p \(encryptedMinisignPublicKey.path) -s \(encryptedMinisignKey.path)",
                    environment: ["PW": Self.password]))
        }
    }

    /// `minisign -G` refuses to overwrite, and keys are made once per fixture; a failure here is the tool's.
    static func check(_ result: RunResult) throws {
        guard result.status == 0 else { throw TestFailure("key generation failed: \(result)") }
    }

    /// A different SSH key pair (for "signed by an unknown key").
    public func otherSSHKey() throws -> URL {
        let url = directory.appendingPathComponent("other_ed25519")
        try Self.check(run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "other", "-f", url.path]))
        return url
    }
}

/// Flips one byte of a file in place (the byte at `offset`, or the middle one).
public func flipOneByte(_ url: URL, at offset: Int? = nil) throws {
    var data = try Data(contentsOf: url)
    let index = offset ?? data.count / 2
    data[index] = data[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
    try data.write(to: url)
}

/// A packaged, checksummed release of the packaging fixture in `fixture.dist`.
public func makeRelease(_ fixture: PackagingFixture, targets: [String] = [], environment: [String: String] = [:]) throws
{
    var env = ["SOURCE_DATE_EPOCH": "1700000000"]
    for (key, value) in environment { env[key] = value }
    var arguments = ["package", "--tag", "v1.0.0"]
    for target in targets { arguments += ["--target", target] }
    let packaged = try relctl(arguments, in: fixture.url, environment: env)
    guard packaged.status == 0 else { throw TestFailure("package failed: \(packaged)") }
    let summed = try relctl(["checksum"], in: fixture.url, environment: env)
    guard summed.status == 0 else { throw TestFailure("checksum failed: \(summed)") }
}
