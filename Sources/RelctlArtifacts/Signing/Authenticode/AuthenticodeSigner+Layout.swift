import Foundation
import RelctlBasics
import RelctlModel

extension AuthenticodeSigner {
    /// True for an archive entry Authenticode signs on a Windows target: a `.exe` file.
    package static func signs(_ entry: ArchiveEntry) -> Bool {
        guard entry.path.lowercased().hasSuffix(".exe") else { return false }
        switch entry.content {
        case .file, .generated: return true
        case .directory, .symlink: return false
        }
    }

    /// Every `.exe` of `layout` replaced by its signed bytes. `signed` holds what was signed
    /// already, by source, so a target shipping several formats signs each file once (with a
    /// timestamp, two signings would differ) and all its archives carry the same bytes.
    package func signExecutables(
        in layout: inout ArchiveLayout, target: String, signed: inout [String: Data]
    ) async throws {
        for index in layout.entries.indices where Self.signs(layout.entries[index]) {
            let entry = layout.entries[index]
            let origin = entry.origin
            let memoKey = "\(target)\u{0}\(entry.sourcePath ?? origin)\u{0}\(entry.path)"
            if let done = signed[memoKey] {
                layout.entries[index].content = .generated(done)
                continue
            }
            let bytes: [UInt8]
            switch entry.content {
            case .generated(let data):
                bytes = Array(data)
            default:
                // The layout's sources are absolute paths (the packager's contained walk).
                guard let path = entry.sourcePath, let location = AbsolutePath(absolute: path),
                    let data = FileSystem.contents(of: location.url)
                else {
                    throw AuthenticodeError.notSignable(file: origin, target: target, reason: "it cannot be read")
                }
                bytes = Array(data)
            }
            let image: PEImage
            do {
                image = try PEImage(bytes)
            } catch {
                throw AuthenticodeError.notSignable(file: origin, target: target, reason: error.reason)
            }
            let result = Data(try await sign(image))
            signed[memoKey] = result
            layout.entries[index].content = .generated(result)
        }
    }

    /// `file` (a scratch copy of a built `.exe`) replaced by its signed bytes; `shown` names the
    /// built file in messages.
    package func signFile(_ file: URL, shown: String, target: String) async throws {
        guard let data = FileSystem.contents(of: file) else {
            throw AuthenticodeError.notSignable(file: shown, target: target, reason: "it cannot be read")
        }
        let image: PEImage
        do {
            image = try PEImage(Array(data))
        } catch {
            throw AuthenticodeError.notSignable(file: shown, target: target, reason: error.reason)
        }
        try AtomicFile.write(Data(try await sign(image)), to: file)
    }
}
