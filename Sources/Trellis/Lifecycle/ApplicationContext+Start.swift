extension ApplicationContext {
    /// Makes the eager singletons in declaration order (`ContextStart`).
    func start() throws(ContextError) {
        try ContextStart(self).run()
    }

    /// The async start: the async eager singletons concurrently, then the synchronous ones
    /// (`ContextStart`).
    nonisolated(nonsending)
    func startConcurrently() async throws(ContextError) {
        try await ContextStart(self).runConcurrently()
    }
}
