import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

private final class AwaitConfig: Sendable {}

private final class AwaitPool: Sendable {
    let config: AwaitConfig
    init(config: AwaitConfig) { self.config = config }
}

private final class AwaitRepository: Sendable {
    let pool: AwaitPool
    init(pool: AwaitPool) { self.pool = pool }
}

private protocol AwaitService: AnyObject, Sendable {}
private final class AwaitServiceImpl: AwaitService {}

private final class AwaitScreen: @unchecked Sendable {
    // Safe: only touched by the test's task, after injection.
    @Inject var pool: AwaitPool
    @Inject var config: AwaitConfig
}

private final class AwaitLazyScreen: @unchecked Sendable {
    // Safe: only touched by the test's task.
    @Inject(.lazy) var pool: AwaitPool
}

/// A synchronous helper, so that Swift picks the synchronous `get()`.
private func readSynchronously(_ screen: AwaitLazyScreen) throws(ContextError) -> AwaitPool {
    try screen.$pool.get()
}

private struct AwaitFactory: ObjectFactory {
    var contextName: String { "Await" }

    var definitions: Definitions {
        createSingleton("config") { () async -> AwaitConfig in
            await Task.yield()
            return AwaitConfig()
        }
        createSingleton("pool") { r async throws -> AwaitPool in AwaitPool(config: try await r.object("config")) }
        createSingleton("repository") { r in AwaitRepository(pool: try r.object("pool")) }
        createPrototype("report") { r async throws -> AwaitRepository in AwaitRepository(pool: try await r.object("pool")) }
        createSingleton("leaf") { AwaitConfig() }
    }
}

/// Made only when the test opens `gate`, after `entered` opened.
private struct SlowAsyncFactory: ObjectFactory {
    let entered = AsyncGate()
    let gate = AsyncGate()
    let runs = ConcurrencyCounter()

    var definitions: Definitions {
        createSingleton("slow") { [entered, gate, runs] () async -> AwaitConfig in
            runs.increment()
            entered.open()
            await gate.wait()
            return AwaitConfig()
        }
    }
}

/// A synchronous singleton whose property is the async `slow`: an awaited lookup of `holder`
/// suspends while injecting it.
private final class SlowHolder: @unchecked Sendable {
    @Inject var slow: AwaitConfig
}

private struct SuspendedHolderFactory: ObjectFactory {
    let slow = SlowAsyncFactory()

    var definitions: Definitions {
        slow.definitions
        createSingleton("holder") { SlowHolder() }
    }
}

private struct AsyncEagerFactory: ObjectFactory {
    let made = Guarded<[String]>([])

    var definitions: Definitions {
        createEagerSingleton("first") { [made] in
            made.withLock { $0.append("first") }
            return AwaitConfig()
        }
        createEagerSingleton("second") { [made] () async -> AwaitConfig in
            made.withLock { $0.append("second") }
            return AwaitConfig()
        }
        createEagerSingleton("third") { [made] in
            made.withLock { $0.append("third") }
            return AwaitConfig()
        }
        createEagerSingleton("fourth") { [made] () async -> AwaitConfig in
            made.withLock { $0.append("fourth") }
            return AwaitConfig()
        }
    }
}

private struct EmptyDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("first") { AwaitConfig() }
    }
}

/// Objects by type: `alpha` and `beta` are async and declared as `Any`, so finding out whether
/// they are services means making them.
private struct AwaitTypedFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("plain") { AwaitServiceImpl() as any AwaitService }
        createPrototype("alpha") { () async -> Any in AwaitServiceImpl() }
        createSingleton("beta") { () async -> Any in AwaitServiceImpl() }
    }
}

private struct AwaitTypedSingletonsFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("plain") { AwaitServiceImpl() as any AwaitService }
        createSingleton("beta") { () async -> Any in AwaitServiceImpl() }
        createSingleton("gamma") { () async -> Any in AwaitServiceImpl() }
    }
}

/// `a` (async) awaits `b`, whose synchronous closure asks for `a`: a cycle that also crosses
/// from sync to async. `eagerA` and `eagerB` are the same, started eagerly.
private struct MixedCycleFactory: ObjectFactory {
    let eager: Bool

    var definitions: Definitions {
        createSingleton("a") { r async throws -> AwaitPool in AwaitPool(config: try await r.object("b")) }
        createSingleton("b") { r in
            _ = try r.object("a", as: AwaitPool.self)
            return AwaitConfig()
        }
        if eager {
            createEagerSingleton("eagerA") { r async throws -> AwaitPool in AwaitPool(config: try await r.object("eagerB")) }
            createSingleton("eagerB") { r in
                _ = try r.object("eagerA", as: AwaitPool.self)
                return AwaitConfig()
            }
        }
    }
}

/// The message of a `requiresAwait` names the key and both fixes.
private func expectNamesKeyAndBothFixes(_ error: ContextError, key: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let message = error.description
    #expect(message.contains("'\(key)'"), "the key: \(message)", sourceLocation: sourceLocation)
    #expect(message.contains("try await"), "the first fix, an awaited lookup: \(message)", sourceLocation: sourceLocation)
    #expect(message.contains("eager"), "the second fix, an eager singleton: \(message)", sourceLocation: sourceLocation)
    #expect(message.contains("ApplicationContext("), "the second fix, an awaited start: \(message)", sourceLocation: sourceLocation)
}

// MARK: - Tests

/// A handler whose first property is async (its lookup suspends) and whose second is a
/// synchronous singleton that holds until the test has asked for it.
private final class SuspendingHandler: @unchecked Sendable {
    // Unchecked: written by the injecting context before the object is handed out.
    @Inject var queue: AwaitConfig
    @Inject var worker: AwaitPool
}

private struct AfterSuspensionFactory: ObjectFactory {
    let entered = ConcurrencyLatch(count: 1)
    let asked = ConcurrencyLatch(count: 1)
    var definitions: Definitions {
        createSingleton("queue") { () async -> AwaitConfig in
            await Task.yield()
            return AwaitConfig()
        }
        createSingleton("worker") { [entered, asked] () -> AwaitPool in
            entered.countDown()
            asked.wait()
            // Bounded: time for the other lookup to reach the worker, made here, and decide.
            for _ in 0..<3_000_000 where !Task.isCancelled {}
            return AwaitPool(config: AwaitConfig())
        }
        createPrototype("handler") { SuspendingHandler() }
    }
}

@Suite struct RequiresAwaitTests {
    @Test func synchronousLookupOfAnUnmadeAsyncSingletonRequiresAwait() throws {
        let context = try ApplicationContext(AwaitFactory())
        let error = try #require(syncError { try context.object("pool", as: AwaitPool.self) })
        let found = try #require(error.requiresAwaitKeyAndPath)
        #expect(found.key == "pool")
        #expect(found.path == ["pool"])
        expectNamesKeyAndBothFixes(error, key: "pool")
    }

    @Test func synchronousLookupByAliasNamesTheKey() throws {
        let context = try ApplicationContext(AwaitFactory())
        let error = try #require(syncError { try context.object("POOL", as: AwaitPool.self) })
        #expect(error.requiresAwaitKeyAndPath?.key == "pool")
    }

    @Test func synchronousLookupOfAnAsyncPrototypeAlwaysRequiresAwait() async throws {
        let context = try await ApplicationContext(AwaitFactory())
        let made: AwaitRepository = try await context.object("report")
        _ = made
        let error = try #require(syncError { try Sync.object(context, "report", as: AwaitRepository.self) })
        #expect(error.requiresAwaitKeyAndPath?.key == "report")
        expectNamesKeyAndBothFixes(error, key: "report")
    }

    @Test func synchronousResolverLookupInASynchronousClosureRequiresAwaitWithThePath() throws {
        let context = try ApplicationContext(AwaitFactory())
        let error = try #require(syncError { try context.object("repository", as: AwaitRepository.self) })
        let found = try #require(error.requiresAwaitKeyAndPath)
        #expect(found.key == "pool")
        #expect(found.path == ["repository", "pool"])
        #expect(error.description.contains("repository → pool"))
        expectNamesKeyAndBothFixes(error, key: "pool")
    }

    @Test func synchronousClosureReachedByAnAsyncLookupStillRequiresAwaitForUnmadeAsyncDefinitions() async throws {
        let context = try await ApplicationContext(AwaitFactory())
        // The async lookup cannot lend its `await` to the synchronous closure of "repository".
        let error = try #require(await asyncError { try await context.object("repository", as: AwaitRepository.self) })
        let found = try #require(error.requiresAwaitKeyAndPath)
        #expect(found.key == "pool")
        #expect(found.path == ["repository", "pool"])
        // Nothing was cached: once "pool" is made, the synchronous closure gets it.
        let pool: AwaitPool = try await context.object("pool")
        #expect(try Sync.object(context, "repository", as: AwaitRepository.self).pool === pool)
    }

    @Test func madeAsyncSingletonsAreReturnedToSynchronousLookupsAndClosures() async throws {
        let context = try await ApplicationContext(AwaitFactory())
        let pool: AwaitPool = try await context.object("pool")
        #expect(try Sync.object(context, "pool", as: AwaitPool.self) === pool)
        #expect(try Sync.object(context, "repository", as: AwaitRepository.self).pool === pool)
    }

    @Test func synchronousLookupNeverWaitsForAnAsyncSingletonAnotherTaskIsMaking() async throws {
        let factory = SlowAsyncFactory()
        let context = try await ApplicationContext(factory)
        let maker = Task { try await context.object("slow", as: AwaitConfig.self) }
        await factory.entered.wait()
        // "slow" is being made right now: a synchronous caller gets requiresAwait, it does not wait.
        let error = try #require(syncError { try Sync.object(context, "slow", as: AwaitConfig.self) })
        #expect(error.requiresAwaitKeyAndPath?.key == "slow")
        // Also from a plain thread, outside any task.
        let fromThread = Guarded<ContextError?>(nil)
        let finished = AsyncGate()
        _ = ConcurrencyThreads.start(1) { _ in
            let error = syncError { try Sync.object(context, "slow", as: AwaitConfig.self) }
            fromThread.withLock { $0 = error }
            finished.open()
        }
        _ = await AsyncHangGuard.run("a synchronous lookup on a thread") { await finished.wait() }
        #expect(fromThread.value?.requiresAwaitKeyAndPath?.key == "slow")
        factory.gate.open()
        let made = try await maker.value
        #expect(try Sync.object(context, "slow", as: AwaitConfig.self) === made)
        #expect(factory.runs.value == 1)
    }

    @Test func synchronousLookupOnAThreadNeverBlocksForAMakingThatHasSuspended() async throws {
        // Docs/Async.md, "What suspends and what blocks": outside any task too. Blocking there
        // would hang a serial queue whose work the suspended making waits for.
        let factory = SuspendedHolderFactory()
        let context = try await ApplicationContext(factory)
        let maker = Task { try await context.object("holder", as: SlowHolder.self) }
        await factory.slow.entered.wait()
        let fromThread = Guarded<ContextError?>(nil)
        let finished = AsyncGate()
        _ = ConcurrencyThreads.start(1) { _ in
            let error = syncError { try Sync.object(context, "holder", as: SlowHolder.self) }
            fromThread.withLock { $0 = error }
            finished.open()
        }
        // The gate opens only after the thread returned: a thread that waits for the making hangs.
        _ = await AsyncHangGuard.run("a synchronous lookup on a thread") { await finished.wait() }
        #expect(fromThread.value?.requiresAwaitKeyAndPath?.key == "holder")
        factory.slow.gate.open()
        let holder = try await maker.value
        #expect(try Sync.object(context, "holder", as: SlowHolder.self) === holder)
    }

    @Test func synchronousLookupInATaskWaitsForASynchronousSingletonBegunAfterTheMakerLastSuspended() async throws {
        // Docs/Async.md: the handler's lookup suspended for its async property, but the worker's
        // making began after and cannot suspend: a synchronous lookup of it waits, it does not
        // throw requiresAwait.
        for round in 1...5 {
            let factory = AfterSuspensionFactory()
            let context = try await ApplicationContext(factory)
            let handler = Task { try await context.object("handler", as: SuspendingHandler.self) }
            try #require(await opensInTime(factory.entered), "round \(round)")
            let other = Task { () -> ContextError? in
                factory.asked.countDown()
                return thrownContextError { () throws(ContextError) in _ = try Sync.object(context, "worker", as: AwaitPool.self) }
            }
            let error = await finishesInTime { await other.value }
            #expect(error == .some(nil), "round \(round): \(String(describing: error))")
            let made = try await handler.value
            #expect(try Sync.object(context, "worker", as: AwaitPool.self) === made.worker)
        }
    }

    // MARK: By type

    @Test func synchronousObjectOfTypeNamesTheFirstAsyncDefinitionInDeclarationOrder() throws {
        let context = try ApplicationContext(AwaitTypedFactory())
        let error = try #require(syncError { try context.object(of: (any AwaitService).self) })
        #expect(error.requiresAwaitKeyAndPath?.key == "alpha")
        expectNamesKeyAndBothFixes(error, key: "alpha")
        let singletons = try ApplicationContext(AwaitTypedSingletonsFactory())
        let other = try #require(syncError { try singletons.object(of: (any AwaitService).self) })
        #expect(other.requiresAwaitKeyAndPath?.key == "beta")
    }

    @Test func synchronousObjectsOfTypeNamesTheFirstAsyncDefinitionInDeclarationOrder() throws {
        let context = try ApplicationContext(AwaitTypedFactory())
        let error = try #require(syncError { try context.objects(of: (any AwaitService).self) })
        #expect(error.requiresAwaitKeyAndPath?.key == "alpha")
        let singletons = try ApplicationContext(AwaitTypedSingletonsFactory())
        let other = try #require(syncError { try singletons.objects(of: (any AwaitService).self) })
        #expect(other.requiresAwaitKeyAndPath?.key == "beta")
    }

    @Test func synchronousObjectsOfTypeWorksOnceTheAsyncSingletonsAreMade() async throws {
        let context = try await ApplicationContext(AwaitTypedSingletonsFactory())
        let found: [any AwaitService] = try await context.objects(of: (any AwaitService).self)
        #expect(found.count == 3)
        let again = try Sync.objects(of: (any AwaitService).self, in: context)
        #expect(again.count == 3)
        #expect(zip(found, again).allSatisfy { $0 === $1 })
    }

    // MARK: inject(into:)

    @Test func synchronousInjectIntoRequiresAwaitForAnUnmadeAsyncDefinition() async throws {
        let context = try await ApplicationContext(AwaitFactory())
        let screen = AwaitScreen()
        let error = try #require(syncError { try Sync.inject(context, into: screen) })
        let found = try #require(error.requiresAwaitKeyAndPath)
        #expect(found.key == "pool")
        expectNamesKeyAndBothFixes(error, key: "pool")
        // The property stays pending: the async form fills it.
        try await context.inject(into: screen)
        #expect(screen.pool === (try await context.object("pool", as: AwaitPool.self)))
        #expect(screen.config === screen.pool.config)
    }

    // MARK: Lazy properties

    @Test func synchronousReadOfALazyPropertyNamingAnUnmadeAsyncDefinitionRequiresAwait() async throws {
        let context = try await ApplicationContext(AwaitFactory())
        let screen = AwaitLazyScreen()
        try await context.inject(into: screen)
        let error = try #require(syncError { try readSynchronously(screen) })
        #expect(error.requiresAwaitKeyAndPath?.key == "pool", "\(error)")
        // The async read awaits it, and the property keeps it.
        let pool: AwaitPool = try await screen.$pool.get()
        #expect(pool === (try await context.object("pool", as: AwaitPool.self)))
        #expect(try readSynchronously(screen) === pool)
    }

    // MARK: The synchronous init

    @Test func synchronousInitOfAFactoryWithAsyncEagerSingletonsThrowsBeforeMakingAnything() throws {
        let factory = AsyncEagerFactory()
        let error = try #require(syncError { try ApplicationContext(factory) })
        let found = try #require(error.requiresAwaitKeyAndPath)
        #expect(found.key == "second")
        #expect(found.path == ["second"])
        expectNamesKeyAndBothFixes(error, key: "second")
        // "first", a synchronous eager singleton declared before it, was not made either.
        #expect(factory.made.value == [])
    }

    @Test func everySynchronousInitChecksForAsyncEagerSingletonsFirst() throws {
        let factory = AsyncEagerFactory()
        let overriding = try #require(syncError { try ApplicationContext(factory, overriding: EmptyDoubles()) })
        #expect(overriding.requiresAwaitKeyAndPath?.key == "second")
        let configured = try #require(syncError { try ApplicationContext(configurator: ConfiguratorFromFactory(factory)) })
        #expect(configured.requiresAwaitKeyAndPath?.key == "second")
        #expect(factory.made.value == [])
    }

    @Test func asyncInitOfTheSameFactoryStartsIt() async throws {
        let factory = AsyncEagerFactory()
        _ = try await ApplicationContext(factory)
        let made = factory.made.value
        #expect(made.sorted() == ["first", "fourth", "second", "third"])
        // The async eager singletons first (concurrently), then the synchronous ones in order.
        #expect(Set(made.prefix(2)) == ["second", "fourth"])
        #expect(made.suffix(2) == ["first", "third"])
    }

    // MARK: Cycles win

    @Test func cycleCrossingFromSyncToAsyncIsCircularDependencyAtALookup() async throws {
        let context = try await ApplicationContext(MixedCycleFactory(eager: false))
        let error = try #require(await asyncError { try await context.object("a", as: AwaitPool.self) })
        #expect(error.cyclePath == ["a", "b", "a"], "expected circularDependency, got \(error)")
    }

    @Test func cycleCrossingFromSyncToAsyncIsCircularDependencyAtAnAsyncStart() async throws {
        for _ in 0..<20 {
            let error = try #require(await asyncError { try await ApplicationContext(MixedCycleFactory(eager: true)) })
            #expect(error.cyclePath == ["eagerA", "eagerB", "eagerA"], "expected circularDependency, got \(error)")
        }
    }

    // MARK: validate

    @Test func synchronousValidateReportsEachAsyncDefinitionItCouldNotMake() throws {
        let report = Sync.validate(AwaitFactory())
        let keys = report.problems.compactMap { $0.requiresAwaitKeyAndPath?.key }
        // config, pool and report are async; repository meets the async pool.
        #expect(Set(keys) == ["config", "pool", "report"])
        #expect(report.problems.allSatisfy { $0.requiresAwaitKeyAndPath != nil })
        let eager = Sync.validate(AsyncEagerFactory())
        #expect(Set(eager.problems.compactMap { $0.requiresAwaitKeyAndPath?.key }) == ["second", "fourth"])
    }
}
