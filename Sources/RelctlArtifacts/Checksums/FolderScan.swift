import Foundation
import RelctlBasics

/// What `relctl checksum` sees of a folder it is given: the regular files directly in it (hidden
/// ones never, links never), sorted bytewise. The archives, the .deb/.rpm packages and the
/// registry packages are each a filter over this one listing.
package enum FolderScan {
    package static func regularFiles(in directory: URL, where keep: (String) -> Bool) -> [String] {
        var names: [String] = []
        try? FileSystem.forEachName(in: directory) { name in
            if !name.hasPrefix("."), keep(name), FileKind.isRegularFile(directory.appendingPathComponent(name).path) {
                names.append(name)
            }
        }
        return names.sorted(by: bytewiseLess)
    }
}
