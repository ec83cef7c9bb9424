import Foundation
import RelctlBasics

/// Reads credentials the way `docker login` and CI login actions store them:
/// `$DOCKER_CONFIG/config.json` (else `~/.docker/config.json`), `credHelpers` per registry,
/// `credsStore` for all, then inline `auths`.
package struct DockerCredentials: Sendable {
    package var environment: [String: String]
    /// Runs `docker-credential-*` helpers.
    package var processes: any ProcessRunning

    package init(environment: [String: String], processes: any ProcessRunning = ProcessRunner()) {
        self.environment = environment
        self.processes = processes
    }

    /// The config file consulted, for messages.
    package var configFile: URL {
        // Relative values are relative to the working directory, as for docker itself.
        let here = AbsolutePath(FileSystem.currentDirectory)
        if let folder = environment["DOCKER_CONFIG"], !folder.isEmpty {
            return AbsolutePath(folder, relativeTo: here).appending("config.json").url
        }
        let home = environment["HOME"] ?? FileSystem.homeDirectory.path
        return AbsolutePath(home, relativeTo: here).appending(".docker/config.json").url
    }

    private struct ConfigFile: Decodable {
        struct Entry: Decodable {
            package var auth: String?
            package var username: String?
            package var password: String?
            package var identitytoken: String?
        }
        var auths: [String: Entry]?
        var credHelpers: [String: String]?
        var credsStore: String?
    }

    /// Credentials for `registry` (`host[:port]`), or nil when none are stored (anonymous access).
    package func lookup(registry: String) async throws -> RegistryCredentials? {
        let url = configFile
        guard let data = FileSystem.contents(of: url) else { return nil }
        let file: ConfigFile
        do { file = try JSONDecoder().decode(ConfigFile.self, from: data) } catch {
            throw ImageError.badDockerConfig(path: url.path, registry: registry, problem: .invalid(reason: "\(error)"))
        }
        let keys = Self.keys(for: registry)
        if let helper = keys.lazy.compactMap({ file.credHelpers?[$0] }).first ?? file.credsStore, !helper.isEmpty {
            // `x/../../bin/prog` would turn the PATH lookup into "run any file": refuse it up front.
            guard Self.isHelperName(helper) else {
                throw ImageError.badDockerConfig(
                    path: url.path, registry: registry, problem: .badHelperName(helper: helper))
            }
            if let found = try await helperCredentials(
                helper, server: keys[0] == "docker.io" ? Self.dockerHubKey : registry)
            {
                return found
            }
        }
        for key in keys {
            guard let entry = file.auths?[key] else { continue }
            if let auth = entry.auth, !auth.isEmpty {
                guard let decoded = Data(base64Encoded: auth).map({ String(decoding: $0, as: UTF8.self) }),
                    let colon = decoded.firstIndex(of: ":")
                else {
                    throw ImageError.badDockerConfig(path: url.path, registry: registry, problem: .badAuth(key: key))
                }
                return RegistryCredentials(
                    username: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
            }
            if let username = entry.username, let password = entry.password {
                return RegistryCredentials(username: username, password: password)
            }
            if entry.identitytoken != nil {
                throw ImageError.badDockerConfig(
                    path: url.path, registry: registry, problem: .identityTokenOnly(key: key))
            }
        }
        return nil
    }

    /// A helper name docker would look up on PATH as a plain file name: real helpers are names
    /// like `desktop`, `osxkeychain`, `ecr-login`, `gcloud`. A `/` would make it a path.
    package static func isHelperName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
            }
    }

    package static let dockerHubKey = "https://index.docker.io/v1/"

    /// The spellings under which `docker login` may have stored a registry.
    package static func keys(for registry: String) -> [String] {
        if ["docker.io", "index.docker.io", "registry-1.docker.io"].contains(registry) {
            return ["docker.io", dockerHubKey, "index.docker.io", "registry-1.docker.io", "https://index.docker.io/v1"]
        }
        return [
            registry, "https://\(registry)", "http://\(registry)", "https://\(registry)/v1/", "https://\(registry)/v2/",
        ]
    }

    /// Runs `docker-credential-NAME get` with the server on stdin (the helper protocol).
    package func helperCredentials(_ helper: String, server: String) async throws -> RegistryCredentials? {
        let name = "docker-credential-" + helper
        let here = AbsolutePath(FileSystem.currentDirectory)
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
            .map { AbsolutePath(String($0), relativeTo: here).appending(name).url }
            .first { FileSystem.isExecutable($0) }
        guard let path else {
            throw ImageError.credentialHelper(
                helper: helper, registry: server, reason: "\(name) is not on PATH (named in \(configFile.path))")
        }
        let result: ProcessResult
        do {
            result = try await processes.run(
                Command(path.path, ["get"], environment: environment, input: Data(server.utf8)))
        } catch {
            throw ImageError.credentialHelper(
                helper: helper, registry: server, reason: "cannot start \(path.path): \(error)")
        }
        let said = (result.stdoutText + result.stderrText).trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0 else {
            // The helper protocol's answer for "nothing stored": anonymous access, like docker.
            if said.lowercased().contains("credentials not found") { return nil }
            throw ImageError.credentialHelper(
                helper: helper, registry: server,
                reason: "exit \(result.status): \(said.split(separator: "\n").last.map(String.init) ?? "")")
        }
        struct Answer: Decodable {
            var Username: String
            var Secret: String
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: result.stdout) else {
            throw ImageError.credentialHelper(
                helper: helper, registry: server,
                reason: "its answer is not the helper protocol's JSON ({\"Username\",\"Secret\"})")
        }
        return RegistryCredentials(username: answer.Username, password: answer.Secret)
    }
}

/// A user name and secret for one registry, from the Docker config file or a credential helper.
package struct RegistryCredentials: Sendable, Equatable {
    package var username: String
    package var password: String

    package init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `Basic base64(user:password)`.
    package var basicHeader: String { "Basic " + Data("\(username):\(password)".utf8).base64EncodedString() }
}
