import Foundation

/// Foundation's file errors as relctl errors: `relctl: error: PATH: reason` with exit 1 instead
/// of ArgumentParser printing `Error: Error Domain=NSCocoaErrorDomain Code=512 "(null)"…`.
public struct FileSystemError: RelctlError {
    public var exitCode: RelctlExitCode { .failure }
    public var diagnostics: [Diagnostic]

    /// Wraps `error`; `path` names the file when Foundation's error does not, `action` says
    /// what relctl was doing ("cannot create the folder").
    public init(_ error: any Error, path: String? = nil, action: String? = nil) {
        let nsError = error as NSError
        let file =
            path ?? nsError.userInfo[NSFilePathErrorKey] as? String ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        // The POSIX cause ("Not a directory") says more than Cocoa's summary, which may be "(null)".
        let reason: String
        if let underlying = (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }),
            underlying.domain == NSPOSIXErrorDomain
        {
            reason = String(cString: strerror(Int32(underlying.code)))
        } else if nsError.domain == NSPOSIXErrorDomain {
            reason = String(cString: strerror(Int32(nsError.code)))
        } else {
            reason = nsError.localizedDescription
        }
        diagnostics = [
            Diagnostic(file: file, (action.map { "\($0): " } ?? "") + "\(reason); check the path and its permissions")
        ]
    }
}
