import Testing
import Trellis

// MARK: - Fixtures

/// A disposable value type: disposal is for any singleton that adopts the protocol.
private struct DisposableToken: Disposable, Sendable {
    let log: DisposalLog
    func dispose() { log.record("token") }
}

private final class PlainObject: Sendable {}

/// Eager and lazy singletons, a prototype, a value type and a non-disposable object.
private struct AppFactory: ObjectFactory {
    let log: DisposalLog
    let lazyMade = ConcurrencyCounter()
    let prototypeMade = ConcurrencyCounter()
    var contextName: String { "App" }

    var definitions: Definitions {
        createEagerSingleton("eager") { [log] in DisposableProbe("eager", log: log) }
        createSingleton("lazy") { [log] in DisposableProbe("lazy", log: log) }
        createSingleton("neverMade") { [log, lazyMade] in
            lazyMade.increment()
            return DisposableProbe("neverMade", log: log)
        }
        createPrototype("prototype") { [log, prototypeMade] in
            prototypeMade.increment()
            return DisposableProbe("prototype", log: log)
        }
        createSingleton("token") { [log] in DisposableToken(log: log) }
        createSingleton("plain") { PlainObject() }
        aliases(for: "lazy", "lazyAlias")
    }
}

/// A child whose singleton depends on the parent's.
private struct ChildFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "Child" }

    var definitions: Definitions {
        createSingleton("own") { [log] r in DisposableProbe("own", log: log, dependencies: [try r.object("lazy", as: DisposableProbe.self)]) }
        createSingleton("ownLater") { [log] in DisposableProbe("ownLater", log: log) }
    }
}

/// Three disposable singletons, two of which fail to dispose.
private struct FailingFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "Failing" }

    var definitions: Definitions {
        createEagerSingleton("first") { [log] in DisposableProbe("first", log: log, failing: "first broke") }
        createEagerSingleton("second") { [log] in DisposableProbe("second", log: log) }
        createEagerSingleton("third") { [log] in DisposableProbe("third", log: log, failing: "third broke") }
    }
}

/// A synchronous and an async disposal, and an object adopting both protocols.
private final class BothKinds: Disposable, AsyncDisposable, Sendable {
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() throws { log.record("both (sync)") }
    func dispose() async throws { log.record("both (async)") }
}

/// A `Disposable` class, a subclass that inherits that alone, and one that adds `AsyncDisposable`.
private class SyncBase: Disposable, @unchecked Sendable {
    // Unchecked: `log` is a constant of a `Sendable` type.
    let log: DisposalLog
    let key: String
    init(_ key: String, log: DisposalLog) { self.key = key; self.log = log }
    func dispose() throws { log.record("\(key) (sync)") }
}

private final class InheritsSync: SyncBase, @unchecked Sendable {}

private final class AddsAsync: SyncBase, AsyncDisposable, @unchecked Sendable {
    func dispose() async throws { log.record("\(key) (async)") }
}

private struct InheritedDisposalFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createSingleton("base") { [log] in SyncBase("base", log: log) }
        createSingleton("inherits") { [log] () -> SyncBase in InheritsSync("inherits", log: log) }
        createSingleton("adds") { [log] () -> SyncBase in AddsAsync("adds", log: log) }
    }
}

private struct MixedFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "Mixed" }

    var definitions: Definitions {
        createSingleton("pool") { [log] in AsyncDisposableProbe("pool", log: log) }
        createSingleton("repository") { [log] r in AsyncDisposableProbe("repository", log: log, dependencies: [try r.object("pool", as: AsyncDisposableProbe.self)]) }
        createSingleton("cache") { [log] r in DisposableProbe("cache", log: log, dependencies: [try r.object("pool", as: AsyncDisposableProbe.self)]) }
        createSingleton("both") { [log] in BothKinds(log: log) }
        createSingleton("fails") { [log] in AsyncDisposableProbe("fails", log: log, failing: "drain timed out") }
        createSingleton("plain") { [log] in DisposableProbe("plain", log: log) }
    }
}

private final class Consumer: Sendable {}

/// A singleton whose closure would have to be made after close.
private struct LateFactory: ObjectFactory {
    let made = ConcurrencyCounter()
    var contextName: String { "Late" }

    var definitions: Definitions {
        createSingleton("made") { Consumer() }
        createSingleton("notMade") { [made] in
            made.increment()
            return Consumer()
        }
        createPrototype("prototype") { [made] in
            made.increment()
            return Consumer()
        }
    }
}

private final class Receiver: @unchecked Sendable {
    // Unchecked: the @Inject storage is written by the context before the object is shared.
    @Inject var made: Consumer
}

// MARK: - Tests

@Suite("Close: what is disposed, and the closed context")
struct CloseTests {
    @Test func closeDisposesEveryMadeDisposableSingletonOnce() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(AppFactory(log: log))
        _ = try context.object("lazy", as: DisposableProbe.self)
        _ = try context.object("token", as: DisposableToken.self)
        _ = try context.object("plain", as: PlainObject.self)
        try context.close()
        #expect(log.keys.sorted() == ["eager", "lazy", "token"])
    }

    @Test func closeDisposesNeitherPrototypesNorUnmadeLazySingletons() throws {
        let log = DisposalLog()
        let factory = AppFactory(log: log)
        let context = try ApplicationContext(factory)
        _ = try context.object("prototype", as: DisposableProbe.self)
        _ = try context.object("prototype", as: DisposableProbe.self)
        try context.close()
        #expect(log.keys == ["eager"])
        #expect(factory.lazyMade.value == 0, "close() makes nothing")
        #expect(factory.prototypeMade.value == 2)
    }

    @Test func closingAChildDisposesOnlyItsOwnSingletonsNotTheParents() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(AppFactory(log: log))
        let child = try ApplicationContext(ChildFactory(log: log), parent: app)
        _ = try child.object("own", as: DisposableProbe.self)   // makes the parent's "lazy" too
        _ = try child.object("eager", as: DisposableProbe.self)
        try child.close()
        #expect(log.keys == ["own"])
        // The parent is open: its objects are still looked up, and it disposes them itself.
        #expect(try app.object("lazy", as: DisposableProbe.self).key == "lazy")
        try app.close()
        #expect(log.keys.sorted() == ["eager", "lazy", "own"])
    }

    @Test func closingAParentDoesNotCloseItsChildren() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(AppFactory(log: log))
        let child = try ApplicationContext(ChildFactory(log: log), parent: app)
        _ = try child.object("own", as: DisposableProbe.self)
        try app.close()
        #expect(log.keys.sorted() == ["eager", "lazy"], "the child's singleton is not disposed")
        // The child answers what it defines, made or not.
        #expect(try child.object("own", as: DisposableProbe.self).key == "own")
        #expect(try child.object("ownLater", as: DisposableProbe.self).key == "ownLater")
        try child.close()
        #expect(log.count(of: "own") == 1)
        #expect(log.count(of: "ownLater") == 1)
    }

    @Test func childLookupReachingAClosedParentThrowsContextClosedNamingTheParent() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(AppFactory(log: log))
        let child = try ApplicationContext(ChildFactory(log: log), parent: app)
        try app.close()
        // Made in the parent, not made, unknown anywhere, and by alias: all reach the parent.
        for key in ["eager", "neverMade", "unknown", "lazyAlias"] {
            #expect(throws: ContextError.contextClosed(context: "App", key: key)) {
                _ = try child.object(key, as: DisposableProbe.self)
            }
        }
        // A child's singleton whose closure needs the parent fails the same way, naming the parent.
        #expect(throws: ContextError.contextClosed(context: "App", key: "lazy")) {
            _ = try child.object("own", as: DisposableProbe.self)
        }
    }

    @Test func lookupsAfterCloseThrowContextClosedNamingTheContextAndKey() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(AppFactory(log: log))
        _ = try app.object("lazy", as: DisposableProbe.self)
        try app.close()
        for key in ["eager", "lazy", "lazyAlias", "LAZY", "neverMade", "prototype", "unknown"] {
            #expect(throws: ContextError.contextClosed(context: "App", key: key)) {
                _ = try app.object(key, as: DisposableProbe.self)
            }
            // Also when asked for as an optional or under another type.
            #expect(throws: ContextError.contextClosed(context: "App", key: key)) {
                _ = try app.object(key, as: DisposableProbe?.self)
            }
            #expect(throws: ContextError.contextClosed(context: "App", key: key)) {
                _ = try app.object(key, as: (any Disposable).self)
            }
        }
    }

    @Test func contextClosedMessageNamesTheContextAndTheKey() throws {
        let app = try ApplicationContext(AppFactory(log: DisposalLog()))
        try app.close()
        let error = try #require(thrownContextError { () throws(ContextError) in _ = try app.object("mailer", as: PlainObject.self) })
        #expect(error.description == "Context 'App' is closed: cannot look up 'mailer'. Look objects up before closing the context, or in a context that is still open.")
    }

    @Test func lookupsByTypeAndInjectionAfterCloseThrowContextClosed() throws {
        let app = try ApplicationContext(AppFactory(log: DisposalLog()))
        try app.close()
        let byType = thrownContextError { () throws(ContextError) in _ = try app.object(of: PlainObject.self) }
        let allOfType = thrownContextError { () throws(ContextError) in _ = try app.objects(of: DisposableProbe.self) }
        for error in [byType, allOfType] {
            guard case let .contextClosed(context, _)? = error else {
                Issue.record("expected contextClosed, got \(String(describing: error))")
                continue
            }
            #expect(context == "App")
        }
        let late = try ApplicationContext(LateFactory())
        _ = try late.object("made", as: Consumer.self)
        try late.close()
        #expect(throws: ContextError.contextClosed(context: "Late", key: "made")) {
            try late.inject(into: Receiver())
        }
    }

    @Test func nothingIsMadeAfterClose() throws {
        let factory = LateFactory()
        let context = try ApplicationContext(factory)
        _ = try context.object("made", as: Consumer.self)
        try context.close()
        #expect(throws: ContextError.contextClosed(context: "Late", key: "notMade")) {
            _ = try context.object("notMade", as: Consumer.self)
        }
        #expect(throws: ContextError.contextClosed(context: "Late", key: "prototype")) {
            _ = try context.object("prototype", as: Consumer.self)
        }
        #expect(factory.made.value == 0)
    }

    @Test func asyncLookupsAfterCloseThrowContextClosed() async throws {
        let app = try await ApplicationContext(AppFactory(log: DisposalLog()))
        let child = try await ApplicationContext(ChildFactory(log: DisposalLog()), parent: app)
        try await app.close()
        for key in ["eager", "neverMade", "unknown"] {
            let direct = await thrownContextErrorAsync { () async throws(ContextError) in _ = try await app.object(key, as: DisposableProbe.self) }
            #expect(direct == .contextClosed(context: "App", key: key))
            let throughChild = await thrownContextErrorAsync { () async throws(ContextError) in _ = try await child.object(key, as: DisposableProbe.self) }
            #expect(throughChild == .contextClosed(context: "App", key: key))
        }
    }

    @Test func containsKeysDescriptionAndGraphStillAnswerAfterClose() throws {
        let app = try ApplicationContext(AppFactory(log: DisposalLog()))
        let description = app.description, graph = app.graph(.dot)
        try app.close()
        #expect(app.contains("lazy"))
        #expect(!app.contains("unknown"))
        #expect(app.keys == ["eager", "lazy", "neverMade", "prototype", "token", "plain"])
        #expect(app.description == description)
        #expect(app.graph(.dot) == graph)
    }

    @Test func failingDisposeDoesNotStopTheOthersAndAllFailuresAreReportedInDisposalOrder() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(FailingFactory(log: log))
        let error = thrownContextError { () throws(ContextError) in try context.close() }
        #expect(log.keys == ["third", "second", "first"], "every disposal attempted, latest made first")
        let expected = ContextError.disposalFailed(context: "Failing", failures: [
            .init(key: "third", error: "third broke"),
            .init(key: "first", error: "first broke"),
        ])
        #expect(error == expected)
        guard case let .disposalFailed(context: name, failures)? = error else { return }
        #expect(name == "Failing")
        #expect(failures.map(\.key) == ["third", "first"])
        #expect(failures.map(\.error) == ["third broke", "first broke"])
    }

    @Test func disposalFailedMessageNamesEachKeyAndItsError() throws {
        let context = try ApplicationContext(FailingFactory(log: DisposalLog()))
        let error = try #require(thrownContextError { () throws(ContextError) in try context.close() })
        #expect(error.description == "Closing context 'Failing': 2 dispose() calls failed: 'third': third broke; 'first': first broke. Every disposal was attempted, and the context is closed.")
    }

    @Test func secondCloseAfterDisposalFailedReturnsWithoutErrorAndDisposesNothing() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(FailingFactory(log: log))
        #expect(throws: ContextError.self) { try context.close() }
        try context.close()
        try context.close()
        #expect(log.keys.count == 3)
        #expect(throws: ContextError.contextClosed(context: "Failing", key: "first")) {
            _ = try context.object("first", as: DisposableProbe.self)
        }
    }

    @Test func closeIsIdempotent() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(AppFactory(log: log))
        try context.close()
        try context.close()
        #expect(log.keys == ["eager"])
    }

    @Test func synchronousCloseRefusesWithRequiresAwaitBeforeDisposingAnythingAndLeavesTheContextOpen() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(MixedFactory(log: log))
        _ = try context.object("plain", as: DisposableProbe.self)
        _ = try context.object("pool", as: AsyncDisposableProbe.self)
        let error = thrownContextError { () throws(ContextError) in try context.close() }
        guard case let .requiresAwait(key, _)? = error else {
            Issue.record("expected requiresAwait, got \(String(describing: error))")
            return
        }
        #expect(key == "pool")
        #expect(log.keys.isEmpty, "nothing disposed")
        // Open and usable: made objects are returned, and new ones made.
        #expect(try context.object("plain", as: DisposableProbe.self).key == "plain")
        #expect(try context.object("cache", as: DisposableProbe.self).key == "cache")
    }

    /// The refusal's message says what to do about a close (await it), not what a lookup's says.
    @Test func synchronousCloseRefusalMessageTellsToAwaitClose() throws {
        let context = try ApplicationContext(MixedFactory(log: DisposalLog()))
        _ = try context.object("pool", as: AsyncDisposableProbe.self)
        let error = try #require(thrownContextError { () throws(ContextError) in try context.close() })
        #expect(error.description.contains("'pool'"))
        #expect(error.description.contains("close()"), "the fix is `try await close()`: \(error.description)")
        #expect(!error.description.contains("not made yet"), "pool is made: \(error.description)")
    }

    @Test func synchronousCloseIgnoresAsyncDisposableSingletonsNotMade() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(MixedFactory(log: log))
        _ = try context.object("plain", as: DisposableProbe.self)
        try context.close()
        #expect(log.keys == ["plain"])
    }

    @Test func aSubclassIsDisposedAsItsOwnClassAdoptsTheProtocols() async throws {
        // Docs/Lifecycle.md, "Disposable objects": each object is disposed as its own class
        // adopts the protocols, whatever the definition declares; an object adopting both is
        // disposed asynchronously.
        let log = DisposalLog()
        let context = try Self.madeAndRefusingASynchronousClose(InheritedDisposalFactory(log: log))
        #expect(log.keys.isEmpty, "a synchronous close that cannot dispose everything disposes nothing")
        try await context.close()
        #expect(log.keys.sorted() == ["adds (async)", "base (sync)", "inherits (sync)"])
    }

    /// A context of `factory` with its singletons made, whose synchronous `close()` refused.
    private static func madeAndRefusingASynchronousClose(_ factory: InheritedDisposalFactory) throws -> ApplicationContext {
        let context = try ApplicationContext(factory)
        for key in ["base", "inherits", "adds"] { _ = try context.object(key, as: SyncBase.self) }
        #expect(throws: ContextError.self) { try context.close() }
        return context
    }

    @Test func asyncCloseDisposesBothKindsInDependencyOrder() async throws {
        let log = DisposalLog()
        let context = try await ApplicationContext(MixedFactory(log: log))
        _ = try await context.object("plain", as: DisposableProbe.self)
        _ = try await context.object("repository", as: AsyncDisposableProbe.self)
        _ = try await context.object("cache", as: DisposableProbe.self)
        _ = try await context.object("both", as: BothKinds.self)
        // The refused synchronous close changed nothing.
        #expect(throws: ContextError.self) { try closeSynchronously(context) }
        try await context.close()
        let order = log.keys
        #expect(order.sorted() == ["both (async)", "cache", "plain", "pool", "repository"], "each once; an object adopting both protocols is disposed asynchronously: \(order)")
        let pool = try #require(order.firstIndex(of: "pool"))
        #expect(try #require(order.firstIndex(of: "repository")) < pool)
        #expect(try #require(order.firstIndex(of: "cache")) < pool)
    }

    @Test func asyncCloseReportsFailingAsyncDisposalsAndDisposesTheRest() async throws {
        let log = DisposalLog()
        let context = try await ApplicationContext(MixedFactory(log: log))
        _ = try await context.object("pool", as: AsyncDisposableProbe.self)
        _ = try await context.object("fails", as: AsyncDisposableProbe.self)
        _ = try await context.object("plain", as: DisposableProbe.self)
        let error = await thrownContextErrorAsync { () async throws(ContextError) in try await context.close() }
        #expect(error == .disposalFailed(context: "Mixed", failures: [.init(key: "fails", error: "drain timed out")]))
        #expect(log.keys == ["plain", "fails", "pool"])
        try await context.close()
        #expect(log.keys.count == 3)
    }

    @Test func asyncCloseOfAContextWithNothingToDisposeReturns() async throws {
        let context = try await ApplicationContext(LateFactory())
        try await context.close()
        try await context.close()
        let error = await thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("made", as: Consumer.self) }
        #expect(error == .contextClosed(context: "Late", key: "made"))
    }
}
