import Testing
import Trellis
import TrellisTestSupport

// Docs/AppTarget.md "A screen scope": `withChild` builds a child context, hands it to its body,
// and closes it when the body returns or throws.

private final class Parent: Sendable {}

private struct ParentFactory: ObjectFactory {
    var contextName: String { "App" }
    var definitions: Definitions {
        createSingleton("parent") { Parent() }
    }
}

private struct ScreenFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "Screen" }
    var definitions: Definitions {
        createSingleton("undo") { [log] r in DisposableProbe("undo", log: log, dependencies: [try r.object("parent", as: Parent.self)]) }
        createSingleton("autosave") { [log] in AsyncDisposableProbe("autosave", log: log) }
        createSingleton("broken") { [log] in DisposableProbe("broken", log: log, failing: "flush failed") }
    }
}

/// Replaces `undo` in tests.
private struct ScreenDoubles: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createSingleton("undo") { [log] in DisposableProbe("undo double", log: log) }
    }
}

private struct ScreenError: Error, Equatable {}

/// An async disposal that opens `disposed`.
private final class LatchedAutosave: AsyncDisposable, Sendable {
    let disposed: ConcurrencyLatch
    init(disposed: ConcurrencyLatch) { self.disposed = disposed }
    func dispose() async { disposed.countDown() }
}

private struct LatchedScreenFactory: ObjectFactory {
    let disposed: ConcurrencyLatch
    var contextName: String { "Screen" }
    var definitions: Definitions {
        createSingleton("autosave") { [disposed] in LatchedAutosave(disposed: disposed) }
        createSingleton("undo") { Parent() }
    }
}

@Suite struct WithChildTests {
    @Test func childIsClosedWhenTheBodyReturns() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(ParentFactory())
        var escaped: ApplicationContext?
        let undo = try app.withChild(ScreenFactory(log: log)) { screen in
            escaped = screen
            #expect(screen.parent === app)
            return try screen.object("undo", as: DisposableProbe.self)
        }
        #expect(undo.key == "undo")
        #expect(log.keys == ["undo"])
        #expect(throws: ContextError.contextClosed(context: "Screen", key: "undo")) {
            _ = try escaped?.object("undo", as: DisposableProbe.self)
        }
        #expect(try app.object("parent", as: Parent.self) === app.object("parent", as: Parent.self))
    }

    @Test func childIsClosedWhenTheBodyThrowsAndTheBodysErrorIsThrown() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(ParentFactory())
        #expect(throws: ScreenError()) {
            try app.withChild(ScreenFactory(log: log)) { screen in
                _ = try screen.object("undo", as: DisposableProbe.self)
                throw ScreenError()
            }
        }
        #expect(log.keys == ["undo"])
    }

    @Test func bodysErrorWinsOverAFailingClose() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(ParentFactory())
        #expect(throws: ScreenError()) {
            try app.withChild(ScreenFactory(log: log)) { screen in
                _ = try screen.object("broken", as: DisposableProbe.self)
                throw ScreenError()
            }
        }
        #expect(log.keys == ["broken"])
    }

    @Test func aFailingCloseIsThrownWhenTheBodyReturns() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(ParentFactory())
        #expect(throws: ContextError.disposalFailed(context: "Screen", failures: [.init(key: "broken", error: "flush failed")])) {
            try app.withChild(ScreenFactory(log: log)) { screen in
                _ = try screen.object("broken", as: DisposableProbe.self)
            }
        }
    }

    @Test func childWithOverridesUsesTheDoubles() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(ParentFactory())
        let key = try app.withChild(ScreenFactory(log: log), overriding: ScreenDoubles(log: log)) { screen in
            try screen.object("undo", as: DisposableProbe.self).key
        }
        #expect(key == "undo double")
        #expect(log.keys == ["undo double"])
    }

    @Test func asyncFormAwaitsAsyncDisposalsOnReturn() async throws {
        let log = DisposalLog()
        let app = try await ApplicationContext(ParentFactory())
        try await app.withChild(ScreenFactory(log: log)) { screen in
            _ = try await screen.object("undo", as: DisposableProbe.self)
            _ = try await screen.object("autosave", as: AsyncDisposableProbe.self)
        }
        #expect(log.keys == ["autosave", "undo"])
    }

    @Test func asyncFormClosesWhenTheBodyThrows() async throws {
        let log = DisposalLog()
        let app = try await ApplicationContext(ParentFactory())
        await #expect(throws: ScreenError()) {
            try await app.withChild(ScreenFactory(log: log), overriding: ScreenDoubles(log: log)) { screen in
                _ = try await screen.object("autosave", as: AsyncDisposableProbe.self)
                throw ScreenError()
            }
        }
        #expect(log.keys == ["autosave"])
    }

    @Test @MainActor func asyncFormRunsItsBodyOnTheCallersActor() async throws {
        let app = try await ApplicationContext(ParentFactory())
        let ranOnMainActor = try await app.withChild(ScreenFactory(log: DisposalLog())) { _ in
            await Task.yield()
            MainActor.assertIsolated("withChild's body left the caller's actor")
            return true
        }
        #expect(ranOnMainActor)
    }

    @Test func synchronousFormRefusesToLeaveAnAsyncDisposableUndisposed() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(ParentFactory())
        #expect(throws: ContextError.requiresAwait(key: "autosave", path: ["close()", "autosave"])) {
            try app.withChild(ScreenFactory(log: log)) { screen in
                _ = try screen.object("autosave", as: AsyncDisposableProbe.self)
            }
        }
    }

    @Test(arguments: [false, true])
    func synchronousFormThatCannotCloseTheChildClosesItInATask(bodyThrows: Bool) async throws {
        // Docs/AppTarget.md: nothing the child made is left undisposed, whether the body
        // returned (the refusal is thrown) or threw (its error wins).
        let disposed = ConcurrencyLatch(count: 1)
        let app = try Sync.start(ParentFactory())
        let escaped = Guarded<ApplicationContext?>(nil)
        let error: (any Error)?
        do {
            try Self.withChildSynchronously(app, LatchedScreenFactory(disposed: disposed)) { screen in
                escaped.withLock { $0 = screen }
                _ = try screen.object("autosave", as: LatchedAutosave.self)
                if bodyThrows { throw ScreenError() }
            }
            error = nil
        } catch let thrown {
            error = thrown
        }
        if bodyThrows {
            #expect(error as? ScreenError == ScreenError(), "the body's error is thrown")
        } else {
            #expect(error as? ContextError == .requiresAwait(key: "autosave", path: ["close()", "autosave"]))
        }
        #expect(await opensInTime(disposed), "the child's async disposable was never disposed")
        let child = try #require(escaped.value)
        #expect(syncError { try Sync.object(child, "undo", as: Parent.self) } == .contextClosed(context: "Screen", key: "undo"))
    }

    /// The synchronous form, from async code.
    private static func withChildSynchronously(_ app: ApplicationContext, _ factory: some ObjectFactory, _ body: (ApplicationContext) throws -> Void) throws {
        try app.withChild(factory, body)
    }

    @Test func failingChildStartDoesNotRunTheBody() throws {
        struct Broken: Error {}
        struct BrokenFactory: ObjectFactory {
            var definitions: Definitions { createEagerSingleton("broken") { () throws -> Parent in throw Broken() } }
        }
        let app = try ApplicationContext(ParentFactory())
        var ran = false
        #expect(throws: ContextError.self) { try app.withChild(BrokenFactory()) { _ in ran = true } }
        #expect(!ran)
    }
}
