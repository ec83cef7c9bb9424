import ArgumentParser
import Foundation
import RelctlBasics
import RelctlModel
import RelctlRelease

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}
