import ArgumentParser
import Foundation
import RelctlBasics
import RelctlCore
import RelctlRelease

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}
