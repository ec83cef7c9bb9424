import Foundation

/// The signals a failing write raises, set up once at start-up (`RelctlCLI.main`).
///
/// - SIGXFSZ, raised by a write past the file-size limit (`ulimit -f`), would kill relctl on
///   the spot, leaving its temporaries and saying nothing. It is caught by a handler that does
///   nothing, so the write returns EFBIG instead and the error names the file like any other
///   storage fault (`StorageFault`). A handler rather than SIG_IGN: an ignored signal stays
///   ignored in the children relctl starts (builds, git, hooks), a handler is reset by exec.
/// - SIGPIPE is left as it is: `relctl notes | head -1` ends relctl quietly when `head` closes
///   the pipe, as every Unix filter does. (The process runner blocks it on the one thread that
///   writes a child's stdin.)
package enum WriteFaultSignals {
    package static func install() {
        signal(SIGXFSZ) { _ in }
    }
}
