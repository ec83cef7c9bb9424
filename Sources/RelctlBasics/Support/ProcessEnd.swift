import Foundation

/// How relctl ends (issue 55, finding 6): with its own exit code, never by a signal.
///
/// `exit(3)` runs the C library's exit handlers and the linked libraries' destructors (OpenSSL's
/// cleanup among them) while other threads of the process may still be running: with stages
/// overlapping, a task can still be loading the TLS trust store when a refusal ends the command,
/// and libcrypto's PEM reader then faulted in about half of the runs (`relctl image --push`
/// refusing a dynamic binary on `scratch` exited 139 instead of 2). relctl has nothing to do in
/// those handlers: its temporaries and children are cleaned up by their owners (and by the
/// interrupt handler), its messages are written unbuffered through `Console`. So the process
/// flushes C stdio (ArgumentParser's `print`) and leaves with `_exit(2)`, which runs no destructor
/// while another thread still uses the library.
public enum ProcessEnd {
    public static func terminate(_ code: Int32) -> Never {
        fflush(nil)
        _exit(code)
    }
}
