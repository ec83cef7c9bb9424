import Foundation

/// The names in a folder a test checks for leftovers. A folder that does not exist holds
/// nothing; any other listing error (not a folder, no permission, an I/O error) throws, so a
/// "nothing was written" check cannot pass because the folder could not be read (issue 62's
/// mutation audit: such checks passed with `dist` unlistable).
public func folderNames(_ folder: URL) throws -> [String] {
    do {
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
        // A link (or anything else) at the path is not "nothing": only a true absence is.
        guard (try? FileManager.default.attributesOfItem(atPath: folder.path)) == nil else { throw error }
        return []
    }
}

public func folderNames(_ path: String) throws -> [String] {
    try folderNames(URL(fileURLWithPath: path))
}
