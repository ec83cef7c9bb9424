import Foundation

/// The main package's `bin`: a small JavaScript file that finds the platform package npm
/// installed beside it (`require.resolve("{package}-{os}-{cpu}/bin/NAME")`), runs its binary with
/// the arguments and passes its exit code (or signal) back. Nothing is downloaded: when no
/// platform package fits, it says which one it expected and exits 1. Its only variable part is
/// one JSON object, written by JSONSerialization (a JSON text is a JavaScript expression), so no
/// value reaches the script's code.
package enum NpmLauncher {
    /// The launcher's file in the main package (`bin/velostream.js`).
    package static func path(binary: String) -> String { "bin/" + binary + ".js" }

    /// The script for `binary`, given the main package's name and its platform packages by
    /// suffix (`linux-x64` → `@acme/velostream-linux-x64`).
    package static func script(binary: String, main: String, packages: [String: String]) throws -> Data {
        let spec: [String: Any] = ["binary": binary, "main": main, "packages": packages]
        let json = try JSONSerialization.data(withJSONObject: spec, options: [.sortedKeys, .withoutEscapingSlashes])
        let text = header + "const spec = " + String(decoding: json, as: UTF8.self) + ";\n" + body
        return Data(text.utf8)
    }

    private static let header = """
        #!/usr/bin/env node
        // Written by relctl: runs the binary of the platform package npm installed beside this one.
        "use strict";

        """

    private static let body = #"""
        const { spawnSync } = require("child_process");

        function isMusl() {
          if (process.platform !== "linux") return false;
          try {
            const report = process.report.getReport();
            const header = (typeof report === "string" ? JSON.parse(report) : report).header;
            return !header.glibcVersionRuntime;
          } catch (e) {
            return false;
          }
        }

        function suffixes() {
          const base = process.platform + "-" + process.arch;
          if (process.platform !== "linux") return [base];
          return isMusl() ? [base + "-musl", base] : [base, base + "-musl"];
        }

        const executable = spec.binary + (process.platform === "win32" ? ".exe" : "");
        const tried = [];
        let found = null;
        for (const suffix of suffixes()) {
          const name = spec.packages[suffix];
          if (name === undefined) continue;
          tried.push(name);
          try {
            found = require.resolve(name + "/bin/" + executable);
            break;
          } catch (e) {}
        }
        if (found === null) {
          const platform = process.platform + " " + process.arch;
          if (tried.length === 0) {
            process.stderr.write(
              spec.main + ": no package of " + spec.binary + " for " + platform + "; this release has packages for " +
                Object.keys(spec.packages).sort().join(", ") + "\n"
            );
          } else {
            process.stderr.write(
              spec.main + ": the package " + tried.join(" or ") + " holding " + executable + " for " + platform +
                " is not installed; install " + spec.main + " again without --omit=optional / --no-optional\n"
            );
          }
          process.exit(1);
        }
        const result = spawnSync(found, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
        if (result.error) {
          process.stderr.write(spec.main + ": cannot run " + found + ": " + result.error.message + "\n");
          process.exit(1);
        }
        if (result.signal) {
          process.kill(process.pid, result.signal);
          process.exit(1);
        }
        process.exit(result.status === null ? 1 : result.status);

        """#
}
