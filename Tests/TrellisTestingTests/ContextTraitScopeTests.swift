import Synchronization
import Testing
import Trellis
import TrellisTesting
import TrellisTestSupport

// The trait's scope, called directly (`provideScope`), so a test can look at the context before,
// during and after the body: current inside, closed after (disposed as Docs/Lifecycle.md says), also when the body
// throws; a context that cannot be built fails before the body runs.

/// The context a trait built, kept for the test to look at after the scope ended.
private final class BuiltContexts: Sendable {
    private let contexts = Guarded<[ApplicationContext]>([])
    func add(_ context: ApplicationContext) { contexts.withLock { $0.append(context) } }
    var all: [ApplicationContext] { contexts.withLock { $0 } }
}

/// Whether the body ran.
private final class Ran: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var value: Bool { flag.load(ordering: .relaxed) }
}

private struct BodyError: Error, Equatable {}

/// A `.context { … }` trait whose contexts are recorded in `built`.
private func recordingTrait(_ built: BuiltContexts, overriding doubles: (any ObjectFactory)? = nil) -> ContextTrait {
    .context {
        let context = if let doubles { try await ApplicationContext(ShopFactory(), overriding: doubles) } else { try await ApplicationContext(ShopFactory()) }
        built.add(context)
        return context
    }
}

private func expectClosed(_ context: ApplicationContext, sourceLocation: SourceLocation = #_sourceLocation) async {
    let error = await #expect(throws: ContextError.self, sourceLocation: sourceLocation) {
        try await context.object("token", as: ContextToken.self)
    }
    guard case .contextClosed? = error else {
        Issue.record("expected contextClosed, got \(String(describing: error))", sourceLocation: sourceLocation)
        return
    }
}

final class AsyncResource: AsyncDisposable, Sendable {
    private let disposals = Atomic<Int>(0)
    var disposeCount: Int { disposals.load(ordering: .relaxed) }
    func dispose() async {
        await Task.yield()
        disposals.add(1, ordering: .relaxed)
    }
}

struct FailingDisposal: Error {}

final class BrokenResource: Disposable, Sendable {
    func dispose() throws { throw FailingDisposal() }
}

private struct ResourceFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("asyncResource") { AsyncResource() }
        createSingleton("broken") { BrokenResource() }
    }
}

private struct StaleDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailService") { RecordingMailer(tag: "stale") as any ShopMailer }
    }
}

@Suite struct ContextTraitScopeTests {
    @Test func theScopeBindsTheContextForTheBodyAndClosesItAfter() async throws {
        let built = BuiltContexts()
        let trait = recordingTrait(built, overriding: TaggedDoubles(tag: "scope"))
        let resource = Guarded<ShopResource?>(nil)
        let outside = ApplicationContext.current
        try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
            let context = try #require(built.all.first)
            #expect(ApplicationContext.current === context)
            #expect(CheckoutFlow().mailer.tag == "scope")
            let made = try await context.object("resource", as: ShopResource.self)
            resource.withLock { $0 = made }
            #expect(made.disposeCount == 0)
        }
        #expect(built.all.count == 1)
        let context = try #require(built.all.first)
        #expect(try #require(resource.withLock { $0 }).disposeCount == 1)
        await expectClosed(context)
        #expect(ApplicationContext.current === outside)
    }

    @Test func eachScopeBuildsAFreshContext() async throws {
        let built = BuiltContexts()
        let trait = recordingTrait(built)
        for _ in 0..<3 {
            try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                #expect(CheckoutFlow().scratchpad.claim())
            }
        }
        #expect(Set(built.all.map(ObjectIdentifier.init)).count == 3)
    }

    @Test func aBodyErrorIsRethrownAndTheContextIsStillClosed() async throws {
        let built = BuiltContexts()
        let trait = recordingTrait(built)
        let resource = Guarded<ShopResource?>(nil)
        await #expect(throws: BodyError()) {
            try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                let made = try await #require(ApplicationContext.current).object("resource", as: ShopResource.self)
                resource.withLock { $0 = made }
                throw BodyError()
            }
        }
        #expect(try #require(resource.withLock { $0 }).disposeCount == 1)
        await expectClosed(try #require(built.all.first))
    }

    @Test func asyncDisposablesAreDisposedByTheAsyncClose() async throws {
        let trait: ContextTrait = .context(ResourceFactory())
        let resource = Guarded<AsyncResource?>(nil)
        try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
            let made = try await #require(ApplicationContext.current).object("asyncResource", as: AsyncResource.self)
            resource.withLock { $0 = made }
        }
        #expect(try #require(resource.withLock { $0 }).disposeCount == 1)
    }

    @Test func aContextThatFailsToBuildFailsBeforeTheBodyRuns() async throws {
        let trait: ContextTrait = .context(ShopFactory(), overriding: StaleDoubles())
        let ran = Ran()
        let error = await #expect(throws: ContextError.self) {
            try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) { ran.set() }
        }
        guard case let .overrideOfUnknownKey(key, _, _)? = error else {
            Issue.record("expected overrideOfUnknownKey, got \(String(describing: error))")
            return
        }
        #expect(key == "mailService")
        #expect(!ran.value)
    }

    @Test func aClosureThatThrowsFailsBeforeTheBodyRuns() async throws {
        let trait: ContextTrait = .context { throw BodyError() }
        let ran = Ran()
        await #expect(throws: BodyError()) {
            try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) { ran.set() }
        }
        #expect(!ran.value)
    }

    @Test func aContextThatFailsToCloseFailsTheTestAfterTheBody() async throws {
        let trait: ContextTrait = .context(ResourceFactory())
        let ran = Ran()
        let error = await #expect(throws: ContextError.self) {
            try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                _ = try await #require(ApplicationContext.current).object("broken", as: BrokenResource.self)
                ran.set()
            }
        }
        guard case let .disposalFailed(_, failures)? = error else {
            Issue.record("expected disposalFailed, got \(String(describing: error))")
            return
        }
        #expect(failures.map(\.key) == ["broken"])
        #expect(ran.value)
    }

    @Test func whenTheBodyThrowsAndTheContextFailsToCloseTheBodyErrorIsThrownAndTheCloseRecorded() async throws {
        let trait: ContextTrait = .context(ResourceFactory())
        let test = try #require(Test.current)
        let testCase = Test.Case.current
        await withKnownIssue("the trait records the failed close as an issue") {
            await #expect(throws: BodyError()) {
                try await trait.provideScope(for: test, testCase: testCase) {
                    _ = try await #require(ApplicationContext.current).object("broken", as: BrokenResource.self)
                    throw BodyError()
                }
            }
        } matching: { issue in
            if case let .errorCaught(error) = issue.kind, case .disposalFailed? = error as? ContextError { return true }
            return false
        }
    }

    @Test func theTraitScopesEachTestCaseAndNotTheSuite() throws {
        let trait: ContextTrait = .context(ShopFactory())
        let test = try #require(Test.current)
        #expect(trait.isRecursive)
        #expect(trait.scopeProvider(for: test, testCase: nil) == nil)
        let testCase = Test.Case.current
        #expect(testCase != nil)
        #expect(trait.scopeProvider(for: test, testCase: testCase) != nil)
    }
}
