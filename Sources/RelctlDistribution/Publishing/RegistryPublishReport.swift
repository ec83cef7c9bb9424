import Foundation
import RelctlBasics

/// What `relctl publish` did on a package registry (`[npm]`, `[pypi]`): for `--json`, in the
/// shape of a forge's `PublishReport` (`publisher`, `repository`, `tag`, `outcome`, `uploaded`,
/// `unchanged`), so one array holds every place a release went.
package struct RegistryPublishReport: Encodable, Sendable, Equatable {
    /// `npm` or `pypi`.
    package var publisher: String
    /// The registry (`[npm] registry`) or the upload URL (`[pypi] repository-url`).
    package var repository: String
    /// PyPI's simple index the uploads were looked up in; nil for npm.
    package var index: String?
    package var tag: String
    /// `published` when this run sent something, `already-published` when everything was there
    /// with the same bytes, `dry-run` when nothing was sent.
    package var outcome: PublishReport.Outcome
    /// The files sent (npm tarballs, wheels), in the order sent.
    package var uploaded: [String]
    /// The files the registry already held with the same bytes.
    package var unchanged: [String]

    package init(
        publisher: String, repository: String, index: String? = nil, tag: String, rehearsed: Bool,
        uploaded: [String], unchanged: [String]
    ) {
        self.publisher = publisher
        self.repository = repository
        self.index = index
        self.tag = tag
        self.outcome = rehearsed ? .rehearsed : uploaded.isEmpty ? .alreadyPublished : .published
        self.uploaded = uploaded
        self.unchanged = unchanged
    }

    private enum CodingKeys: String, CodingKey {
        case publisher, repository, index, tag, outcome, uploaded, unchanged
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(publisher, forKey: .publisher)
        try container.encode(repository, forKey: .repository)
        try container.encodeIfPresent(index, forKey: .index)
        try container.encode(tag, forKey: .tag)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(uploaded, forKey: .uploaded)
        try container.encode(unchanged, forKey: .unchanged)
    }
}

/// One entry of `relctl publish --json`: a forge's report or a registry's.
package enum PublishedReport: Encodable, Sendable {
    case forge(PublishReport)
    case registry(RegistryPublishReport)

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .forge(let report): try report.encode(to: encoder)
        case .registry(let report): try report.encode(to: encoder)
        }
    }
}
