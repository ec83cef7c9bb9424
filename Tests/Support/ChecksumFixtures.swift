import Foundation

/// Archive-like files for checksum tests: the bytes only need to be distinct and stable.
public enum ChecksumFixtures {
    /// The default-template names of a two-target release of `velostream` v1.0.0.
    public static let linux = "velostream-v1.0.0-x86_64-unknown-linux-musl.tar.gz"
    public static let windows = "velostream-v1.0.0-x86_64-pc-windows-msvc.zip"

    /// Writes `dist/` under `directory` with the given archives, each holding `size` stable bytes.
    @discardableResult
    public static func makeDist(
        in directory: TemporaryDirectory, names: [String] = [linux, windows], size: Int = 100_000
    ) throws -> URL {
        let dist = directory.url.appendingPathComponent("dist")
        try FileManager.default.createDirectory(at: dist, withIntermediateDirectories: true)
        for (index, name) in names.enumerated() {
            try bytes(size, seed: UInt64(index + 1)).write(to: dist.appendingPathComponent(name))
        }
        return dist
    }

    /// `count` pseudo-random bytes from a fixed seed (xorshift), the same on every run.
    public static func bytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }
}
