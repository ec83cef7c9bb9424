import Foundation

/// A file operation that failed: `relctl: error: PATH: what relctl was doing: why` with exit 1,
/// instead of ArgumentParser printing `Error: Error Domain=NSCocoaErrorDomain Code=512 "(null)"…`.
public struct FileSystemError: RelctlError, StorageFaultCarrying {
    /// The file or folder concerned, when known.
    package var path: String?
    /// What relctl was doing ("cannot create the folder").
    package var action: String?
    /// Why it failed: the POSIX error text ("Permission denied") when there is one.
    package var reason: String?
    /// What to do about it, appended as written ("; check the path and its permissions").
    package var advice: String
    /// Foundation's error, when this wraps one.
    package var underlying: (any Error)?
    /// The `errno` of the failed system call, when relctl made it.
    package var code: Int32?

    package var storageFault: Int32? { code.flatMap { StorageFault.isFault($0) ? $0 : nil } }

    public var exitCode: RelctlExitCode { .failure }

    public var diagnostics: [Diagnostic] {
        let text = [action, reason].compactMap { $0 }.joined(separator: ": ") + advice
        return [Diagnostic(file: path, text)]
    }

    /// Foundation's error behind `error` when it is a wrapped one, else `error` itself: for
    /// messages that quote Foundation's own wording.
    package static func cause(of error: any Error) -> any Error {
        (error as? FileSystemError)?.underlying ?? error
    }

    /// A failure described by relctl: `action: reason` (or just `action`).
    public init(path: String?, action: String?, reason: String? = nil, advice: String = "") {
        self.path = path
        self.action = action
        self.reason = reason
        self.advice = advice
    }

    /// A failed system call: `action: ` and the text of the POSIX error `code` (`errno`).
    package init(path: String?, action: String, errno code: Int32) {
        self.init(
            path: path, action: action, reason: FileSystem.describe(errno: code),
            advice: StorageFault.isFault(code) ? StorageFault.advice(code) : "")
        self.code = code
    }

    /// Wraps Foundation's `error`; `path` names the file when Foundation's error does not, `action`
    /// says what relctl was doing ("cannot create the folder").
    public init(_ error: any Error, path: String? = nil, action: String? = nil) {
        let wrapped = error as? FileSystemError
        if let wrapped, wrapped.underlying == nil {
            self = wrapped
            self.path = path ?? wrapped.path
            self.action = action ?? wrapped.action
            return
        }
        let error = wrapped?.underlying ?? error
        let nsError = error as NSError
        let foundationPath =
            nsError.userInfo[NSFilePathErrorKey] as? String ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        // The POSIX cause ("Not a directory") says more than Cocoa's summary, which may be "(null)".
        let reason: String
        var code: Int32?
        if let underlying = (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }),
            underlying.domain == NSPOSIXErrorDomain
        {
            code = Int32(underlying.code)
        } else if nsError.domain == NSPOSIXErrorDomain {
            code = Int32(nsError.code)
        }
        if let code {
            reason = FileSystem.describe(errno: code)
        } else {
            reason = nsError.localizedDescription
        }
        self.init(
            path: path ?? wrapped?.path ?? foundationPath, action: action ?? wrapped?.action, reason: reason,
            advice: code.flatMap { StorageFault.isFault($0) ? StorageFault.advice($0) : nil }
                ?? "; check the path and its permissions")
        underlying = error
        self.code = code
    }
}
