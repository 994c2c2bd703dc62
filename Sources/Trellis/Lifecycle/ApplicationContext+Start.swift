extension ApplicationContext {
    /// Makes the eager singletons in declaration order (`ContextStart`).
    func start() throws(ContextError) {
        try ContextStart(self).run()
    }

    /// The async start: the async eager singletons concurrently, then the synchronous ones
    /// (`ContextStart`).
    ///
    /// A context with no eager singletons (a request's, most often) is checked without the
    /// async start's frames.
    nonisolated(nonsending)
    func startConcurrently() async throws(ContextError) {
        if configuration.eagerDefinitions.isEmpty { return try checkPrerequisites() }
        try await ContextStart(self).runConcurrently()
    }
}
