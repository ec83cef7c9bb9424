import RelctlBasics
import RelctlModel

/// What each provider writes and checks: the CI area's side of `CIProvider` (the enum itself is
/// part of the config model, `[ci] providers`).
extension CIProvider {
    /// The generated file, relative to the project root.
    package func path(config: RelctlConfig) -> String {
        switch self {
        case .github: config.ci.workflow
        case .gitlab: GitLabPipeline.path
        }
    }

    /// The complete file, header included.
    package func render(config: RelctlConfig) throws -> String {
        switch self {
        case .github where config.workspace != nil:
            GeneratedFile.render(
                header: GeneratedFile.header(command: "relctl ci generate", config: config),
                body: WorkspaceWorkflow.body(config: config))
        case .github: ReleaseWorkflow.render(config: config)
        case .gitlab where config.workspace != nil:
            GeneratedFile.render(
                header: GeneratedFile.header(command: "relctl ci generate --provider gitlab", config: config),
                body: try GitLabWorkspacePipeline.body(config: config))
        case .gitlab: try GitLabPipeline.render(config: config)
        }
    }

    /// What the generated file cannot do as configured: errors stop `ci generate` and fail
    /// `check`, warnings are printed.
    public func problems(config: RelctlConfig) -> [Diagnostic] {
        switch self {
        case .github: ReleaseWorkflow.problems(config: config)
        case .gitlab: GitLabPipeline.problems(config: config)
        }
    }
}
