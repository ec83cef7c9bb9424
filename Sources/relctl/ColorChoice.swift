import ArgumentParser
import Foundation
import RelctlCore

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}
