import Foundation
import RelctlBasics
import RelctlModel

/// The programs `[windows]` drives, where they come from, and which of them a configuration needs:
/// `wixl` compiles the WiX source, `msibuild` (both from msitools) adds what wixl 0.101 cannot
/// write, `osslsigncode` signs the MSI when a Windows signing key is set.
package enum MSITools {
    package static let wixl = "wixl"
    package static let msibuild = "msibuild"
    package static let osslsigncode = "osslsigncode"

    package static func debianPackage(of tool: String) -> String {
        switch tool {
        case wixl: return "wixl"
        case msibuild: return "msitools"
        default: return tool
        }
    }

    package static func fedoraPackage(of tool: String) -> String { tool == osslsigncode ? tool : "msitools" }

    /// What each needed tool is for, in the order they run.
    package static func requirements(
        _ settings: WindowsSettings, environment: [String: String]
    ) -> [(
        tool: String, why: String
    )] {
        guard settings.msi else { return [] }
        var needed = [
            (wixl, "`[windows] msi = true` builds each Windows target's MSI with it"),
            (msibuild, "`[windows] msi = true` adds the PATH entry to each MSI with it"),
        ]
        if settings.signs(environment: environment) {
            needed.append((osslsigncode, "a Windows signing key is set, and relctl signs each MSI with it"))
        }
        return needed
    }

    /// The needed tools that are not on `PATH`, as errors.
    package static func missing(_ settings: WindowsSettings, environment: [String: String]) -> [MSIError] {
        requirements(settings, environment: environment).compactMap { tool, why in
            locate(tool, environment: environment) == nil ? MSIError.toolMissing(tool: tool, why: why) : nil
        }
    }

    /// The tool's absolute path on the environment's PATH.
    package static func locate(_ tool: String, environment: [String: String]) -> URL? {
        ProcessRunner.firstExecutable(tool, onPath: environment["PATH"])
    }

    /// wixl's `-a` for a target: `x64` (x86_64), `x86` (i686, i586); nil for what wixl 0.101
    /// cannot write (arm64).
    package static func architecture(of target: Target) -> String? {
        guard target.os == "windows" else { return nil }
        switch TargetTriple.canonicalArch(target.arch) {
        case "x86_64": return "x64"
        case "i686": return "x86"
        default: return nil
        }
    }

    /// Runs a tool, throwing its output's tail when it fails.
    static func run(_ tool: String, _ arguments: [String], in directory: URL, context: Context) async throws {
        guard let executable = locate(tool, environment: context.environment) else {
            throw MSIError.toolMissing(tool: tool, why: "relctl needs it for `[windows]`")
        }
        var environment = context.environment
        // wixl writes the cabinet's file times in local time: UTC makes them the same everywhere.
        environment["TZ"] = "UTC"
        environment["LC_ALL"] = "C"
        let result = try await context.processes.run(
            Command(executable.path, arguments, directory: directory, environment: environment))
        guard result.succeeded else {
            throw MSIError.toolFailed(tool: tool, status: result.status, output: result.outputTail)
        }
    }
}
