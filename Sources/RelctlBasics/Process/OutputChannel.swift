import Foundation
import Synchronization

/// Which stream a line of child output came from.
public enum OutputChannel: Sendable { case stdout, stderr }
