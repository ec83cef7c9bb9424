import RelctlBasics

/// The package formats by id; an unknown id lists the known ones.
package enum LinuxPackageFormats {
    package static let all: [String: any LinuxPackageFormat] = [
        DebPackageWriter().id: DebPackageWriter(),
        RpmPackageWriter().id: RpmPackageWriter(),
    ]

    package static var ids: [String] { all.keys.sorted() }

    package static func format(_ id: String) throws -> any LinuxPackageFormat {
        guard let format = all[id] else { throw LinuxPackageError.unknownFormat(id: id, known: ids) }
        return format
    }
}
