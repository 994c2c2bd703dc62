import Synchronization

extension ApplicationContext {
    /// The context objects made with their plain `init` resolve their `@Inject` properties from:
    /// the innermost ``withCurrent(_:)`` binding of this task, else the process-wide default
    /// set with ``setDefault(_:)``, else `nil`.
    ///
    /// Task-local: child tasks inherit the binding, detached tasks and other tasks do not, so
    /// tests running in parallel each see their own.
    public static var current: ApplicationContext? {
        CurrentContext.$bound.get() ?? CurrentContext.defaultContext.withLock { $0 }
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
        defer { CurrentContext.bindings.subtract(1, ordering: .relaxed) }
        return try CurrentContext.$bound.withValue(self, operation: body)
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
        return try await CurrentContext.$bound.withValue(self, operation: body, isolation: isolation)
    }
}

/// The storage behind `ApplicationContext.current`.
enum CurrentContext {
    @TaskLocal static var bound: ApplicationContext?
    static let defaultContext = Locked<ApplicationContext?>(nil)
    /// Whether a default is set: `@Inject` initialisers read it before anything else.
    static let hasDefault = Atomic<Bool>(false)
    /// `withCurrent` scopes running anywhere in the process.
    static let bindings = Atomic<Int>(0)
    /// Counts `setDefault` calls, so a thread may cache the default it read (`ThreadState`).
    /// Starts at 1, which no thread's cache starts at.
    static let generation = Atomic<Int>(1)

    /// Whether a current context can exist at all: one relaxed load each, so a process that never
    /// binds one pays (almost) nothing when `@Inject` wrappers are made.
    @inline(__always)
    static var mayBeSet: Bool {
        hasDefault.load(ordering: .relaxed) || bindings.load(ordering: .relaxed) != 0
    }
}
