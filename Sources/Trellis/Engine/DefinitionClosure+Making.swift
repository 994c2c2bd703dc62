/// How a context makes an object with a definition's closure, once the closure's `Object` is
/// known (`Creation+Construction` opens it from the definition's declared type).
extension DefinitionClosure {
    // MARK: Running the closure

    /// Runs a synchronous closure. A `ContextError` from one of its own lookups passes through
    /// unchanged (its path already says where it came from); anything else it throws becomes
    /// `creationFailed` with the path.
    @inline(__always)
    func run(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Object {
        // An async closure is not run here (it needs `await`): nor are its `dependsOn` names.
        if context.records[index].hasPrerequisites, !context.records[index].isAsync { try context.makePrerequisites(index, resolution) }
        do {
            switch self {
            case let .independent(make):
                return try make()
            case let .synchronous(make):
                return try make(Resolver(context, index, resolution))
            case let .mainActor(make):
                return try Self.runOnMainActor(make, context, index, resolution)
            case .asynchronous, .asyncIndependent, .mainActorAsync:
                throw context.requiresAwait(index, resolution)
            }
        } catch {
            throw .thrown(error, byClosureOf: context.key(at: index), path: resolution.path)
        }
    }

    /// Kept out of `run`: the optional result would make every call of this generic code ask the
    /// runtime for `Optional<Object>`'s metadata.
    @inline(never)
    private static func runOnMainActor(_ make: @escaping @MainActor @Sendable (Resolver) throws -> Object, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws -> Object {
        let resolver = Resolver(context, index, resolution)
        guard let made = try MainActorCall.ifOnMainActor({ try make(resolver) }) else {
            throw MainActorRequired(key: context.key(at: index))
        }
        return made
    }

    /// Runs the closure for an async lookup: an async closure is awaited with `resolution` as
    /// the task's active lookup; a main-actor one hops to the main actor. (A synchronous one is
    /// made before any await, by `Creation.constructWithoutAwait`, and does not come here; if it
    /// did, it would run bound to the current thread, as there.)
    func runAsync(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> Object {
        // An async closure's `dependsOn` names are looked up as its own lookups would be, with
        // `await`; a synchronous or main-actor closure's synchronously, in `run` and on the
        // main actor.
        if context.records[index].hasPrerequisites, context.records[index].isAsync {
            let resolver = Resolver(context, index, resolution)
            for name in context.configuration.definitions[index].prerequisiteNames {
                _ = try await resolver.object(name, as: Any.self)
            }
        }
        do {
            switch self {
            case let .asyncIndependent(make):
                return try await Resolution.withAsyncActive(resolution) { try await make() }
            case let .asynchronous(make):
                let resolver = Resolver(context, index, resolution)
                return try await Resolution.withAsyncActive(resolution) { try await make(resolver) }
            case .independent, .synchronous:
                return try ThreadState.current.runningSynchronously(resolution) { () throws(ContextError) in try run(context, index, resolution) }
            case let .mainActor(make):
                return try await Self.hopToMainActor(make, context, index, resolution)
            case let .mainActorAsync(make):
                // Until it returns, the closure needs the main actor to go on: a synchronous
                // lookup there must not wait for this making (`CreationPhase.waitsForTheMainActor`).
                resolution.setAwaitsMainActor(for: (context, index))
                defer { resolution.setAwaitsMainActor(for: nil) }
                let resolver = Resolver(context, index, resolution)
                let result = UncheckedResult<Object>()
                // Calling a main-actor closure from here hops to the main actor, and back after.
                let onMainActor: @MainActor @Sendable () async throws -> Void = { result.value = try await make(resolver) }
                try await Resolution.withAsyncActive(resolution) { try await onMainActor() }
                return result.value!
            }
        } catch {
            throw .thrown(error, byClosureOf: context.key(at: index), path: resolution.path)
        }
    }

    /// Runs a main-actor closure for an async lookup. A hop to the main actor is work on another
    /// executor, not on the task pool: a synchronous caller off the main actor may wait for it;
    /// one on the main actor may not (the hop is queued behind it), which `awaitsMainActor`
    /// tells it.
    private static func hopToMainActor(_ make: @escaping @MainActor @Sendable (Resolver) throws -> Object, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws -> Object {
        resolution.setAwaitsMainActor(for: (context, index))
        defer { resolution.setAwaitsMainActor(for: nil) }
        let resolver = Resolver(context, index, resolution)
        let result = UncheckedResult<Object>()
        // Called from here, a main-actor closure hops only when the caller is elsewhere.
        let onMainActor: @MainActor @Sendable () throws -> Void = {
            try ThreadState.current.runningSynchronously(resolution) { () throws(ContextError) in
                if context.records[index].hasPrerequisites { try context.makePrerequisites(index, resolution) }
                do throws(any Error) { result.value = try make(resolver) } catch {
                    throw .thrown(error, byClosureOf: context.key(at: index), path: resolution.path)
                }
            }
        }
        try await onMainActor()
        return result.value!
    }

    // MARK: Synchronous

    /// Makes and injects an object of definition `index` of `context` into `result`,
    /// uninitialised memory for an `Object`.
    func make(into result: ValueSlot, isClassType: Bool, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) {
        result.initialize(as: Object.self, to: try run(context, index, resolution))
        do {
            try ObjectInjection.injectMade(at: result, as: Object.self, isClass: isClassType, index, of: context, resolution)
        } catch {
            result.deinitialize(as: Object.self)
            throw error
        }
    }

    /// Makes and injects an object, returned as `Any` (lookups whose type is not `Object`).
    func makeAny(isClassType: Bool, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
        let object = ValueSlot.allocate(for: Object.self)
        defer { object.deallocate() }
        object.initialize(as: Object.self, to: try run(context, index, resolution))
        do {
            try ObjectInjection.injectMade(at: object, as: Object.self, isClass: isClassType, index, of: context, resolution)
        } catch {
            object.deinitialize(as: Object.self)
            throw error
        }
        return object.move(as: Object.self)
    }
}

/// Carries a main-actor closure's result back to the async lookup that hopped there.
private final class UncheckedResult<Value>: @unchecked Sendable {
    // Safe: written on the main actor (by a main-actor closure the caller awaits, sync or async
    // ), read by the caller after that call returned, which orders the two.
    var value: Value?
}
