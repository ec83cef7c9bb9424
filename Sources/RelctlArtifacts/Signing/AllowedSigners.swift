import Foundation
import RelctlBasics

/// OpenSSH's allowed-signers file (ssh-keygen(1), "ALLOWED SIGNERS"): per line, principals,
/// optional options, key type and base64 key. relctl trusts the plain Ed25519 keys it lists;
/// `cert-authority` lines and expired or not-yet-valid ones are skipped.
package struct AllowedSigners: Sendable {
    package struct Signer: Sendable, Equatable {
        package var principals: String
        package var keyBlob: [UInt8]
        /// From `namespaces="…"`; nil means every namespace.
        package var namespaces: [String]?
    }

    package var signers: [Signer]

    package init(text: String, file: String) throws {
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
            let options: [String: String]
            do { options = hasOptions ? try Self.strictOptions(fields[1]) : [:] } catch let problem as OptionProblem {
                // ssh-keygen stops at such a line and trusts nothing; trusting the key anyway would
                // make relctl accept what the tool it stands in for refuses.
                throw SigningError.badKey(
                    source: "\(file):\(number + 1)",
                    reason:
                        "ssh-keygen cannot parse the options `\(fields[1])`: \(problem.reason); fix or remove the line")
            }
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
    package func signer(for keyBlob: [UInt8], namespace: String) -> Signer? {
        signers.first { $0.keyBlob == keyBlob && ($0.namespaces?.contains(namespace) ?? true) }
    }

    package static func isKeyType(_ field: String) -> Bool {
        field.hasPrefix("ssh-") || field.hasPrefix("ecdsa-") || field.hasPrefix("sk-") || field.hasPrefix("rsa-")
    }

    /// Whitespace-separated fields; double quotes group (options may hold spaces).
    package static func fields(_ line: String) -> [String] {
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

    package struct OptionProblem: Error {
        package var reason: String
    }

    /// The options as ssh-keygen reads them (sshsig.c, `sshsigopt_parse`): only `cert-authority`,
    /// `namespaces="…"`, `valid-after="…"` and `valid-before="…"`, values in double quotes, times
    /// that parse, and `valid-before` after `valid-after`. Anything else is a problem, not ignored.
    package static func strictOptions(_ field: String) throws -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(field)
        var first = true
        while !rest.isEmpty {
            let name = rest.prefix { $0 != "=" && $0 != "," }.lowercased()
            rest = rest.dropFirst(name.count)
            defer { first = false }
            switch name {
            case "" where !first && rest.first == ",":
                // ssh-keygen passes over an empty option between two commas.
                break
            case "cert-authority":
                guard rest.first != "=" else { throw OptionProblem(reason: "`cert-authority` takes no value") }
                result[name] = ""
            case "namespaces", "valid-after", "valid-before":
                guard rest.first == "=" else { throw OptionProblem(reason: "`\(name)` needs a value") }
                rest = rest.dropFirst()
                guard rest.first == "\"" else {
                    throw OptionProblem(reason: "the value of `\(name)` must be in double quotes")
                }
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: "\"") else {
                    throw OptionProblem(reason: "the value of `\(name)` has no closing quote")
                }
                let value = String(rest[..<close])
                rest = rest[rest.index(after: close)...]
                if name != "namespaces" {
                    guard let time = Self.time(value), time.timeIntervalSince1970 > 0 else {
                        throw OptionProblem(
                            reason:
                                "`\(name)=\"\(value)\"` is not a time ssh-keygen reads (YYYYMMDD[HHMM[SS]], optionally ending in Z or UTC)"
                        )
                    }
                }
                guard result[name] == nil else { throw OptionProblem(reason: "`\(name)` is given twice") }
                result[name] = value
            default:
                throw OptionProblem(reason: "unknown option `\(name)`")
            }
            guard !rest.isEmpty else { break }
            guard rest.first == "," else { throw OptionProblem(reason: "expected `,` after `\(name)`") }
            rest = rest.dropFirst()
            if rest.isEmpty { throw OptionProblem(reason: "the options end with `,`") }
        }
        if let after = result["valid-after"].flatMap(Self.time), let before = result["valid-before"].flatMap(Self.time),
            before <= after
        {
            throw OptionProblem(reason: "`valid-before` is not after `valid-after`")
        }
        return result
    }

    /// `YYYYMMDD[HHMM[SS]][Z|UTC]`, as ssh-keygen accepts (misc.c, `parse_absolute_time`).
    package static func time(_ text: String) -> Date? {
        var digits = text
        var utc = false
        if digits.count > 1, digits.hasSuffix("Z") || digits.hasSuffix("z") {
            utc = true
            digits.removeLast()
        } else if digits.count > 3, digits.uppercased().hasSuffix("UTC") {
            utc = true
            digits.removeLast(3)
        }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let formats = [8: "yyyyMMdd", 12: "yyyyMMddHHmm", 14: "yyyyMMddHHmmss"]
        guard let format = formats[digits.count] else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        formatter.timeZone = utc ? TimeZone(identifier: "UTC") : TimeZone.current
        return formatter.date(from: digits)
    }
}
