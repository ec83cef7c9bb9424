import Foundation
import RelctlArtifacts
import RelctlBasics

/// `--push`: pushes the images after the git tag is pushed and dist/ is sealed, so a failed
/// image push never takes the tag back (others may have fetched it); it says how to finish
/// instead. On a dry run it only checks that each registry answers and accepts the credentials
/// for push, writing nothing.
struct ImagePushStage: ReleaseStage {
    init() {}
    var name: String { "image-push" }
    var needs: Set<ReleaseFact> { [.images, .pushedTag] }
    var produces: Set<ReleaseFact> { [.pushedImages] }
    var dryRun: DryRunBehaviour { .rehearsal }
    var needsPassingPreflight: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.options.push ? nil : "no --push (push later with `relctl image --tag \(run.tag) --push`)"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let pusher = ImagePusher(context: run.context)
        var pushed: [BuiltImage] = []
        for var image in outputs.images ?? [] {
            // Once dist/ is sealed the layouts live there, no longer in the staging folder.
            if outputs.distFiles != nil {
                image.layout = run.distDirectory.appendingPathComponent("oci").appendingPathComponent(image.name).path
            }
            run.progress.update(run.isDryRun ? "checking \(image.repository)" : "pushing \(image.repository)")
            do {
                try await pusher.push(image, dryRun: run.isDryRun)
            } catch let error as RelctlError where !run.isDryRun {
                throw ProblemList(
                    exitCode: error.exitCode,
                    diagnostics: error.diagnostics + [
                        Diagnostic(
                            "the tag \(run.tag) stays pushed (others may have fetched it); once fixed, finish with `relctl image --tag \(run.tag) --push` (it uploads only what is missing)"
                        )
                    ])
            }
            image.pushed = !run.isDryRun
            pushed.append(image)
        }
        outputs.pushedImages = pushed
        let verb = run.isDryRun ? "registries accept the credentials for" : "pushed"
        return "\(verb) \(pushed.map { "\($0.repository)@\($0.digest)" }.joined(separator: ", "))"
    }
}
