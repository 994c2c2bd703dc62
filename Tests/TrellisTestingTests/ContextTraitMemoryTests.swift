import Testing
import Trellis
import TrellisTesting
import TrellisTestSupport

// The memory contract for the `.context` trait (Docs/Testing.md): once a test case that used the
// trait is over, its context — a plain one or a child of a shared parent — and every object it
// made are freed. The test runs the trait's scope itself (`provideScope`), as Swift Testing does
// around a test, so it can look after the scope ends.

/// Weak references to every object the fixture made, as each is initialised.
private final class TraitMadeTracker: Sendable {
    private let made = Guarded<[TraitWeak]>([])
    func note(_ object: AnyObject) { made.withLock { $0.append(TraitWeak(object)) } }
    var count: Int { made.withLock { $0.count } }
    var alive: [String] { made.withLock { $0.compactMap { $0.object.map { String(describing: type(of: $0)) } } } }
}

private final class TraitWeak: @unchecked Sendable {
    // Safe: written once in `init`; `weak` loads and stores are atomic in the runtime.
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

private protocol TraitPlugin: AnyObject {}

private class TraitTracked: TraitPlugin, @unchecked Sendable {
    // Unchecked: the objects are used by the one test that made them.
    init(_ tracker: TraitMadeTracker) { tracker.note(self) }
}
private final class TraitClock: TraitTracked, @unchecked Sendable {}
private final class TraitStore: TraitTracked, @unchecked Sendable {}
private final class TraitSession: TraitTracked, @unchecked Sendable {}

/// Made by the test body with its plain `init`: resolves from the trait's current context.
private final class TraitScreen {
    @Inject var store: TraitStore
    @Inject var session: TraitSession?
}

private struct TraitAppFactory: ObjectFactory {
    let tracker: TraitMadeTracker
    var definitions: Definitions {
        createEagerSingleton("clock") { [tracker] in TraitClock(tracker) }
        createSingleton("store") { [tracker] in TraitStore(tracker) }
        createPrototype("screenStore") { [tracker] in TraitStore(tracker) }
    }
}

private struct TraitRequestFactory: ObjectFactory {
    let tracker: TraitMadeTracker
    var definitions: Definitions {
        createSingleton("session") { [tracker] in TraitSession(tracker) }
    }
}

@Suite("Memory contract: the .context trait")
struct ContextTraitMemoryTests {
    enum Form: String, CaseIterable, Sendable { case factory, childOfASharedParent }

    /// Runs a test body under the trait: it uses the current context every way a test would
    /// (plain-init injection, lookups by key and by type); returns weak references to the
    /// contexts.
    private func runUnderTheTrait(_ form: Form, _ tracker: TraitMadeTracker) async throws -> [TraitWeak] {
        let parent = form == .childOfASharedParent ? try await ApplicationContext(TraitAppFactory(tracker: tracker)) : nil
        let trait: ContextTrait = switch form {
        case .factory: .context(TraitAppFactory(tracker: tracker))
        case .childOfASharedParent: .context { [parent] in try await ApplicationContext(TraitRequestFactory(tracker: tracker), parent: parent) }
        }
        let contexts = Guarded<[TraitWeak]>(parent.map { [TraitWeak($0)] } ?? [])
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let context = try #require(ApplicationContext.current)
            contexts.withLock { $0.append(TraitWeak(context)) }
            let screen = TraitScreen()
            _ = screen.store
            #expect(try await context.objects(of: (any TraitPlugin).self).count >= 2)
            _ = try await context.objects(of: AnyObject.self)
            _ = try await context.object(of: TraitClock.self)
            _ = try await context.object("store", as: TraitStore.self)
        }
        return contexts.withLock { $0 }
    }

    @Test(arguments: Form.allCases)
    func aTestCasesContextAndEverythingItMadeAreFreedWhenTheTestEnds(_ form: Form) async throws {
        let tracker = TraitMadeTracker()
        let contexts = try await runUnderTheTrait(form, tracker)
        #expect(!contexts.isEmpty)
        #expect(contexts.allSatisfy { $0.object == nil }, "the test's context outlived the test (\(form))")
        #expect(tracker.count > 0)
        #expect(tracker.alive.isEmpty, "still alive after the test (\(form)): \(tracker.alive)")
    }
}
