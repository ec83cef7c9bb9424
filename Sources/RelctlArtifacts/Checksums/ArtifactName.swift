import Foundation
import RelctlBasics
import RelctlModel

/// What an archive's file name says about it, recovered through the `[archive] name` template
/// (`{project}-{tag}-{target}` by default), so archives packaged on other machines can be
/// checksummed and listed in `manifest.json` without any record of how they were made.
package struct ArtifactName: Sendable, Equatable {
    /// The archive format id (`tar.gz`, `zip`, …).
    package var format: String
    /// The name without the format's extension.
    package var stem: String
    package var project: String?
    package var tag: String?
    package var version: String?
    package var target: String?

    /// The format id a file name ends with, or nil when it is not a recognised archive.
    package static func format(of fileName: String) -> String? {
        // Longest extension first, so `.tar.gz` wins over a hypothetical `.gz`.
        ArchiveFormats.ids.sorted { $0.count > $1.count }.first { id in
            let ext = ArchiveFormats.fileExtension(id)
            return fileName.hasSuffix(ext) && fileName.count > ext.count
        }
    }

    /// Parses `fileName` against `template`. `project` pins `{project}` when the project is
    /// known; `knownTargets` (the configured triples) are preferred when a name splits more
    /// than one way, then recognised triples. Nil when the name is not an archive or does not
    /// fit the template.
    package static func parse(
        _ fileName: String,
        template: Template,
        tagFormat: TagFormat,
        project: String? = nil,
        knownTargets: [String] = []
    ) -> ArtifactName? {
        guard let format = format(of: fileName) else { return nil }
        let stem = String(fileName.dropLast(ArchiveFormats.fileExtension(format).count))
        let pieces = template.segments
        let tags = TagReader(tagFormat)
        var best: (score: Int, values: [String: String])?
        match(Array(stem), from: 0, pieces: pieces[...], values: [:]) { values in
            guard let score = score(values, tags: tags, project: project, knownTargets: knownTargets) else {
                return
            }
            // Ties keep the first found: placeholders are tried shortest first.
            if best == nil || score > best!.score { best = (score, values) }
        }
        guard let values = best?.values else { return nil }
        var result = ArtifactName(
            format: format, stem: stem, project: values["project"], tag: values["tag"], version: values["version"],
            target: values["target"])
        if result.version == nil, let tag = result.tag {
            result.version = tags.releaseVersion(of: tag)?.description
        }
        return result
    }

    /// Every way the stem splits into the template's pieces; names are short and templates
    /// have a handful of placeholders, so plain backtracking is enough.
    private static func match(
        _ stem: [Character], from start: Int, pieces: ArraySlice<Template.Segment>, values: [String: String],
        found: (([String: String]) -> Void)
    ) {
        guard let piece = pieces.first else {
            if start == stem.count { found(values) }
            return
        }
        switch piece {
        case .literal(let text):
            let text = Array(text)
            guard start + text.count <= stem.count, Array(stem[start..<start + text.count]) == text else { return }
            match(stem, from: start + text.count, pieces: pieces.dropFirst(), values: values, found: found)
        case .placeholder(let name):
            guard start < stem.count else { return }
            for end in (start + 1)...stem.count {
                let value = String(stem[start..<end])
                if let earlier = values[name] {
                    if earlier == value {
                        match(stem, from: end, pieces: pieces.dropFirst(), values: values, found: found)
                    }
                    continue
                }
                var next = values
                next[name] = value
                match(stem, from: end, pieces: pieces.dropFirst(), values: next, found: found)
            }
        }
    }

    /// Nil rejects a split; higher is a more plausible one.
    private static func score(
        _ values: [String: String], tags: TagReader, project: String?, knownTargets: [String]
    ) -> Int? {
        if let project, let value = values["project"], value != project { return nil }
        var tagVersion: SemanticVersion?
        if let tag = values["tag"] {
            guard let version = tags.releaseVersion(of: tag) else { return nil }
            tagVersion = version
        }
        if let version = values["version"], (try? SemanticVersion(parsing: version)) == nil { return nil }
        if let tagVersion, let version = values["version"], tagVersion.description != version { return nil }
        var score = 0
        if let target = values["target"] {
            if knownTargets.contains(target) { score += 4 } else if TargetTriple(target).isRecognized { score += 2 }
        }
        for name in ["os", "arch"] where values[name]?.contains("-") == false { score += 1 }
        return score
    }
}
