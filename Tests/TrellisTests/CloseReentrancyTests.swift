import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

/// The context a test double reaches from its `dispose()`; set by the test once it exists.
private final class ContextSlot: Sendable {
    private let stored = Guarded<ApplicationContext?>(nil)
    var context: ApplicationContext? {
        get { stored.value }
        set { stored.withLock { $0 = newValue } }
    }
}

/// What a `dispose()` saw when it did something with a context.
private final class Observations: Sendable {
    private let entries = Guarded<[String]>([])
    func note(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.value }
}

private func describe(_ error: ContextError?) -> String {
    error.map { "threw \($0)" } ?? "returned"
}

/// `dispose()` calls `close()` of the context that is closing it.
private final class ReclosingDisposable: Disposable, Sendable {
    let slot: ContextSlot
    let seen: Observations
    init(slot: ContextSlot, seen: Observations) {
        self.slot = slot
        self.seen = seen
    }

    func dispose() {
        guard let context = slot.context else { return }
        seen.note("inner close " + describe(thrownContextError { () throws(ContextError) in try context.close() }))
        seen.note("lookup " + describe(thrownContextError { () throws(ContextError) in _ = try context.object("other", as: DisposableProbe.self) }))
    }
}

/// `dispose()` awaits `close()` of the context that is closing it, then calls the synchronous one.
private final class AsyncReclosingDisposable: AsyncDisposable, Sendable {
    let slot: ContextSlot
    let seen: Observations
    init(slot: ContextSlot, seen: Observations) {
        self.slot = slot
        self.seen = seen
    }

    func dispose() async {
        guard let context = slot.context else { return }
        seen.note("inner async close " + describe(await thrownContextErrorAsync { () async throws(ContextError) in try await context.close() }))
        seen.note("inner sync close " + describe(thrownContextError { () throws(ContextError) in try closeSynchronously(context) }))
    }
}

private struct ReclosingFactory: ObjectFactory {
    let slot: ContextSlot
    let seen: Observations
    let log: DisposalLog
    var contextName: String { "Reclosing" }

    var definitions: Definitions {
        createEagerSingleton("other") { [log] in DisposableProbe("other", log: log) }
        createEagerSingleton("reclosing") { [slot, seen] in ReclosingDisposable(slot: slot, seen: seen) }
        createEagerSingleton("last") { [log] in DisposableProbe("last", log: log) }
    }
}

private struct AsyncReclosingFactory: ObjectFactory {
    let slot: ContextSlot
    let seen: Observations
    let log: DisposalLog
    var contextName: String { "AsyncReclosing" }

    var definitions: Definitions {
        createEagerSingleton("other") { [log] in AsyncDisposableProbe("other", log: log) }
        createEagerSingleton("reclosing") { [slot, seen] in AsyncReclosingDisposable(slot: slot, seen: seen) }
        createEagerSingleton("last") { [log] in DisposableProbe("last", log: log) }
    }
}

/// `dispose()` looks objects up in another context (`services`): one made already, one it makes
/// now, one whose closure closes the context being closed.
private final class ServiceUser: Disposable, Sendable {
    let services: ApplicationContext
    let closing: ContextSlot
    let seen: Observations
    init(services: ApplicationContext, closing: ContextSlot, seen: Observations) {
        self.services = services
        self.closing = closing
        self.seen = seen
    }

    func dispose() throws {
        let made = try services.object("made", as: DisposableProbe.self)
        let fresh = try services.object("fresh", as: DisposableProbe.self)
        let hook = try services.object("closesTheClosing", as: String.self)
        seen.note("\(made.key), \(fresh.key), \(hook)")
        if let closing = closing.context {
            seen.note("own context " + describe(thrownContextError { () throws(ContextError) in _ = try closing.object("user", as: ServiceUser.self) }))
        }
    }
}

private struct ServicesFactory: ObjectFactory {
    let log: DisposalLog
    let closing: ContextSlot
    let seen: Observations
    var contextName: String { "Services" }

    var definitions: Definitions {
        createSingleton("made") { [log] in DisposableProbe("made", log: log) }
        createSingleton("fresh") { [log] in DisposableProbe("fresh", log: log) }
        // A closure that runs while "Users" is closing and closes it again: returns at once.
        createSingleton("closesTheClosing") { [closing, seen] in
            if let context = closing.context {
                seen.note("close from a closure " + describe(thrownContextError { () throws(ContextError) in try context.close() }))
            }
            return "hook"
        }
    }
}

private struct UsersFactory: ObjectFactory {
    let services: ApplicationContext
    let closing: ContextSlot
    let seen: Observations
    let log: DisposalLog
    var contextName: String { "Users" }

    var definitions: Definitions {
        createEagerSingleton("user") { [services, closing, seen] in ServiceUser(services: services, closing: closing, seen: seen) }
        createEagerSingleton("after") { [log] in DisposableProbe("after", log: log) }
    }
}

/// `dispose()` closes another context (a request scope the app object tracks).
private final class ScopeOwner: Disposable, Sendable {
    let scope: ContextSlot
    init(scope: ContextSlot) { self.scope = scope }
    func dispose() throws { try scope.context?.close() }
}

private struct ScopeOwnerFactory: ObjectFactory {
    let scope: ContextSlot
    var definitions: Definitions {
        createEagerSingleton("owner") { [scope] in ScopeOwner(scope: scope) }
    }
}

private struct ScopeFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createEagerSingleton("unit") { [log] in DisposableProbe("unit", log: log) }
    }
}

/// `dispose()` closes the context that made it (learned from `didInject`): the caller of a
/// failed start, or of `validate`, never has that context to close.
private final class SelfClosingDisposable: Disposable, InjectionAware, Sendable {
    private let context = Guarded<WeakContext>(WeakContext())
    let seen: Observations
    init(seen: Observations) { self.seen = seen }

    func didInject(from context: ApplicationContext) { self.context.withLock { $0.context = context } }

    func dispose() {
        guard let context = context.value.context else { return }
        seen.note("inner close " + describe(thrownContextError { () throws(ContextError) in try context.close() }))
    }
}

private struct WeakContext: @unchecked Sendable {
    // Safe: only read and written inside the `Guarded` that holds it.
    weak var context: ApplicationContext?
}

private struct SelfClosingFactory: ObjectFactory {
    let seen: Observations
    var failsToStart = true
    struct Broken: Error {}

    var definitions: Definitions {
        createEagerSingleton("closer") { [seen] in SelfClosingDisposable(seen: seen) }
        if failsToStart {
            createEagerSingleton("broken") { () throws -> Int in throw Broken() }
        }
    }
}

/// Closes the context that made it, from its `didInject`.
private final class ClosesWhenInjected: InjectionAware, Sendable {
    func didInject(from context: ApplicationContext) { try? context.close() }
}

private struct ClosedWhileStartingFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createEagerSingleton("pool") { [log] in DisposableProbe("pool", log: log) }
        createEagerSingleton("closer") { ClosesWhenInjected() }
    }
}

// MARK: - Tests

@Suite("Close: from inside disposals, and what a dispose may do")
struct CloseReentrancyTests {
    @Test func closeCalledFromInsideItsOwnDisposeReturnsAtOnce() throws {
        let slot = ContextSlot(), seen = Observations(), log = DisposalLog()
        let context = try ApplicationContext(ReclosingFactory(slot: slot, seen: seen, log: log))
        slot.context = context
        defer { slot.context = nil }
        let outer = Guarded<ContextError?>(nil)
        let finished = ConcurrencyThreads.run(1) { _ in
            let error = thrownContextError { () throws(ContextError) in try context.close() }
            outer.withLock { $0 = error }
        }
        try #require(finished, "close() waited for itself")
        #expect(outer.value == nil)
        #expect(seen.all == ["inner close returned", "lookup threw \(ContextError.contextClosed(context: "Reclosing", key: "other"))"])
        // The inner close did not cut the outer one short.
        #expect(log.keys == ["last", "other"])
    }

    @Test func closeCalledFromInsideItsOwnAsyncDisposeReturnsAtOnce() async throws {
        let slot = ContextSlot(), seen = Observations(), log = DisposalLog()
        let context = try await ApplicationContext(AsyncReclosingFactory(slot: slot, seen: seen, log: log))
        slot.context = context
        defer { slot.context = nil }
        let outer = await finishesInTime { await thrownContextErrorAsync { () async throws(ContextError) in try await context.close() } }
        let error = try #require(outer, "async close() waited for itself")
        #expect(error == nil)
        #expect(seen.all == ["inner async close returned", "inner sync close returned"])
        #expect(log.keys == ["last", "other"])
    }

    /// Docs/Lifecycle.md: a failed start disposes what it made as a close does, and a `close()`
    /// from inside a `dispose()` returns at once (it waited for the start's disposals, forever).
    @Test func closeCalledFromInsideADisposeOfAFailedStartReturnsAtOnce() throws {
        let seen = Observations()
        let finished = ConcurrencyThreads.run(1) { _ in
            #expect(throws: ContextError.self) { try ApplicationContext(SelfClosingFactory(seen: seen)) }
        }
        try #require(finished, "the failed start's disposal waited for itself")
        #expect(seen.all == ["inner close returned"])
    }

    /// The same for the scratch context of a validation, disposed when it ends.
    @Test func closeCalledFromInsideADisposeOfAValidationReturnsAtOnce() throws {
        let seen = Observations()
        let problems = Guarded<[ContextError]?>(nil)
        let finished = ConcurrencyThreads.run(1) { _ in
            let report = ApplicationContext.validate(SelfClosingFactory(seen: seen, failsToStart: false))
            problems.withLock { $0 = report.problems }
        }
        try #require(finished, "the validation's disposal waited for itself")
        #expect(problems.value == [])
        #expect(seen.all == ["inner close returned"])
    }

    /// Docs/Lifecycle.md: each object is disposed once. A context closed during its own start
    /// (here by a `didInject`), which then fails, or during a validation, was disposed again by
    /// the failed start's clean-up.
    @Test func aContextClosedDuringItsOwnFailedStartOrValidationDisposesEachObjectOnce() throws {
        let log = DisposalLog()
        #expect(throws: ContextError.self) { try ApplicationContext(ClosedWhileStartingFactory(log: log)) }
        #expect(log.keys == ["pool"])
        let validated = DisposalLog()
        _ = ApplicationContext.validate(ClosedWhileStartingFactory(log: validated))
        #expect(validated.keys == ["pool"])
    }

    @Test func disposeMayLookUpAndMakeObjectsInAnotherOpenContext() throws {
        let log = DisposalLog(), closing = ContextSlot(), seen = Observations()
        let services = try ApplicationContext(ServicesFactory(log: log, closing: closing, seen: seen))
        _ = try services.object("made", as: DisposableProbe.self)
        let users = try ApplicationContext(UsersFactory(services: services, closing: closing, seen: seen, log: log))
        closing.context = users
        defer { closing.context = nil }
        let outer = Guarded<ContextError?>(nil)
        let finished = ConcurrencyThreads.run(1) { _ in
            let error = thrownContextError { () throws(ContextError) in try users.close() }
            outer.withLock { $0 = error }
        }
        try #require(finished, "a dispose() looking up objects in another context hung (a library lock held?)")
        #expect(outer.value == nil)
        #expect(seen.all == [
            "close from a closure returned",
            "made, fresh, hook",
            "own context threw \(ContextError.contextClosed(context: "Users", key: "user"))",
        ])
        #expect(log.keys == ["after"], "only Users' own singletons are disposed")
        // The other context is open, with what the dispose made in it.
        #expect(try services.object("fresh", as: DisposableProbe.self).key == "fresh")
    }

    @Test func disposeMayCloseAnotherContext() throws {
        let log = DisposalLog(), scope = ContextSlot()
        let app = try ApplicationContext(ScopeOwnerFactory(scope: scope))
        scope.context = try ApplicationContext(ScopeFactory(log: log), parent: app)
        defer { scope.context = nil }
        let finished = ConcurrencyThreads.run(1) { _ in try? app.close() }
        try #require(finished, "closing a context from inside another's dispose() hung")
        #expect(log.keys == ["unit"])
    }
}
