import ArgumentParser
import Foundation
import RelctlBasics
import RelctlModel
import RelctlRelease

/// Options shared by `train plan` and `train run`.
struct TrainOptions: ParsableArguments {
    @Argument(help: "The tag every repository gets, e.g. v1.2.0.") var tag: String
    @Option(name: .long, help: ArgumentHelp("The workspace file.", valueName: "file"))
    var workspace: String = Workspace.defaultFileName
}
