import Synchronization

extension ApplicationContext {
    /// The context objects made with their plain `init` resolve their `@Inject` properties from:
    /// the innermost ``withCurrent(_:)`` binding of this task, else the process-wide default
    /// set with ``setDefault(_:)``, else `nil`.
    ///
    /// Task-local: child tasks inherit the binding, detached tasks and other tasks do not, so
    /// tests running in parallel each see their own.
    public static var current: ApplicationContext? {
        CurrentContext.$bound.get()?.context ?? CurrentContext.defaultContext.withLock { $0 }
    }

    /// Makes `context` the process-wide default current context (AppleGuice's `startService`);
    /// `nil` clears it.
    ///
    /// ```swift
    /// ApplicationContext.setDefault(app)   // once, at launch
    /// let screen = CheckoutScreen()        // its @Inject properties resolve from app on first read
    /// ```
    public static func setDefault(_ context: ApplicationContext?) {
        let previous = CurrentContext.defaultContext.withLock { stored in
            defer { stored = context }
            return stored
        }
        CurrentContext.hasDefault.store(context != nil, ordering: .releasing)
        CurrentContext.generation.add(1, ordering: .releasing)
        withExtendedLifetime(previous) {}
    }

    /// Runs `body` with this context as ``current`` for the current task (and its child tasks).
    ///
    /// ```swift
    /// try child.withCurrent { try handle(request) }
    /// ```
    public func withCurrent<R>(_ body: () throws -> R) rethrows -> R {
        CurrentContext.bindings.add(1, ordering: .relaxed)
        // The binding changes on this thread, inside whatever frame runs here: the binding its
        // `@Inject` initialisers read (`ThreadState.boundReference`) must be read again.
        let thread = ThreadState.currentUnretained
        thread.with { $0.frames &+= 1 }
        defer {
            thread.with { $0.frames &+= 1 }
            CurrentContext.bindings.subtract(1, ordering: .relaxed)
        }
        return try CurrentContext.$bound.withValue(CurrentBinding(self), operation: body)
    }

    /// Runs the async `body` with this context as ``current`` for the current task and its
    /// child tasks.
    ///
    /// ```swift
    /// try await child.withCurrent { try await handle(request) }
    /// ```
    public func withCurrent<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async rethrows -> R {
        CurrentContext.bindings.add(1, ordering: .relaxed)
        defer { CurrentContext.bindings.subtract(1, ordering: .relaxed) }
        return try await CurrentContext.$bound.withValue(CurrentBinding(self), operation: body, isolation: isolation)
    }
}
