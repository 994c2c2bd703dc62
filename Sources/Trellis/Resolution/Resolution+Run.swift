extension Resolution {
    /// The path of the lookup `requester` makes, with `key` appended; `[key]` for a top-level
    /// call.
    static func path(of requester: Requester?, appending key: String) -> [String] {
        guard let requester else { return [key] }
        return requester.resolution.with { $0.path(appending: key) }
    }

    /// Runs `body` synchronously in the resolution a lookup from `requester` belongs to, bound
    /// to the calling thread:
    /// - a closure's own lookup extends its resolution (no allocation);
    /// - a resolver used from another thread, or after its closure moved on, gets a continuation;
    /// - a top-level call made while this thread (or, in async code, this task) is running a
    ///   resolution — from a closure, `didInject`, a `deinit` — is a nested lookup;
    /// - any other top-level call uses the thread's home resolution.
    @inline(__always)
    static func run<R>(from requester: Requester?, session: Session? = nil, _ body: (Resolution, ThreadState) throws(ContextError) -> R) throws(ContextError) -> R {
        // The thread's state and a requester's resolution are used unretained: the thread's state
        // lives as long as the thread, and the requester's caller keeps its resolution alive.
        try ThreadState.currentUnretained.with { thread throws(ContextError) -> R in
            if let requester {
                return try requester.resolution.with { resolution throws(ContextError) -> R in
                    if resolution.isBound(to: thread) && resolution.depth == requester.depth {
                        return try body(resolution, thread)
                    }
                    return try thread.running(Resolution(continuing: resolution, attachDepth: requester.depth, isAsync: false), recycle: false, body)
                }
            }
            // The home resolution on a path of its own: merged with the nested cases into one
            // variable, it is retained and released around every top-level call (+54
            // instructions per prototype lookup).
            if thread.active == nil && Resolution.asyncActive == nil {
                let home = thread.home
                home.beginTopLevel()
                guard let session else { return try thread.running(home, recycle: true, body) }
                home.session = session
                defer { home.session = .plain }
                return try thread.running(home, recycle: true, body)
            }
            let resolution: Resolution
            if let outer = thread.active?.object {
                resolution = thread.nestedResolution(in: outer, at: outer.depth)
            } else {
                let frame = Resolution.asyncActive!
                resolution = thread.nestedResolution(in: frame.resolution, at: frame.depth)
            }
            if let session { resolution.session = session }
            return try thread.running(resolution, recycle: true, body)
        }
    }
}

extension ThreadState {
    /// Runs `body` with `resolution` executing synchronously on this thread; a continuation or
    /// nested resolution is unlinked afterwards.
    @inline(__always)
    func running<R>(_ resolution: Resolution, recycle: Bool, _ body: (Resolution, ThreadState) throws(ContextError) -> R) throws(ContextError) -> R {
        defer {
            if resolution !== home {
                if recycle { self.recycle(resolution) } else { resolution.release() }
            }
        }
        return try runningSynchronously(resolution) { () throws(ContextError) -> R in try body(resolution, self) }
    }
}
