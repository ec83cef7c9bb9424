import Foundation

/// A location on disk, always absolute and lexically normalised (no `.`, `..`, doubled or trailing
/// slashes), so two spellings of one place compare equal.
///
/// It is the only way from a path string to a location. A string that may be relative becomes one
/// through `init(_:relativeTo:)`, which makes the caller name the base (the project root, the
/// repository, the folder of a workspace file); nothing binds a relative path to the process's
/// working directory by accident, as `URL(fileURLWithPath:)` does. The rest of relctl carries the
/// result as a file `URL` (`url`), which Foundation and the filesystem door take.
public struct AbsolutePath: Hashable, Sendable, CustomStringConvertible {
    /// The normalised path, starting with `/`.
    public let pathString: String

    /// nil when `string` is not absolute.
    public init?(absolute string: String) {
        guard string.hasPrefix("/") else { return nil }
        pathString = Self.normalize(string)
    }

    /// `string` as written when it is absolute, else relative to `base`: the one rule for every
    /// path a user, a config file, git or the environment hands relctl.
    public init(_ string: String, relativeTo base: AbsolutePath) {
        pathString = Self.normalize(string.hasPrefix("/") ? string : base.pathString + "/" + string)
    }

    /// A file URL's path (file URLs are absolute).
    public init(_ url: URL) {
        pathString = Self.normalize(url.path)
    }

    public var url: URL { URL(fileURLWithPath: pathString) }

    /// `relative` below this location; `..` components may climb out of it.
    public func appending(_ relative: String) -> AbsolutePath {
        AbsolutePath(normalized: Self.normalize(pathString + "/" + relative))
    }

    /// One entry of this folder's listing (a name without `/`, never `.` or `..`), appended
    /// without normalising the whole path again: the tree walker's way down, once per file.
    package func appending(name: String) -> AbsolutePath {
        precondition(!name.isEmpty && !name.contains("/") && name != "." && name != "..", "not a listing name: \(name)")
        // Sized once: `a + "/" + b` leaves spare capacity from the intermediate string, and the
        // packager keeps one such path per file (issue 31).
        var joined = ""
        joined.reserveCapacity(pathString.utf8.count + 1 + name.utf8.count)
        if pathString != "/" { joined += pathString }
        joined += "/"
        joined += name
        return AbsolutePath(normalized: joined)
    }

    /// The last component (`/` for the root).
    public var basename: String { pathString.split(separator: "/").last.map(String.init) ?? "/" }

    /// The folder holding this location (the root is its own parent).
    public var parent: AbsolutePath { appending("..") }

    public var description: String { pathString }

    /// `/`.
    public static let root = AbsolutePath(normalized: "/")

    private init(normalized: String) {
        pathString = normalized
    }

    /// Drops empty and `.` components and resolves `..` lexically (`/..` is `/`), as
    /// `URL.standardizedFileURL` does, without asking the filesystem about symlinks.
    package static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}

extension String {
    /// The last `/`-separated component of a path or name (`dist/a.tar.gz` → `a.tar.gz`); a
    /// string without a slash is its own last component.
    package var lastPathComponent: String {
        split(separator: "/").last.map(String.init) ?? self
    }
}

extension URL {
    /// The sibling whose name is this one's plus `suffix` (`SHA256SUMS` → `SHA256SUMS.sig`).
    package func appendingToName(_ suffix: String) -> URL {
        deletingLastPathComponent().appendingPathComponent(lastPathComponent + suffix)
    }
}
