import Foundation

/// `relctl plan --json` as the contract fixes it: `{"members":[{name, path, current, next, tag,
/// reason, commits, branch}]}`, every key present, null when absent.
public struct MemberPlanDocument: Decodable, Sendable {
    public struct Member: Decodable, Equatable, Sendable {
        public var name: String
        public var path: String
        public var current: String?
        public var next: String?
        public var tag: String?
        public var reason: String
        public var commits: Int
        public var branch: String?

        public init(
            name: String, path: String, current: String?, next: String?, tag: String?, reason: String, commits: Int,
            branch: String?
        ) {
            (self.name, self.path, self.current, self.next) = (name, path, current, next)
            (self.tag, self.reason, self.commits, self.branch) = (tag, reason, commits, branch)
        }
    }

    public var members: [Member]

    /// Runs `relctl plan --json` in `directory`: the result, and the members when it exited 0.
    public static func run(
        in directory: URL, environment: [String: String] = [:]
    ) throws -> (result: RunResult, members: [Member]) {
        let result = try relctl(["plan", "--json"], in: directory, environment: environment)
        guard result.status == 0 else { return (result, []) }
        return (result, try JSONDecoder().decode(MemberPlanDocument.self, from: Data(result.stdout.utf8)).members)
    }
}
