import Testing
import Trellis
import TrellisTestSupport

// Default main-actor isolation, as in an app target: every conformance below is written as an
// app writes it, so each is isolated to the main actor (SE-0470), and a cast to the protocol
// fails off the main actor. Docs/AppTarget.md: a context disposes, notifies and finds such
// objects whatever actor asks, or says why it cannot; it never skips one silently.

/// What happened to the objects of a test, readable from any isolation.
nonisolated final class AppEvents: Sendable {
    private let entries = Guarded<[String]>([])
    func record(_ event: String) { entries.withLock { $0.append(event) } }
    var all: [String] { entries.withLock { $0 } }
}

final class UndoHistory: Disposable {
    let events: AppEvents
    init(events: AppEvents) { self.events = events }
    func dispose() {
        MainActor.assertIsolated("a main-actor Disposable was disposed off the main actor")
        events.record("undo flushed")
    }
}

final class Autosave: AsyncDisposable {
    let events: AppEvents
    init(events: AppEvents) { self.events = events }
    func dispose() async {
        MainActor.assertIsolated("a main-actor AsyncDisposable was disposed off the main actor")
        events.record("autosave written")
    }
}

final class EditorModel: InjectionAware {
    @Inject var undo: UndoHistory
    let events: AppEvents
    init(events: AppEvents) { self.events = events }
    func didInject(from context: ApplicationContext) {
        MainActor.assertIsolated("didInject of a main-actor conformance ran off the main actor")
        events.record("editor injected")
    }
}

// Not class-bound: the runtime checks the isolation of a cast to it (a cast to a class-bound
// protocol is not checked, which is why `didInject` is routed by the conformance itself).
nonisolated protocol Saving { func save() }
final class DraftStore: Saving { func save() {} }

nonisolated struct DraftsFactory: ObjectFactory {
    var definitions: Definitions {
        createMainActorSingleton("drafts") { DraftStore() }
    }
}

/// A class that is not isolated, whose conformance to `Saving` is (this target's default).
nonisolated final class LooseDraft {
    init() {}
}

extension LooseDraft: Saving { func save() {} }

nonisolated struct LooseDraftsFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("loose") { LooseDraft() }
    }
}

nonisolated struct EditorFactory: ObjectFactory {
    let events: AppEvents
    var definitions: Definitions {
        createMainActorSingleton("undo") { [events] in UndoHistory(events: events) }
        createMainActorSingleton("autosave") { [events] in Autosave(events: events) }
        createMainActorSingleton("drafts") { DraftStore() }
        // Async main-actor closures: the closure runs on the main actor, awaited.
        createMainActorSingleton("editor") { [events] (_: Resolver) async throws -> EditorModel in
            await Task.yield()
            return EditorModel(events: events)
        }
    }
}

/// Main-actor disposables made as an optional and as an `AnyHashable`: a cast looks past both,
/// so a close disposes them as it disposes the object itself.
nonisolated struct WrappedUndoFactory: ObjectFactory {
    let events: AppEvents
    var definitions: Definitions {
        createMainActorSingleton("undo") { [events] () -> UndoHistory? in UndoHistory(events: events) }
        createMainActorSingleton("lock") { [events] in AnyHashable(DraftLock(events: events)) }
    }
}

/// Async main-actor closures of every scope: each closure checks it runs on the main actor.
nonisolated struct AsyncMainActorScopesFactory: ObjectFactory {
    let events: AppEvents
    var definitions: Definitions {
        createMainActorEagerSingleton("undo") { [events] () async -> UndoHistory in
            MainActor.assertIsolated("an async main-actor eager closure ran off the main actor")
            await Task.yield()
            return UndoHistory(events: events)
        }
        createMainActorPrototype("draft") { r async throws -> DraftStore in
            MainActor.assertIsolated("an async main-actor prototype closure ran off the main actor")
            _ = try await r.object("undo", as: UndoHistory.self)
            return DraftStore()
        }
    }
}

/// A value that is not isolated, whose conformance to `Disposable` is (this target's default): a
/// close knows a struct from its declared type, and must still find this one disposable.
nonisolated struct DraftLock: Hashable {
    let events: AppEvents
    // Hashable (by its events' identity) so it can be made as an `AnyHashable` too.
    static func == (lhs: DraftLock, rhs: DraftLock) -> Bool { lhs.events === rhs.events }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(events)) }
}

extension DraftLock: Disposable {
    func dispose() {
        MainActor.assertIsolated("a main-actor Disposable struct was disposed off the main actor")
        events.record("draft lock released")
    }
}

nonisolated struct DraftLockFactory: ObjectFactory {
    let events: AppEvents
    var definitions: Definitions {
        createSingleton("lock") { [events] in DraftLock(events: events) }
    }
}

nonisolated struct FailingEditorFactory: ObjectFactory {
    let events: AppEvents
    struct Broken: Error {}
    var definitions: Definitions {
        createMainActorEagerSingleton("undo") { [events] in UndoHistory(events: events) }
        // Synchronous eager singletons are made in declaration order after the async ones.
        createEagerSingleton("network") { () throws -> Int in throw Broken() }
    }
}

@Suite struct IsolatedConformanceTests {
    @Test nonisolated func awaitedCloseOffTheMainActorDisposesAMainActorDisposableOnTheMainActor() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(EditorFactory(events: events))
        _ = try await context.object("undo", as: UndoHistory.self)
        try await context.close()
        #expect(events.all == ["undo flushed"])
    }

    @Test func awaitedCloseOnTheMainActorDisposesAMainActorDisposable() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(EditorFactory(events: events))
        _ = try await context.object("undo", as: UndoHistory.self)
        try await context.close()
        #expect(events.all == ["undo flushed"])
    }

    @Test nonisolated func awaitedCloseAwaitsAMainActorAsyncDisposableOnTheMainActor() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(EditorFactory(events: events))
        _ = try await context.object("autosave", as: Autosave.self)
        _ = try await context.object("undo", as: UndoHistory.self)
        try await context.close()
        // Made last, disposed first.
        #expect(events.all == ["undo flushed", "autosave written"])
    }

    @Test func synchronousCloseOnTheMainActorDisposesAMainActorDisposable() throws {
        let events = AppEvents()
        let context = try ApplicationContext(EditorFactory(events: events))
        _ = try context.object("undo", as: UndoHistory.self)
        try context.close()
        #expect(events.all == ["undo flushed"])
    }

    @Test nonisolated func synchronousCloseOffTheMainActorRefusesAMainActorDisposableAndStaysOpen() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(EditorFactory(events: events))
        _ = try await context.object("undo", as: UndoHistory.self)
        let error = closeSynchronously(context)
        #expect(error == .requiresAwait(key: "undo", path: ["close() off the main actor", "undo"]))
        #expect(error?.description.contains("try await context.close()") == true)
        #expect(events.all.isEmpty)
        // Still open: the object is there, and an awaited close disposes it.
        _ = try await context.object("undo", as: UndoHistory.self)
        try await context.close()
        #expect(events.all == ["undo flushed"])
    }

    @Test nonisolated func aMainActorDisposableMadeAsAnOptionalOrAnAnyHashableIsNeverSkipped() async throws {
        // Docs/AppTarget.md: never skipped silently, whatever it is wrapped in.
        let events = AppEvents()
        let context = try await ApplicationContext(WrappedUndoFactory(events: events))
        _ = try await context.object("undo", as: UndoHistory?.self)
        _ = try await context.object("lock", as: AnyHashable.self)
        let error = closeSynchronously(context)
        guard case .requiresAwait? = error else {
            Issue.record("a synchronous close off the main actor refuses, got \(String(describing: error))")
            return
        }
        #expect(events.all.isEmpty)
        try await context.close()
        #expect(events.all.sorted() == ["draft lock released", "undo flushed"])
    }

    @Test nonisolated func awaitedCloseOffTheMainActorDisposesAStructWhoseConformanceIsIsolated() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(DraftLockFactory(events: events))
        _ = try await context.object("lock", as: DraftLock.self)
        try await context.close()
        #expect(events.all == ["draft lock released"])
    }

    @Test nonisolated func synchronousCloseOffTheMainActorRefusesAStructWhoseConformanceIsIsolated() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(DraftLockFactory(events: events))
        _ = try await context.object("lock", as: DraftLock.self)
        #expect(closeSynchronously(context) == .requiresAwait(key: "lock", path: ["close() off the main actor", "lock"]))
        #expect(events.all.isEmpty)
        try await context.close()
        #expect(events.all == ["draft lock released"])
    }

    @Test nonisolated func failedAsyncStartDisposesAMainActorDisposableItMade() async throws {
        let events = AppEvents()
        await #expect(throws: ContextError.self) { try await ApplicationContext(FailingEditorFactory(events: events)) }
        #expect(events.all == ["undo flushed"])
    }

    @Test nonisolated func asyncMainActorDefinitionRunsItsClosureOnTheMainActorAndNotifiesOnIt() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(EditorFactory(events: events))
        let editor: EditorModel = try await context.object("editor")
        let undo: UndoHistory = try await context.object("undo")
        #expect(await MainActor.run { editor.undo === undo })
        #expect(events.all == ["editor injected"])
    }

    @Test nonisolated func asyncMainActorEagerSingletonIsMadeByTheAsyncStartOffTheMainActor() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(AsyncMainActorScopesFactory(events: events))
        #expect(context.startupReport.entries.map(\.key) == ["undo"])
        let first: DraftStore = try await context.object("draft")
        let second: DraftStore = try await context.object("draft")
        #expect(first !== second)
        try await context.close()
        #expect(events.all == ["undo flushed"])
    }

    @Test nonisolated func synchronousStartOfAnAsyncMainActorEagerSingletonRequiresAwait() throws {
        #expect(throws: ContextError.requiresAwait(key: "undo", path: ["undo"])) {
            _ = try startSynchronously(AsyncMainActorScopesFactory(events: AppEvents()))
        }
    }

    @Test nonisolated func synchronousLookupOfAnUnmadeAsyncMainActorDefinitionRequiresAwait() async throws {
        let context = try await ApplicationContext(EditorFactory(events: AppEvents()))
        #expect(throws: ContextError.requiresAwait(key: "editor", path: ["editor"])) {
            _ = try lookUpSynchronously(context, "editor", as: EditorModel.self)
        }
    }

    @Test func lookupByTypeOnTheMainActorFindsAnIsolatedConformance() throws {
        let context = try ApplicationContext(DraftsFactory())
        let stores = try context.objects(of: (any Saving).self)
        #expect(stores.count == 1)
        #expect(stores.first as? DraftStore === (try context.object("drafts", as: DraftStore.self)))
    }

    @Test nonisolated func lookupByTypeOffTheMainActorSaysTheConformanceIsIsolatedInsteadOfSkippingIt() async throws {
        let context = try await ApplicationContext(DraftsFactory())
        _ = try await context.object("drafts", as: DraftStore.self)
        let error = try #require(findSavingSynchronously(context))
        guard case let .typeMismatch(key, _, actual, _) = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(key == "drafts")
        #expect(actual.contains("only on the main actor"))
    }

    @Test func aLookupAsAnIsolatedProtocolOnTheMainActorDoesNotLetOneOffItSucceed() async throws {
        // A singleton asked for as a protocol is converted once and kept, unless the conformance
        // is isolated: kept, the main actor's conversion would be handed out anywhere.
        let context = try startSynchronously(DraftsFactory())
        for _ in 0..<3 { #expect(try lookUpSavingOnTheMainActor(context) is DraftStore) }
        let offTheMainActor = await savingLookupErrorOffTheMainActor(context, "drafts")
        #expect(offTheMainActor?.contains("only on the main actor") == true)
    }

    @Test func aPrototypeAskedForAsAnIsolatedProtocolOnTheMainActorDoesNotLetOneOffItSucceed() async throws {
        // A class's instances cast to a protocol are cast from a kept template after the first,
        // unless the conformance is isolated: kept, the main actor's cast would work anywhere.
        let context = try startSynchronously(LooseDraftsFactory())
        for _ in 0..<3 { #expect(try lookUpLooseOnTheMainActor(context) is LooseDraft) }
        let offTheMainActor = await savingLookupErrorOffTheMainActor(context, "loose")
        #expect(offTheMainActor?.contains("only on the main actor") == true)
    }

    @Test nonisolated func lookupByKeyAsAnIsolatedProtocolOffTheMainActorSaysWhy() async throws {
        let context = try await ApplicationContext(DraftsFactory())
        do {
            _ = try await context.object("drafts", as: (any Saving).self)
            Issue.record("an isolated conformance was used off the main actor")
        } catch {
            #expect(error.description.contains("only on the main actor"))
        }
    }
}

/// A synchronous `close()` called from a nonisolated synchronous function (off the main actor).
nonisolated func closeSynchronously(_ context: ApplicationContext) -> ContextError? {
    do {
        try context.close()
        return nil
    } catch {
        return error
    }
}

nonisolated func startSynchronously(_ factory: some ObjectFactory) throws(ContextError) -> ApplicationContext {
    try ApplicationContext(factory)
}

nonisolated func lookUpSynchronously<T>(_ context: ApplicationContext, _ key: String, as type: T.Type) throws(ContextError) -> T {
    try context.object(key, as: T.self)
}

/// `drafts` as `any Saving`, looked up synchronously on the main actor.
func lookUpSavingOnTheMainActor(_ context: ApplicationContext) throws(ContextError) -> any Saving {
    try context.object("drafts", as: (any Saving).self)
}

/// What a synchronous lookup of `key` as `any Saving` from a detached task (off the main actor)
/// threw, described; `nil` if it succeeded.
nonisolated func savingLookupErrorOffTheMainActor(_ context: ApplicationContext, _ key: String) async -> String? {
    await Task.detached { () -> String? in
        do {
            _ = try lookUpSynchronously(context, key, as: (any Saving).self)
            return nil
        } catch {
            return String(describing: error)
        }
    }.value
}

/// `loose` (a new object each time) as `any Saving`, looked up synchronously on the main actor.
func lookUpLooseOnTheMainActor(_ context: ApplicationContext) throws(ContextError) -> any Saving {
    try context.object("loose", as: (any Saving).self)
}

/// `objects(of: (any Saving).self)` off the main actor: its error, if it threw.
nonisolated func findSavingSynchronously(_ context: ApplicationContext) -> ContextError? {
    do {
        _ = try context.objects(of: (any Saving).self)
        return nil
    } catch {
        return error
    }
}
