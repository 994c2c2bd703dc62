import Synchronization

extension Resolution {
    @TaskLocal static var activeFrame: ActiveFrame?

    /// Async closures running anywhere in the process: while none is, a top-level synchronous
    /// call need not read the task-local.
    private static let asyncCallouts = Atomic<Int>(0)

    /// The async closure frame this task is running, if any.
    static var asyncActive: ActiveFrame? {
        asyncCallouts.load(ordering: .relaxed) == 0 ? nil : activeFrame
    }

    /// Runs an async closure of `resolution` with its frame as the task's active frame.
    static func withAsyncActive<R>(_ resolution: Resolution, _ body: () async throws -> R) async throws -> R {
        resolution.willSuspend()
        asyncCallouts.add(1, ordering: .relaxed)
        defer { asyncCallouts.subtract(1, ordering: .relaxed) }
        return try await $activeFrame.withValue(ActiveFrame(resolution: resolution, depth: resolution.depth), operation: body)
    }

    /// Whether the caller runs inside a task (on the cooperative pool or an actor): a synchronous
    /// caller there must not block for work that may suspend.
    /// (Or on a thread running a deep lookup for such a caller, which blocks until it is done.)
    static var isInTask: Bool { CurrentThread.isInTask || ThreadState.current.standsInForTask }

    /// Whether a synchronous wait here holds the main actor: the caller runs on it, or on a
    /// thread running a deep lookup for it (`FreshStack`).
    static var holdsMainActor: Bool { ThreadState.current.standsInForMainActor || MainActorCall.isOnMainActor }

    /// Runs `body` in the resolution an async lookup from `requester` belongs to:
    /// - an async injection extends the resolution injecting the object;
    /// - a closure's lookup through its resolver gets a continuation (the resolver may be in use
    ///   by several child tasks at once);
    /// - a top-level call made from inside an async closure (without its resolver) is nested in
    ///   that closure's frame;
    /// - any other call starts a new resolution.
    static func runAsync<R>(from requester: AsyncRequester?, _ body: (Resolution) async throws(ContextError) -> R) async throws(ContextError) -> R {
        if let requester {
            if requester.extendsResolution { return try await body(requester.resolution) }
            let continuation = Resolution(continuing: requester.resolution, attachDepth: requester.depth, isAsync: true)
            defer { continuation.release() }
            return try await body(continuation)
        }
        if let outer = asyncActive {
            let nested = Resolution(nestedIn: outer.resolution, attachDepth: outer.depth, isAsync: true)
            defer { nested.release() }
            return try await body(nested)
        }
        return try await body(Resolution(session: .plain, isAsync: true))
    }
}

extension ThreadState {
    /// Runs the synchronous `body` of `resolution` (an async lookup's synchronous closure, or a
    /// hop to the main actor) bound to this thread, so its resolver's synchronous lookups extend
    /// `resolution` and a call from inside it is seen as nested.
    @inline(__always)
    func runningSynchronously<R, E: Error>(_ resolution: Resolution, _ body: () throws(E) -> R) throws(E) -> R {
        let outerActive = active
        let outerThread = resolution.boundThread
        active = Unretained(resolution)
        frames &+= 1
        resolution.boundThread = Unretained(self)
        defer {
            active = outerActive
            resolution.boundThread = outerThread
        }
        return try body()
    }
}

extension Resolution {
    /// The resolution of an async entry point (a start's eager singleton, a validation step)
    /// with `session`: nested in the async closure the call was made from, if any, else new.
    static func forAsyncEntry(_ session: Session, nestedIn outer: ActiveFrame?) -> Resolution {
        guard let outer else { return Resolution(session: session, isAsync: true) }
        let resolution = Resolution(nestedIn: outer.resolution, attachDepth: outer.depth, isAsync: true)
        resolution.session = session
        return resolution
    }
}
