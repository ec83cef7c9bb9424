import Foundation

/// A file or tree copied into the archive: `from` in the project, `to` inside the archive folder.
struct PathMapping: Sendable, Equatable {
    var from: Template
    var to: Template
    init(from: Template, to: Template) {
        self.from = from
        self.to = to
    }
}
