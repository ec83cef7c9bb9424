import Foundation
import RelctlBasics

/// `/usr/share/lintian/overrides/{package}`: the tags lintian raises for choices a release binary
/// makes on purpose. Only tags that apply are written (an unused override is itself a finding):
/// a statically linked binary (musl builds, Go) is what makes one package run on every
/// distribution release.
package enum LintianOverrides {
    package static func render(_ spec: LinuxPackageSpec) throws -> String {
        // ELF headers and program headers sit at the front (gABI: the program headers follow the
        // 64-byte header in every linker's output), so 64 KiB tells without reading a whole binary.
        try spec.files.filter { try !$0.isDirectory && ELFFile.isStaticExecutable($0.head(64 << 10)) }.map {
            "\(spec.name): statically-linked-binary [\($0.path.dropFirst())]\n"
        }.joined()
    }
}
