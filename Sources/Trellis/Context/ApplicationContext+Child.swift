extension ApplicationContext {
    /// Builds a child context of `factory` under this one, passes it to `body`, and closes it
    /// when `body` returns or throws: a scope (a screen, a request) whose objects are disposed on
    /// every path.
    ///
    /// ```swift
    /// let summary = try app.withChild(ReportFactory()) { report in
    ///     try report.object("summary", as: Summary.self)
    /// }
    /// ```
    /// The synchronous form closes with the synchronous ``close()-5gmlg``: a child that made an
    /// ``AsyncDisposable`` (or, off the main actor, an object disposable only there) needs the
    /// async form. Should the synchronous close refuse (``ContextError/requiresAwait(key:path:)``),
    /// the child is closed by an unstructured task instead, so nothing it made is left
    /// undisposed. In async code, a body that never awaits selects this form: write `await`
    /// inside it, or call the async form from a function that needs it.
    ///
    /// - Throws: what building the child throws (``ContextError``; `body` is not called); what
    ///   `body` throws (the child is closed first; should the close fail too, the body's error
    ///   wins and the close's is dropped, every disposal having still been attempted); otherwise
    ///   what ``close()-5gmlg`` throws.
    public func withChild<Result>(_ factory: some ObjectFactory, _ body: (ApplicationContext) throws -> Result) throws -> Result {
        try Self.closing(ApplicationContext(factory, parent: self), body)
    }

    /// ``withChild(_:_:)-78vg9`` with the definitions of `overriding` replacing those of `factory`
    /// with the same keys, as ``init(_:overriding:parent:)-6sxah`` does.
    public func withChild<Result>(_ factory: some ObjectFactory, overriding: some ObjectFactory, _ body: (ApplicationContext) throws -> Result) throws -> Result {
        try Self.closing(ApplicationContext(factory, overriding: overriding, parent: self), body)
    }

    /// Builds and starts a child context of `factory` with `try await`, passes it to `body`, and
    /// closes it with `try await close()` when `body` returns or throws.
    ///
    /// ```swift
    /// try await app.withChild(EditorFactory(note: note)) { editor in
    ///     let screen: EditorScreen = try await editor.object("editorScreen")
    ///     try await screen.run()
    /// }
    /// ```
    /// Runs on the caller's actor (`nonisolated(nonsending)`): from the main actor, `body` runs
    /// there, and so do the start and the close as far as they can. Disposables whose
    /// conformance is main-actor isolated are disposed on the main actor.
    ///
    /// - Throws: as ``withChild(_:_:)-78vg9``, with the async start and close.
    nonisolated(nonsending)
    public func withChild<Result>(_ factory: some ObjectFactory, _ body: (ApplicationContext) async throws -> Result) async throws -> Result {
        try await Self.closing(ApplicationContext(factory, parent: self), body)
    }

    /// The async ``withChild(_:_:)-uwoh`` with the definitions of `overriding` replacing those
    /// of `factory` with the same keys.
    nonisolated(nonsending)
    public func withChild<Result>(_ factory: some ObjectFactory, overriding: some ObjectFactory, _ body: (ApplicationContext) async throws -> Result) async throws -> Result {
        try await Self.closing(ApplicationContext(factory, overriding: overriding, parent: self), body)
    }

    /// Runs `body` with `child`, then closes `child`; the body's error wins over the close's.
    private static func closing<Result>(_ child: ApplicationContext, _ body: (ApplicationContext) throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try body(child)
        } catch {
            try? close(child)
            throw error
        }
        try close(child)
        return result
    }

    /// Closes `child` synchronously; where that is refused (it must be awaited), closes it in
    /// an unstructured task and throws the refusal: the caller holds no other way to close it.
    private static func close(_ child: ApplicationContext) throws(ContextError) {
        do {
            try child.close()
        } catch {
            if case .requiresAwait = error { Task { try? await child.close() } }
            throw error
        }
    }

    /// `closing(_:_:)` for an async body and close.
    nonisolated(nonsending)
    private static func closing<Result>(_ child: ApplicationContext, _ body: (ApplicationContext) async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body(child)
        } catch {
            try? await child.close()
            throw error
        }
        try await child.close()
        return result
    }
}
