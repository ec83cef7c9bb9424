import RelctlBasics

/// A digest relctl can write and verify. `sha256` is the default; `sha512` costs one more
/// pass of the CPU over bytes already read.
public enum ChecksumAlgorithm: String, Sendable, CaseIterable, Codable, Hashable {
    case sha256, sha512

    /// Parses a user-given id (`sha256`, `SHA-512`, …); bad input (exit 2) listing the known ids.
    public init(id: String, file: String? = nil) throws {
        let normal = id.lowercased().replacingOccurrences(of: "-", with: "")
        guard let algorithm = ChecksumAlgorithm(rawValue: normal) else {
            throw ChecksumError.unknownAlgorithm(id: id, file: file)
        }
        self = algorithm
    }

    /// The combined file's name: `SHA256SUMS`.
    public var sumsFileName: String { rawValue.uppercased() + "SUMS" }
    /// The per-archive file's suffix: `.sha256`.
    package var fileExtension: String { "." + rawValue }
    /// Length of the lowercase hex digest.
    package var hexLength: Int { self == .sha256 ? 64 : 128 }

    /// The algorithm a GNU line's digest length implies.
    package static func forHexLength(_ length: Int) -> ChecksumAlgorithm? {
        allCases.first { $0.hexLength == length }
    }

    /// The algorithm named by a BSD tag (`SHA256`, `SHA2-256` as openssl 3 spells it).
    package static func forBSDTag(_ tag: String) -> ChecksumAlgorithm? {
        switch tag.uppercased() {
        case "SHA256", "SHA2-256": return .sha256
        case "SHA512", "SHA2-512": return .sha512
        default: return nil
        }
    }
}
