import RelctlBasics

/// Before anything is created on a forge, the tag there must be the tag made here: a release
/// attached to someone else's tag of the same name would publish the wrong commit.
package enum PushedTagCheck {
    /// `found` is the forge's view of the tag (nil: not pushed); either its tag object or the
    /// commit it points to may match `local`, since forges report one or the other.
    package static func require(
        _ tag: String, found: (object: String, commit: String?)?, local: String?, repository: String
    ) throws {
        guard let found else { throw PublishError.tagNotPushed(tag: tag, repository: repository) }
        if let local = local?.lowercased(), local != found.object.lowercased(), local != found.commit?.lowercased() {
            throw PublishError.tagDiffers(tag: tag, repository: repository, remote: found.object, local: local)
        }
    }
}
