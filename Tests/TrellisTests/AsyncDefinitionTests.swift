import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

private final class AsyncConfig: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private final class AsyncPool: Sendable {
    let config: AsyncConfig
    init(config: AsyncConfig) { self.config = config }
}

private final class AsyncReport: Sendable {
    let pool: AsyncPool
    init(pool: AsyncPool) { self.pool = pool }
}

private final class AsyncLeaf: Sendable {}

private protocol AsyncService: AnyObject, Sendable {
    var label: String { get }
}

private final class AsyncServiceImpl: AsyncService {
    let label: String
    init(_ label: String) { self.label = label }
}

private struct AsyncFailure: Error, Equatable {
    let reason: String
}

/// Loads asynchronously: the continuation may come back on another thread.
private func loaded<T>(_ make: @Sendable () -> T) async -> T {
    await Task.yield()
    return make()
}

/// Every async definition form: with and without `Resolver`, in the three families. Counts how
/// often each closure ran.
private struct AsyncFormsFactory: ObjectFactory {
    let runs = Guarded<[String: Int]>([:])

    func ran(_ key: String) { runs.withLock { $0[key, default: 0] += 1 } }

    var contextName: String { "AsyncForms" }

    var definitions: Definitions {
        createSingleton("config") { [self] () async throws -> AsyncConfig in
            ran("config")
            return await loaded { AsyncConfig("lazy") }
        }
        createSingleton("pool") { [self] r async throws -> AsyncPool in
            ran("pool")
            return AsyncPool(config: try await r.object("config"))
        }
        createEagerSingleton("eagerConfig") { [self] () async throws -> AsyncConfig in
            ran("eagerConfig")
            return await loaded { AsyncConfig("eager") }
        }
        createEagerSingleton("eagerPool") { [self] r async throws -> AsyncPool in
            ran("eagerPool")
            return AsyncPool(config: try await r.object("eagerConfig"))
        }
        createPrototype("leaf") { [self] () async throws -> AsyncLeaf in
            ran("leaf")
            return await loaded { AsyncLeaf() }
        }
        createPrototype("report") { [self] r async throws -> AsyncReport in
            ran("report")
            return AsyncReport(pool: try await r.object("pool"))
        }
        .aliases("statement")
        createSingleton("syncLeaf") { AsyncLeaf() }
    }
}

/// A closure that contains `await` is async without saying so: the definitions compile as they
/// read in Docs/Async.md.
private struct InferredAsyncFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("config") { await loaded { AsyncConfig("inferred") } }
        createSingleton("pool") { r in AsyncPool(config: try await r.object("config")) }
        createPrototype("report") { r in AsyncReport(pool: try await r.object("pool")) }
    }
}

private struct FailingAsyncFactory: ObjectFactory {
    let attempts = ConcurrencyCounter()

    var definitions: Definitions {
        createSingleton("flaky") { [attempts] () async throws -> AsyncLeaf in
            attempts.increment()
            await Task.yield()
            if attempts.value == 1 { throw AsyncFailure(reason: "first attempt") }
            return AsyncLeaf()
        }
        createSingleton("missing") { r async throws -> AsyncPool in AsyncPool(config: try await r.object("nowhere")) }
        createSingleton("wrongType") { r async throws -> AsyncPool in AsyncPool(config: try await r.object("leaf")) }
        createSingleton("leaf") { AsyncLeaf() }
    }
}

private struct AsyncParentFactory: ObjectFactory {
    var contextName: String { "Parent" }

    var definitions: Definitions {
        createSingleton("config") { () async -> AsyncConfig in await loaded { AsyncConfig("parent") } }
        createSingleton("pool") { r async throws -> AsyncPool in AsyncPool(config: try await r.object("config")) }
        createSingleton("service") { () async -> any AsyncService in AsyncServiceImpl("parent") }
    }
}

private struct AsyncChildFactory: ObjectFactory {
    var contextName: String { "Child" }

    var definitions: Definitions {
        // Shadows the parent's config: the parent's pool must still get the parent's config.
        createSingleton("config") { () async -> AsyncConfig in AsyncConfig("child") }
        createEagerSingleton("report") { r async throws -> AsyncReport in AsyncReport(pool: try await r.object("pool")) }
        createSingleton("service") { () async -> any AsyncService in AsyncServiceImpl("child") }
    }
}

private struct AsyncDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("eagerConfig") { () async -> AsyncConfig in AsyncConfig("double") }
        createSingleton("config") { AsyncConfig("synchronous double") }
    }
}

private struct UnknownDouble: ObjectFactory {
    var definitions: Definitions {
        createSingleton("noSuchKey") { () async -> AsyncConfig in AsyncConfig("double") }
    }
}

// By type: declared types that say nothing (`Any`) make the context make the object to look.
private struct AsyncTypedFactory: ObjectFactory {
    var contextName: String { "Typed" }

    var definitions: Definitions {
        createSingleton("declared") { () async -> any AsyncService in AsyncServiceImpl("declared") }
        createSingleton("hidden") { () async -> Any in AsyncServiceImpl("hidden") }
        createPrototype("fresh") { () async -> Any in AsyncServiceImpl("fresh") }
        createSingleton("other") { () async -> Any in AsyncLeaf() }
    }
}

private struct AsyncOneServiceFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("hidden") { () async -> Any in AsyncServiceImpl("hidden") }
        createSingleton("leaf") { AsyncLeaf() }
    }
}

private final class AsyncInjected: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out, read afterwards.
    @Inject var pool: AsyncPool
    @Inject("leaf") var leaf: AsyncLeaf
    @Inject var statement: AsyncReport
    @Inject var absent: AsyncLeaf?
}

private final class AsyncUnresolved: @unchecked Sendable {
    // Safe: only touched by the test's task.
    @Inject var nowhere: AsyncLeaf
}

/// A synchronous singleton whose properties name async definitions: an async lookup of it
/// fills them by async lookups.
private struct AsyncInjectFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("config") { () async -> AsyncConfig in AsyncConfig("injected") }
        createSingleton("pool") { r async throws -> AsyncPool in AsyncPool(config: try await r.object("config")) }
        createPrototype("leaf") { () async -> AsyncLeaf in AsyncLeaf() }
        createPrototype("report") { r async throws -> AsyncReport in AsyncReport(pool: try await r.object("pool")) }
        .aliases("statement")
        createSingleton("screen") { AsyncInjected() }
        createPrototype("screenPrototype") { AsyncInjected() }
    }
}

// MARK: - Tests

@Suite struct AsyncDefinitionTests {
    // MARK: The three families, with and without a resolver

    @Test func asyncLazySingletonsWithAndWithoutResolverAreMadeOnceByAsyncLookups() async throws {
        let factory = AsyncFormsFactory()
        let context = try await ApplicationContext(factory)
        let pool: AsyncPool = try await context.object("pool")
        let again: AsyncPool = try await context.object("pool")
        let config: AsyncConfig = try await context.object("config")
        #expect(pool === again)
        #expect(pool.config === config)
        #expect(config.name == "lazy")
        #expect(factory.runs.value["pool"] == 1)
        #expect(factory.runs.value["config"] == 1)
    }

    @Test func asyncEagerSingletonsWithAndWithoutResolverAreMadeByTheAsyncInit() async throws {
        let factory = AsyncFormsFactory()
        let context = try await ApplicationContext(factory)
        // Made at start, before any lookup; lazy ones are not.
        #expect(factory.runs.value["eagerConfig"] == 1)
        #expect(factory.runs.value["eagerPool"] == 1)
        #expect(factory.runs.value["config"] == nil)
        #expect(factory.runs.value["pool"] == nil)
        let pool: AsyncPool = try await context.object("eagerPool")
        #expect(pool.config === (try await context.object("eagerConfig", as: AsyncConfig.self)))
        #expect(pool.config.name == "eager")
        #expect(Set(context.startupReport.entries.map(\.key)).isSuperset(of: ["eagerPool"]))
        #expect(factory.runs.value["eagerPool"] == 1)
    }

    @Test func asyncPrototypesWithAndWithoutResolverAreNewOnEveryAsyncLookup() async throws {
        let factory = AsyncFormsFactory()
        let context = try await ApplicationContext(factory)
        let first: AsyncLeaf = try await context.object("leaf")
        let second: AsyncLeaf = try await context.object("leaf")
        #expect(first !== second)
        let report1: AsyncReport = try await context.object("report")
        let report2: AsyncReport = try await context.object("statement")
        #expect(report1 !== report2)
        #expect(report1.pool === report2.pool)
        #expect(factory.runs.value["leaf"] == 2)
        #expect(factory.runs.value["report"] == 2)
        #expect(factory.runs.value["pool"] == 1)
    }

    @Test func closuresContainingAwaitAreAsyncDefinitions() async throws {
        let context = try await ApplicationContext(InferredAsyncFactory())
        let report: AsyncReport = try await context.object("report")
        #expect(report.pool.config.name == "inferred")
        #expect(report.pool === (try await context.object("pool", as: AsyncPool.self)))
    }

    @Test func madeAsyncSingletonIsReturnedBySynchronousLookups() async throws {
        let context = try await ApplicationContext(AsyncFormsFactory())
        let pool: AsyncPool = try await context.object("pool")
        #expect(try Sync.object(context, "pool", as: AsyncPool.self) === pool)
        #expect(try Sync.object(context, "config", as: AsyncConfig.self) === pool.config)
        // Eager async singletons are made by the start: synchronous lookups have them at once.
        #expect(try Sync.object(context, "eagerPool", as: AsyncPool.self).config.name == "eager")
        #expect(try Sync.object(context, "EAGERPOOL", as: AsyncPool.self) === (try await context.object("eagerPool", as: AsyncPool.self)))
    }

    // MARK: The async lookup does what the synchronous one does

    @Test func asyncLookupFindsAliasesAndDefaultAliasesAndSynchronousDefinitions() async throws {
        let context = try await ApplicationContext(AsyncFormsFactory())
        let syncLeaf: AsyncLeaf = try await context.object("syncLeaf")
        #expect(syncLeaf === (try await context.object("SYNCLEAF", as: AsyncLeaf.self)))
        let optional: AsyncLeaf? = try await context.object("syncLeaf")
        #expect(optional === syncLeaf)
        let pool: AsyncPool? = try await context.object("pool")
        #expect(pool != nil)
    }

    @Test func asyncLookupOfAnUnknownKeyIsNoSuchObjectNamingTheContextsSearched() async throws {
        let parent = try await ApplicationContext(AsyncParentFactory())
        let child = try await ApplicationContext(AsyncChildFactory(), parent: parent)
        let error = try #require(await asyncError { try await child.object("nothing", as: AsyncLeaf.self) })
        guard case let .noSuchObject(key, searched, path) = error else {
            Issue.record("expected noSuchObject, got \(error)")
            return
        }
        #expect(key == "nothing")
        #expect(searched == ["Child", "Parent"])
        #expect(path == ["nothing"])
    }

    @Test func asyncLookupOfTheWrongTypeIsTypeMismatch() async throws {
        let context = try await ApplicationContext(AsyncFormsFactory())
        let error = try #require(await asyncError { try await context.object("pool", as: AsyncLeaf.self) })
        guard case let .typeMismatch(key, expected, actual, _) = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(key == "pool")
        #expect(expected.contains("AsyncLeaf"))
        #expect(actual.contains("AsyncPool"))
    }

    @Test func asyncClosureFailuresAreCreationFailedAndNothingIsCached() async throws {
        let factory = FailingAsyncFactory()
        let context = try await ApplicationContext(factory)
        let error = try #require(await asyncError { try await context.object("flaky", as: AsyncLeaf.self) })
        let failure = try #require(error.creationFailure)
        #expect(failure.key == "flaky")
        #expect(failure.path == ["flaky"])
        #expect(failure.underlying as? AsyncFailure == AsyncFailure(reason: "first attempt"))
        // Nothing was cached: the next lookup tries again, and succeeds.
        let leaf: AsyncLeaf = try await context.object("flaky")
        #expect(leaf === (try await context.object("flaky", as: AsyncLeaf.self)))
        #expect(factory.attempts.value == 2)
    }

    @Test func errorsOfAsyncClosureLookupsPassThroughUnwrappedWithTheirPath() async throws {
        let context = try await ApplicationContext(FailingAsyncFactory())
        let missing = try #require(await asyncError { try await context.object("missing", as: AsyncPool.self) })
        guard case let .noSuchObject(key, _, path) = missing else {
            Issue.record("expected noSuchObject, got \(missing)")
            return
        }
        #expect(key == "nowhere")
        #expect(path == ["missing", "nowhere"])
        let wrong = try #require(await asyncError { try await context.object("wrongType", as: AsyncPool.self) })
        guard case let .typeMismatch(key, _, _, path) = wrong else {
            Issue.record("expected typeMismatch, got \(wrong)")
            return
        }
        #expect(key == "leaf")
        #expect(path == ["wrongType", "leaf"])
    }

    // MARK: The three async initialisers

    @Test func asyncInitWithAParentResolvesInTheOwningContext() async throws {
        let parent = try await ApplicationContext(AsyncParentFactory())
        let child = try await ApplicationContext(AsyncChildFactory(), parent: parent)
        let report: AsyncReport = try await child.object("report")
        // The child's eager report got the parent's pool, whose config is the parent's, not the
        // child's that shadows it.
        #expect(report.pool.config.name == "parent")
        #expect(report.pool === (try await parent.object("pool", as: AsyncPool.self)))
        #expect(try await child.object("config", as: AsyncConfig.self).name == "child")
        #expect(child.startupReport.entries.map(\.key) == ["report"])
    }

    @Test func asyncInitWithOverridesReplacesAsyncDefinitionsWithDoubles() async throws {
        let context = try await ApplicationContext(AsyncFormsFactory(), overriding: AsyncDoubles())
        // The async eager "eagerConfig" became a lazy double; "eagerPool" still starts with it.
        #expect(try await context.object("eagerPool", as: AsyncPool.self).config.name == "double")
        // An async definition overridden by a synchronous double is looked up synchronously.
        #expect(try Sync.object(context, "config", as: AsyncConfig.self).name == "synchronous double")
        #expect(try await context.object("pool", as: AsyncPool.self).config.name == "synchronous double")
    }

    @Test func asyncInitWithOverridesRejectsUnknownKeys() async throws {
        let error = try #require(await asyncError { try await ApplicationContext(AsyncFormsFactory(), overriding: UnknownDouble()) })
        guard case let .overrideOfUnknownKey(key, _, _) = error else {
            Issue.record("expected overrideOfUnknownKey, got \(error)")
            return
        }
        #expect(key == "noSuchKey")
    }

    @Test func asyncInitFromAConfiguratorStartsItsAsyncEagerSingletons() async throws {
        let factory = AsyncFormsFactory()
        let configurator = try ConfiguratorFromFactory(factory)
        let context = try await ApplicationContext(configurator: configurator)
        #expect(factory.runs.value["eagerPool"] == 1)
        #expect(try Sync.object(context, "eagerPool", as: AsyncPool.self).config.name == "eager")
        let parent = try await ApplicationContext(AsyncParentFactory())
        let child = try await ApplicationContext(configurator: ConfiguratorFromFactory(AsyncChildFactory()), parent: parent)
        #expect(try Sync.object(child, "report", as: AsyncReport.self).pool.config.name == "parent")
    }

    @Test func asyncInitOfASynchronousFactoryBehavesLikeTheSynchronousOne() async throws {
        let context = try await ApplicationContext(InferredAsyncFactory())
        #expect(context.startupReport.entries.map(\.key) == ["config"])
        #expect(context.keys == ["config", "pool", "report"])
    }

    // MARK: The resolver

    @Test func resolverAsyncLookupsWorkFromChildTasksOfTheClosure() async throws {
        struct Factory: ObjectFactory {
            var definitions: Definitions {
                createSingleton("a") { () async -> AsyncLeaf in await loaded { AsyncLeaf() } }
                createSingleton("b") { () async -> AsyncLeaf in await loaded { AsyncLeaf() } }
                createSingleton("pair") { r async throws -> [AsyncLeaf] in
                    async let a: AsyncLeaf = r.object("a")
                    async let b: AsyncLeaf = r.object("b")
                    return try await [a, b]
                }
            }
        }
        let context = try await ApplicationContext(Factory())
        let pair: [AsyncLeaf] = try await context.object("pair")
        #expect(pair[0] === (try await context.object("a", as: AsyncLeaf.self)))
        #expect(pair[1] === (try await context.object("b", as: AsyncLeaf.self)))
        // Both edges were recorded, though the lookups ran in child tasks.
        let graph = context.graph(.dot)
        #expect(graph.contains("c0_2 -> c0_0;"))
        #expect(graph.contains("c0_2 -> c0_1;"))
    }

    @Test func resolverAsyncLookupsResolveInTheOwningContextEvenWhenAChildAsksFirst() async throws {
        let parent = try await ApplicationContext(AsyncParentFactory())
        let child = try await ApplicationContext(AsyncChildFactory(), parent: parent)
        // The child asks first for the parent's pool: its config must be the parent's.
        let pool: AsyncPool = try await child.object("pool")
        #expect(pool.config.name == "parent")
    }

    // MARK: By type

    @Test func asyncObjectOfTypeMakesAsyncDefinitionsToLearnTheirType() async throws {
        let context = try await ApplicationContext(AsyncOneServiceFactory())
        let service: any AsyncService = try await context.object(of: (any AsyncService).self)
        #expect(service.label == "hidden")
        #expect(service === (try await context.object("hidden", as: Any.self) as AnyObject))
        #expect(try Sync.object(of: (any AsyncService).self, in: context) === service)
    }

    @Test func asyncObjectOfTypeReportsNoneAndAmbiguousLikeTheSynchronousForm() async throws {
        let context = try await ApplicationContext(AsyncTypedFactory())
        let ambiguous = try #require(await asyncError { try await context.object(of: (any AsyncService).self) })
        guard case let .ambiguousType(_, candidates) = ambiguous else {
            Issue.record("expected ambiguousType, got \(ambiguous)")
            return
        }
        #expect(candidates == ["declared", "hidden", "fresh"])
        let none = try #require(await asyncError { try await context.object(of: AsyncPool.self) })
        guard case .noSuchObject = none else {
            Issue.record("expected noSuchObject, got \(none)")
            return
        }
    }

    @Test func asyncObjectsOfTypeListsOwnInDeclarationOrderThenTheParents() async throws {
        let parent = try await ApplicationContext(AsyncParentFactory())
        let typed = try await ApplicationContext(AsyncTypedFactory(), parent: parent)
        let services: [any AsyncService] = try await typed.objects(of: (any AsyncService).self)
        // The parent's "service" is not shadowed by a "service" of the child here.
        #expect(services.map(\.label) == ["declared", "hidden", "fresh", "parent"])
        let again: [any AsyncService] = try await typed.objects(of: (any AsyncService).self)
        #expect(again[0] === services[0])
        #expect(again[1] === services[1])
        // The prototype is made anew.
        #expect(again[2] !== services[2])
        let child = try await ApplicationContext(AsyncChildFactory(), parent: parent)
        // The child's "service" shadows the parent's.
        #expect(try await child.objects(of: (any AsyncService).self).map(\.label) == ["child"])
    }

    // MARK: Injection

    @Test func asyncInjectIntoFillsPropertiesNamingAsyncDefinitions() async throws {
        let context = try await ApplicationContext(AsyncInjectFactory())
        let subject = AsyncInjected()
        try await context.inject(into: subject)
        #expect(subject.pool === (try await context.object("pool", as: AsyncPool.self)))
        #expect(subject.statement.pool === subject.pool)
        #expect(subject.absent == nil)
        _ = subject.leaf
    }

    @Test func asyncInjectIntoReportsUnresolvedPropertiesLikeTheSynchronousForm() async throws {
        let context = try await ApplicationContext(AsyncInjectFactory())
        let error = try #require(await asyncError { try await context.inject(into: AsyncUnresolved()) })
        guard case let .unresolvedInjection(_, property, key) = error else {
            Issue.record("expected unresolvedInjection, got \(error)")
            return
        }
        #expect(property == "nowhere")
        #expect(key == "nowhere")
    }

    @Test func injectPropertiesOfObjectsMadeByAsyncLookupsAreFilledByAsyncLookups() async throws {
        let context = try await ApplicationContext(AsyncInjectFactory())
        let screen: AsyncInjected = try await context.object("screen")
        #expect(screen.pool === (try await context.object("pool", as: AsyncPool.self)))
        #expect(screen.statement.pool === screen.pool)
        #expect(screen.absent == nil)
        let prototype: AsyncInjected = try await context.object("screenPrototype")
        #expect(prototype !== screen)
        #expect(prototype.pool === screen.pool)
        #expect(prototype.leaf !== screen.leaf)
        // Once made, the synchronous singleton is returned by synchronous lookups too.
        #expect(try Sync.object(context, "screen", as: AsyncInjected.self) === screen)
    }
}
