extension Result where Failure == any Error {
    /// `Result(catching:)` for an async body: git queries whose failure is an answer to switch on.
    package init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
