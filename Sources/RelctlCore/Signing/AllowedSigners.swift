import Foundation

/// OpenSSH's allowed-signers file (ssh-keygen(1), "ALLOWED SIGNERS"): per line, principals,
/// optional options, key type and base64 key. relctl trusts the plain Ed25519 keys it lists;
/// `cert-authority` lines and expired or not-yet-valid ones are skipped.
struct AllowedSigners: Sendable {
    struct Signer: Sendable, Equatable {
        var principals: String
        var keyBlob: [UInt8]
        /// From `namespaces="…"`; nil means every namespace.
        var namespaces: [String]?
    }

    var signers: [Signer]

    init(text: String, file: String) throws {
        signers = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = Self.fields(line)
            guard fields.count >= 3 else {
                throw SigningError.badKey(
                    source: "\(file):\(number + 1)",
                    reason: "an allowed-signers line needs `PRINCIPALS [OPTIONS] KEYTYPE BASE64KEY`")
            }
            let hasOptions = !Self.isKeyType(fields[1])
            let options = hasOptions ? Self.options(fields[1]) : [:]
            let typeIndex = hasOptions ? 2 : 1
            guard fields.count > typeIndex + 1 else {
                throw SigningError.badKey(
                    source: "\(file):\(number + 1)",
                    reason: "no key after the options; expected `PRINCIPALS OPTIONS KEYTYPE BASE64KEY`")
            }
            guard fields[typeIndex] == "ssh-ed25519", options["cert-authority"] == nil else { continue }
            if let after = options["valid-after"], let time = Self.time(after), time > Date() { continue }
            if let before = options["valid-before"], let time = Self.time(before), time < Date() { continue }
            guard let blob = Data(base64Encoded: fields[typeIndex + 1]),
                SSHSignature.ed25519Key(fromBlob: Array(blob)) != nil
            else {
                throw SigningError.badKey(
                    source: "\(file):\(number + 1)",
                    reason: "the ssh-ed25519 key is not valid base64 of an Ed25519 public key")
            }
            let namespaces = options["namespaces"].map { $0.split(separator: ",").map(String.init) }
            signers.append(Signer(principals: fields[0], keyBlob: Array(blob), namespaces: namespaces))
        }
    }

    /// The first signer holding `keyBlob` that may sign in `namespace`.
    func signer(for keyBlob: [UInt8], namespace: String) -> Signer? {
        signers.first { $0.keyBlob == keyBlob && ($0.namespaces?.contains(namespace) ?? true) }
    }

    static func isKeyType(_ field: String) -> Bool {
        field.hasPrefix("ssh-") || field.hasPrefix("ecdsa-") || field.hasPrefix("sk-") || field.hasPrefix("rsa-")
    }

    /// Whitespace-separated fields; double quotes group (options may hold spaces).
    static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        for character in line {
            if character == "\"" { quoted.toggle() }
            if !quoted, character == " " || character == "\t" {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { fields.append(current) }
        return fields
    }

    /// `cert-authority,namespaces="file,git"` → ["cert-authority": "", "namespaces": "file,git"].
    static func options(_ field: String) -> [String: String] {
        var result: [String: String] = [:]
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in field {
            if character == "\"" { quoted.toggle(); continue }
            if character == ",", !quoted { parts.append(current); current = "" } else { current.append(character) }
        }
        parts.append(current)
        for part in parts where !part.isEmpty {
            if let equals = part.firstIndex(of: "=") {
                result[part[..<equals].lowercased()] = String(part[part.index(after: equals)...])
            } else {
                result[part.lowercased()] = ""
            }
        }
        return result
    }

    /// `YYYYMMDD[HHMM[SS]][Z]`, as ssh-keygen accepts.
    static func time(_ text: String) -> Date? {
        var digits = text
        let utc = digits.hasSuffix("Z") || digits.hasSuffix("z")
        if utc { digits.removeLast() }
        let formats = [8: "yyyyMMdd", 12: "yyyyMMddHHmm", 14: "yyyyMMddHHmmss"]
        guard let format = formats[digits.count] else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        formatter.timeZone = utc ? TimeZone(identifier: "UTC") : TimeZone.current
        return formatter.date(from: digits)
    }
}
