import CSodium
import Foundation
import RelctlBasics

/// The few libsodium calls minisign's formats need, with Swift arrays in and out.
package enum Sodium {
    /// libsodium must be initialised once before use; it is idempotent and thread-safe.
    package static let ready: Bool = sodium_init() >= 0

    /// libsodium declares the BLAKE2b state 64-byte aligned, which Swift imports as an opaque
    /// type: it is allocated here with the size and alignment libsodium asks for.
    package static func withHashState<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        _ = ready
        let memory = UnsafeMutableRawPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
        defer { memory.deallocate() }
        return try body(OpaquePointer(memory))
    }

    /// BLAKE2b of `count` output bytes (minisign: 64 to prehash a file, 32 for the key checksum).
    package static func blake2b(_ parts: [[UInt8]], count: Int) -> [UInt8] {
        withHashState { state in
            var output = [UInt8](repeating: 0, count: count)
            crypto_generichash_init(state, nil, 0, count)
            for part in parts { crypto_generichash_update(state, part, UInt64(part.count)) }
            crypto_generichash_final(state, &output, count)
            return output
        }
    }

    /// BLAKE2b-512 of a file, read in chunks (minisign's prehashed "ED" signatures).
    package static func blake2b512(file url: URL) throws -> [UInt8] {
        _ = ready
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw SigningError.missingFile(path: url.path, reason: "cannot be read")
        }
        defer { try? handle.close() }
        return try withHashState { state in
            crypto_generichash_init(state, nil, 0, 64)
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { bytes in
                    _ = crypto_generichash_update(
                        state, bytes.bindMemory(to: UInt8.self).baseAddress, UInt64(bytes.count))
                }
            }
            var output = [UInt8](repeating: 0, count: 64)
            crypto_generichash_final(state, &output, 64)
            return output
        }
    }

    /// Ed25519 detached signature with a 64-byte libsodium secret key (seed + public key).
    package static func sign(_ message: [UInt8], secretKey: [UInt8]) -> [UInt8] {
        _ = ready
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        crypto_sign_detached(&signature, nil, message, UInt64(message.count), secretKey)
        return signature
    }

    package static func verify(_ signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        _ = ready
        guard signature.count == Int(crypto_sign_BYTES), publicKey.count == Int(crypto_sign_PUBLICKEYBYTES) else {
            return false
        }
        return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }

    /// scrypt (the salsa20/8 variant minisign uses) stretched to `count` bytes; nil when
    /// libsodium refuses the limits (out of memory).
    package static func scrypt(
        password: [UInt8], salt: [UInt8], opsLimit: UInt64, memLimit: UInt64, count: Int
    ) -> [UInt8]? {
        _ = ready
        var output = [UInt8](repeating: 0, count: count)
        let status = password.withUnsafeBufferPointer { pass in
            pass.withMemoryRebound(to: CChar.self) { chars -> Int32 in
                guard let base = chars.baseAddress else { return -1 }
                return crypto_pwhash_scryptsalsa208sha256(
                    &output, UInt64(count), base, UInt64(pass.count), salt, opsLimit, Int(memLimit))
            }
        }
        return status == 0 ? output : nil
    }

    /// Overwrites secret bytes once they are no longer needed.
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) }
    }
}
