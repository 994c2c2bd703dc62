import Testing
import Trellis

// Docs/Injection.md, "Plain init and the current context": a wrapper resolves from the context
// that was current *when it was initialised*. Objects a definition's closure makes with their
// plain `init` (helpers it keeps, not the object it returns, which the context injects) follow
// that rule too, although a lookup's wrappers share one read of the binding.

/// Three screens made with their plain `init` by one definition's closure.
final class CCScreenTrio: Sendable {
    // Safe to share: the screens are only read by the tests, after the lookup returned.
    nonisolated(unsafe) let before: CCScreen
    nonisolated(unsafe) let inner: CCScreen
    nonisolated(unsafe) let after: CCScreen
    init(_ before: CCScreen, _ inner: CCScreen, _ after: CCScreen) {
        self.before = before
        self.inner = inner
        self.after = after
    }
}

/// `trio`: a screen made before a `withCurrent` of `inner`, one inside it, one after it;
/// `plain`: one screen, in a holder the context does not inject.
struct ScreenMakingFactory: ObjectFactory {
    let inner: ApplicationContext
    var definitions: Definitions {
        createPrototype("trio") { [inner] in
            let before = CCScreen()
            let nested = Sync.withCurrent(inner) { CCScreen() }
            return CCScreenTrio(before, nested, CCScreen())
        }
        createPrototype("plain") { UncheckedBox(CCScreen()) }
    }
}

@Suite struct CurrentContextCaptureTests {
    @Test func screensADefinitionMakesAroundANestedWithCurrentEachResolveFromTheContextCurrentThen() throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let maker = try ApplicationContext(ScreenMakingFactory(inner: b))
        let trio = try Sync.withCurrent(a) { try maker.object("trio", as: CCScreenTrio.self) }
        #expect(try trio.before.$mailer.get().tag == "A")
        #expect(try trio.inner.$mailer.get().tag == "B")
        #expect(try trio.after.$mailer.get().tag == "A")
    }

    /// On the main actor, so that both lookups run on one thread: what the first one read of
    /// its task's binding must not be what the second one uses.
    @MainActor
    @Test func lookupsOneAfterTheOtherOnOneThreadEachResolveFromTheirOwnBinding() async throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let maker = try await ApplicationContext(ScreenMakingFactory(inner: b))
        for _ in 0..<3 {
            let first = try await a.withCurrent { try await maker.object("plain", as: UncheckedBox<CCScreen>.self) }
            let second = try await b.withCurrent { try await maker.object("plain", as: UncheckedBox<CCScreen>.self) }
            #expect(try await first.value.$mailer.get().tag == "A")
            #expect(try await second.value.$mailer.get().tag == "B")
        }
    }
}
