import Foundation
import RelctlBasics
import RelctlModel

/// `[[image]]` tables. Read after `[build]` and `[[target]]`, so binaries, the entrypoint and the
/// targets are checked against them with the table's own lines.
extension ConfigLoader {
    package static func readImages(_ tables: [TableReader], config: RelctlConfig) -> [ImageSettings] {
        var images: [ImageSettings] = []
        var names: Set<String> = []
        for table in tables {
            guard let image = readImage(table, config: config) else { continue }
            if !names.insert(image.name).inserted {
                table.report(
                    table.values["name"] == nil ? nil : "name",
                    "two [[image]] tables are named `\(image.name)` (both would write dist/oci/\(image.name)/); give one a different `name`"
                )
                continue
            }
            images.append(image)
        }
        return images
    }

    private static func readImage(_ table: TableReader, config: RelctlConfig) -> ImageSettings? {
        defer { table.finish() }
        let name = table.string("name") ?? config.project.name
        var valid = true
        if name.isEmpty || name.contains("/") || name.hasPrefix(".") {
            table.report(
                "name",
                "image `name` `\(name)` must be a plain folder name (no `/`, not starting with `.`); it names dist/oci/<name>/"
            )
            valid = false
        }
        let repository = readImageRepository(table, config: config)
        let tags = readImageTags(table)
        let targets = table.strings("targets")
        checkImageTargets(targets, table: table, config: config)
        let binaries = table.strings("binaries")
        let entrypoint = table.strings("entrypoint")
        checkImageBinaries(binaries, entrypoint: entrypoint, table: table, config: config)
        let files = readImageFiles(table)
        let user = table.string("user") ?? ImageSettings.defaultUser
        if user.isEmpty || user.contains(where: { $0.isWhitespace }) {
            table.report("user", "`user` must be `uid[:gid]` or a user name, found `\(user)`")
        }
        let base = readImageBase(table)
        let labels = readImageLabels(table)
        guard valid, let repository else { return nil }
        return ImageSettings(
            name: name, repository: repository, tags: tags, targets: targets, binaries: binaries,
            entrypoint: entrypoint,
            files: files, user: user, base: base, labels: labels, line: table.line)
    }

    /// `repository`: a registry path without tag or digest.
    private static func readImageRepository(_ table: TableReader, config: RelctlConfig) -> ImageReference? {
        var repository: ImageReference?
        if let text = table.string("repository") {
            do {
                let reference = try ImageReference(parsing: text)
                if reference.tag != nil || reference.digest != nil {
                    table.report(
                        "repository",
                        "`repository` `\(text)` must not carry a tag or digest; write `\(reference.name)` and list tags in `tags`"
                    )
                } else {
                    repository = reference
                }
            } catch let error as RelctlError {
                table.report("repository", "image repository \(error.message)")
            } catch {}
        } else if table.values["repository"] == nil {
            table.report(
                nil,
                "every [[image]] needs `repository`, the registry path it is pushed to (e.g. `ghcr.io/acme/\(config.project.name.lowercased())`)"
            )
        }
        return repository
    }

    private static func readImageTags(_ table: TableReader) -> [Template] {
        var tags = ImageSettings.defaultTags
        if let texts = table.strings("tags") {
            if texts.isEmpty {
                table.report(
                    "tags",
                    "`tags` is empty: the image would be pushed without a name; list at least one, e.g. [\"{version}\"]"
                )
            }
            tags = texts.compactMap { text in
                do { return try Template(text, allowed: ImageSettings.tagPlaceholders) } catch let error as RelctlError
                {
                    table.report("tags", "image tag \(error.message)")
                } catch {}
                return nil
            }
        }
        return tags
    }

    /// `targets`: configured Linux targets (and some Linux target to build from at all).
    private static func checkImageTargets(_ targets: [String]?, table: TableReader, config: RelctlConfig) {
        let linux = config.targets.filter { TargetTriple($0.triple).os == "linux" }.map(\.triple)
        for triple in targets ?? [] {
            if let configured = config.targets.first(where: { $0.triple == triple }) {
                if TargetTriple(configured.triple).os != "linux" {
                    table.report(
                        "targets",
                        "image target `\(triple)` is not Linux; container images run Linux binaries only (Linux targets: \(linux.isEmpty ? "none" : linux.joined(separator: ", ")))"
                    )
                }
            } else {
                table.report(
                    "targets",
                    "image target `\(triple)` is not a configured [[target]]\(Suggestion.hint(for: triple, in: linux)); add it as a [[target]] or remove it here"
                )
            }
        }
        if targets == nil, linux.isEmpty, !config.targets.isEmpty {
            table.report(
                nil,
                "this [[image]] has no Linux target to build from; add a [[target]] such as `x86_64-unknown-linux-musl`"
            )
        }
    }

    /// `binaries` are [build] binaries, and `entrypoint` runs one of them.
    private static func checkImageBinaries(
        _ binaries: [String]?, entrypoint: [String]?, table: TableReader, config: RelctlConfig
    ) {
        for binary in binaries ?? [] where !config.build.binaries.contains(binary) {
            table.report(
                "binaries",
                "image binary `\(binary)` is not a [build] binary\(Suggestion.hint(for: binary, in: config.build.binaries)); known: \(config.build.binaries.joined(separator: ", "))"
            )
        }
        let imageBinaries = binaries ?? config.build.binaries
        if let entrypoint {
            if let first = entrypoint.first {
                if !imageBinaries.contains(first) {
                    table.report(
                        "entrypoint",
                        "entrypoint `\(first)` is not one of this image's binaries\(Suggestion.hint(for: first, in: imageBinaries)); they are: \(imageBinaries.isEmpty ? "none" : imageBinaries.joined(separator: ", "))"
                    )
                }
            } else {
                table.report(
                    "entrypoint",
                    "`entrypoint` is empty; name the binary to run, e.g. [\"\(imageBinaries.first ?? "app")\"]")
            }
        } else if imageBinaries.isEmpty {
            table.report(nil, "this [[image]] has no binary to run: list [build] binaries (or `binaries` here)")
        }
    }

    /// `files`: extra paths copied into the image, as text or `{ from, to }` tables.
    private static func readImageFiles(_ table: TableReader) -> [PathMapping] {
        var files: [PathMapping] = []
        for item in table.items("files") {
            switch item {
            case .left(let text):
                if let from = try? Template(text, allowed: Template.perTarget) {
                    files.append(PathMapping(from: from, to: from))
                } else {
                    table.report(
                        "files",
                        "image file `\(text)` has an unknown placeholder; allowed: \(Template.perTarget.map { "{\($0)}" }.joined(separator: " "))"
                    )
                }
            case .right(let entry):
                defer { entry.finish() }
                guard let from = entry.string("from").flatMap({ try? Template($0, allowed: Template.perTarget) }) else {
                    entry.report(nil, "each table in image `files` needs `from` (and optionally `to`)")
                    continue
                }
                let to = entry.string("to").flatMap { try? Template($0, allowed: Template.perTarget) } ?? from
                files.append(PathMapping(from: from, to: to))
            }
        }
        return files
    }

    /// `base`: `scratch`, or an image pinned by digest.
    private static func readImageBase(_ table: TableReader) -> ImageReference? {
        var base: ImageReference?
        if let text = table.string("base"), text != "scratch" {
            do {
                let reference = try ImageReference(parsing: text)
                if reference.digest == nil {
                    table.report(
                        "base",
                        "base image `\(text)` must be pinned by digest so every build gets the same bytes; write `\(reference.name)@sha256:…` (`skopeo inspect docker://\(reference) | grep Digest`), or `scratch`"
                    )
                } else {
                    base = reference
                }
            } catch let error as RelctlError {
                table.report("base", "base image \(error.message)")
            } catch {}
        }
        return base
    }

    private static func readImageLabels(_ table: TableReader) -> [String: String] {
        var labels: [String: String] = [:]
        if let labelTable = table.table("labels") {
            for key in labelTable.values.keys.sorted() {
                labelTable.allow(key)
                if let value = labelTable.values[key]?.string {
                    labels[key] = value
                } else {
                    labelTable.report(key, "label `\(key)` must be a string")
                }
            }
        }
        return labels
    }
}
