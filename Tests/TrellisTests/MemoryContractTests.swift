import Testing
import Trellis
import TrellisTestSupport

// The memory contract (Docs/Lifecycle.md, "What a context keeps alive"): whatever a context was
// asked to do, once the last reference to it (and to its children) is dropped, the contexts and
// every object they made are freed. Each test below performs one public operation — twice, so a
// cache filled by the first call is read by the second — on a context and on a child, on a fresh
// context and on one whose objects are all made, drops everything, and checks with weak
// references. Every object the fixtures make registers itself with a `MadeTracker` as it is
// initialised, so "every object" includes prototypes, type probes and what validation made.

// MARK: - Fixtures

/// Weak references to every object a fixture made.
final class MadeTracker: Sendable {
    private let made = Guarded<[ConcurrencyWeak]>([])

    func note(_ object: AnyObject) {
        made.withLock { $0.append(ConcurrencyWeak(object, String(describing: type(of: object)))) }
    }

    var count: Int { made.value.count }
    /// The type names of the objects still alive.
    var alive: [String] { made.value.filter { $0.object != nil }.map(\.label) }
}

protocol MemoryPlugin: AnyObject {}
/// Conformed to by one definition only, so `object(of:)` finds exactly one.
protocol MemoryAudit: AnyObject {}

class MemoryTracked {
    init(_ tracker: MadeTracker) { tracker.note(self) }
}

final class MemoryClock: MemoryTracked, MemoryPlugin, @unchecked Sendable {}
// Unchecked: the fixtures' objects are only touched by the thread of the test that made them.
final class MemoryStore: MemoryTracked, MemoryPlugin, Disposable, @unchecked Sendable {
    let clock: MemoryClock
    init(_ tracker: MadeTracker, clock: MemoryClock) {
        self.clock = clock
        super.init(tracker)
    }
    func dispose() {}
}

final class MemoryService: MemoryTracked, MemoryPlugin, MemoryAudit, InjectionAware, @unchecked Sendable {
    @Inject var store: MemoryStore
    @Inject(.lazy) var clock: MemoryClock
    func didInject(from context: ApplicationContext) {}
}

/// A prototype with an eager and a lazy property.
final class MemoryRequest: MemoryTracked, @unchecked Sendable {
    @Inject var service: MemoryService
    @Inject(.lazy) var store: MemoryStore
}

final class MemorySession: MemoryTracked, MemoryPlugin, Disposable, @unchecked Sendable {
    let store: MemoryStore
    init(_ tracker: MadeTracker, store: MemoryStore) {
        self.store = store
        super.init(tracker)
    }
    func dispose() {}
}

final class MemoryHandler: MemoryTracked, MemoryPlugin, @unchecked Sendable {
    @Inject var session: MemorySession
    @Inject var service: MemoryService
}

/// Made by the test with its plain `init` (for `inject(into:)` and `withCurrent`).
final class MemoryTarget: @unchecked Sendable {
    @Inject var service: MemoryService
    @Inject var storage: MemoryStore
}

/// Three singletons (one eager), all `MemoryPlugin`s, and a prototype.
struct MemoryAppFactory: ObjectFactory {
    let tracker: MadeTracker
    var contextName: String { "MemoryApp" }
    var definitions: Definitions {
        createEagerSingleton("clock") { [tracker] in MemoryClock(tracker) }
        createSingleton("store") { [tracker] r in MemoryStore(tracker, clock: try r.object("clock")) }
            .aliases("storage")
        createSingleton("service") { [tracker] in MemoryService(tracker) }
        createPrototype("request") { [tracker] in MemoryRequest(tracker) }
    }
}

/// A request's context: a singleton depending on the app's, and a prototype handler.
struct MemoryRequestFactory: ObjectFactory {
    let tracker: MadeTracker
    var contextName: String { "MemoryRequest" }
    var definitions: Definitions {
        createSingleton("session") { [tracker] r in MemorySession(tracker, store: try r.object("storage")) }
        createPrototype("handler") { [tracker] in MemoryHandler(tracker) }
    }
}

/// Replaces the request's session with a double.
struct MemoryRequestDoubles: ObjectFactory {
    let tracker: MadeTracker
    var definitions: Definitions {
        createSingleton("session") { [tracker] r in MemorySession(tracker, store: try r.object("store")) }
    }
}

/// Which context the operation is performed on.
enum MemorySubject: String, CaseIterable, Sendable {
    /// The app context alone.
    case context
    /// A child of the app context (the app is dropped with it).
    case child
}

/// Whether the contexts' objects are made before the operation.
enum MemoryUse: String, CaseIterable, Sendable {
    case fresh
    /// Every definition of the chain looked up once first: every cache can be filled.
    case used
}

/// The contexts of one test case, and what the operations need to rebuild them.
struct MemoryContexts {
    let tracker: MadeTracker
    let app: ApplicationContext
    let child: ApplicationContext?
    var subject: ApplicationContext { child ?? app }

    init(_ subject: MemorySubject, tracker: MadeTracker) throws {
        self.tracker = tracker
        app = try ApplicationContext(MemoryAppFactory(tracker: tracker))
        child = subject == .child ? try ApplicationContext(MemoryRequestFactory(tracker: tracker), parent: app) : nil
    }

    init(_ subject: MemorySubject, tracker: MadeTracker) async throws {
        self.tracker = tracker
        app = try await ApplicationContext(MemoryAppFactory(tracker: tracker))
        child = subject == .child ? try await ApplicationContext(MemoryRequestFactory(tracker: tracker), parent: app) : nil
    }

    /// Looks up every definition of the chain once (prototypes included).
    func useEverything() throws {
        for key in app.keys { _ = try subject.object(key, as: Any.self) }
        for key in child?.keys ?? [] { _ = try subject.object(key, as: Any.self) }
    }

    /// Weak references to the contexts.
    var weakContexts: [ConcurrencyWeak] {
        [ConcurrencyWeak(app, "app context")] + (child.map { [ConcurrencyWeak($0, "child context")] } ?? [])
    }

    /// The key and the by-type query a child or an app answers itself.
    var ownPrototype: String { child == nil ? "request" : "handler" }
}

/// The synchronous public operations of a context.
enum MemorySyncOperation: String, CaseIterable, Sendable {
    case objectByKey, objectByAlias, prototypeByKey, optionalByKey
    case objectOfClass, objectOfProtocol, objectOfAmbiguousProtocol
    case objectsOfProtocol, objectsOfAnyObject, objectsOfClass
    case injectInto, validateFactory, validateContext
    case description, namesAndContains, graph, startupReport, withCurrent, overridingChild, close

    func perform(on contexts: MemoryContexts) throws {
        let subject = contexts.subject
        switch self {
        case .objectByKey: _ = try subject.object("service", as: MemoryService.self)
        case .objectByAlias: _ = try subject.object("storage", as: MemoryStore.self)
        case .prototypeByKey: _ = try subject.object(contexts.ownPrototype, as: AnyObject.self)
        case .optionalByKey: _ = try subject.object("service", as: MemoryService?.self)
        case .objectOfClass: _ = try subject.object(of: MemoryService.self)
        case .objectOfProtocol: _ = try subject.object(of: (any MemoryAudit).self)
        case .objectOfAmbiguousProtocol:
            #expect(throws: ContextError.self) { try subject.object(of: (any MemoryPlugin).self) }
        case .objectsOfProtocol: #expect(try subject.objects(of: (any MemoryPlugin).self).count == (contexts.child == nil ? 3 : 5))
        case .objectsOfAnyObject: #expect(try subject.objects(of: AnyObject.self).count == (contexts.child == nil ? 4 : 6))
        case .objectsOfClass: #expect(try subject.objects(of: MemoryStore.self).count == 1)
        case .injectInto:
            let target = MemoryTarget()
            try subject.inject(into: target)
            _ = target.service
        case .validateFactory:
            let report = contexts.child == nil
                ? ApplicationContext.validate(MemoryAppFactory(tracker: contexts.tracker))
                : ApplicationContext.validate(MemoryRequestFactory(tracker: contexts.tracker), parent: contexts.app)
            #expect(report.problems.isEmpty)
            _ = report.graph(.dot)
        case .validateContext:
            let report = subject.validate()
            #expect(report.problems.isEmpty)
            _ = report.graph(.mermaid)
        case .description:
            #expect(!subject.description.isEmpty)
            #expect(!subject.description(includingParents: true).isEmpty)
        case .namesAndContains:
            #expect(subject.contains("storage") && !subject.contains("missing"))
            #expect(!subject.keys.isEmpty && subject.parent === contexts.child?.parent)
        case .overridingChild:
            // A context with test doubles, under the subject, asked by type and dropped.
            let doubled = try ApplicationContext(MemoryRequestFactory(tracker: contexts.tracker), overriding: MemoryRequestDoubles(tracker: contexts.tracker), parent: subject)
            #expect(try doubled.objects(of: (any MemoryPlugin).self).count >= 4)
        case .graph:
            #expect(!subject.graph(.dot).isEmpty)
            #expect(!subject.graph(.mermaid).isEmpty)
        case .startupReport: _ = contexts.app.startupReport.description + subject.startupReport.description
        case .withCurrent:
            try subject.withCurrent {
                let target = MemoryTarget()
                _ = try target.$storage.get()
                _ = try subject.object(of: (any MemoryAudit).self)
            }
        case .close: try subject.close()
        }
    }
}

/// The async public operations of a context (the contexts are started with the async `init`).
enum MemoryAsyncOperation: String, CaseIterable, Sendable {
    case objectByKey, prototypeByKey, objectOfProtocol, objectsOfProtocol, objectsOfAnyObject
    case injectInto, validateFactory, validateContext, withCurrent, close

    func perform(on contexts: MemoryContexts) async throws {
        let subject = contexts.subject
        switch self {
        case .objectByKey: _ = try await subject.object("storage", as: MemoryStore.self)
        case .prototypeByKey: _ = try await subject.object(contexts.ownPrototype, as: AnyObject.self)
        case .objectOfProtocol: _ = try await subject.object(of: (any MemoryAudit).self)
        case .objectsOfProtocol: #expect(try await subject.objects(of: (any MemoryPlugin).self).count == (contexts.child == nil ? 3 : 5))
        case .objectsOfAnyObject: #expect(try await subject.objects(of: AnyObject.self).count == (contexts.child == nil ? 4 : 6))
        case .injectInto:
            let target = MemoryTarget()
            try await subject.inject(into: target)
            _ = target.service
        case .validateFactory:
            let report = contexts.child == nil
                ? await ApplicationContext.validate(MemoryAppFactory(tracker: contexts.tracker))
                : await ApplicationContext.validate(MemoryRequestFactory(tracker: contexts.tracker), parent: contexts.app)
            #expect(report.problems.isEmpty)
        case .validateContext:
            #expect(await subject.validate().problems.isEmpty)
        case .withCurrent:
            try await subject.withCurrent {
                let target = MemoryTarget()
                _ = try await target.$storage.get()
                _ = try await subject.objects(of: (any MemoryPlugin).self)
            }
        case .close: try await subject.close()
        }
    }
}

/// Checks that `contexts` and every object `tracker` saw made are freed; `tracker` must have
/// seen something, so the check is never vacuous.
func expectNothingAlive(_ contexts: [ConcurrencyWeak], _ tracker: MadeTracker, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for context in contexts {
        #expect(context.object == nil, "\(what): the \(context.label) outlived its last reference", sourceLocation: sourceLocation)
    }
    #expect(tracker.count > 0, "\(what): nothing was made, so nothing was checked", sourceLocation: sourceLocation)
    #expect(tracker.alive.isEmpty, "\(what): still alive after the contexts were dropped: \(tracker.alive)", sourceLocation: sourceLocation)
}

// MARK: - Tests

@Suite("Memory contract: nothing outlives its context")
struct MemoryContractTests {
    /// Builds the contexts, performs `operation` twice, drops everything; returns weak references.
    private func performAndDrop(_ operation: MemorySyncOperation, on subject: MemorySubject, _ use: MemoryUse, tracker: MadeTracker) throws -> [ConcurrencyWeak] {
        let contexts = try MemoryContexts(subject, tracker: tracker)
        if use == .used { try contexts.useEverything() }
        try operation.perform(on: contexts)
        try operation.perform(on: contexts)
        return contexts.weakContexts
    }

    @Test(arguments: MemorySyncOperation.allCases, MemorySubject.allCases)
    func everySynchronousOperationLeavesNothingAliveOnceTheContextIsDropped(_ operation: MemorySyncOperation, _ subject: MemorySubject) throws {
        for use in MemoryUse.allCases {
            let tracker = MadeTracker()
            let contexts = try performAndDrop(operation, on: subject, use, tracker: tracker)
            expectNothingAlive(contexts, tracker, "\(operation) on a \(use) \(subject)")
        }
    }

    private func performAndDrop(_ operation: MemoryAsyncOperation, on subject: MemorySubject, _ use: MemoryUse, tracker: MadeTracker) async throws -> [ConcurrencyWeak] {
        let contexts = try await MemoryContexts(subject, tracker: tracker)
        if use == .used { try contexts.useEverything() }
        try await operation.perform(on: contexts)
        try await operation.perform(on: contexts)
        return contexts.weakContexts
    }

    @Test(arguments: MemoryAsyncOperation.allCases, MemorySubject.allCases)
    func everyAsyncOperationLeavesNothingAliveOnceTheContextIsDropped(_ operation: MemoryAsyncOperation, _ subject: MemorySubject) async throws {
        for use in MemoryUse.allCases {
            let tracker = MadeTracker()
            let contexts = try await performAndDrop(operation, on: subject, use, tracker: tracker)
            expectNothingAlive(contexts, tracker, "async \(operation) on a \(use) \(subject)")
        }
    }

    /// Docs/Testing.md, "Validate": the scratch context is thrown away. A report kept (for its
    /// graph) holds neither the objects the validation made nor the parent it was given.
    @Test func aValidationReportKeepsNoObjectNorTheParent() async throws {
        let tracker = MadeTracker()
        var app: ApplicationContext? = try Sync.start(MemoryAppFactory(tracker: tracker))
        let weakApp = ConcurrencyWeak(app!, "the parent")
        let report = Sync.validate(MemoryRequestFactory(tracker: tracker), parent: app)
        let awaited = await ApplicationContext.validate(MemoryRequestFactory(tracker: tracker), parent: app)
        app = nil
        #expect(weakApp.object == nil, "the parent outlived its context through a report")
        #expect(tracker.alive.isEmpty, "kept by a report: \(tracker.alive)")
        #expect(report.graph().contains("digraph") && awaited.graph().contains("digraph"))
        withExtendedLifetime((report, awaited)) {}
    }

    /// A server's request loop: a child per request asks for "every plugin" and is dropped; the
    /// app, still alive, keeps only its own objects.
    @Test func childContextsPerRequestAskingByTypeAreAllFreedWhileTheAppLivesOn() throws {
        let tracker = MadeTracker()
        let app = try ApplicationContext(MemoryAppFactory(tracker: tracker))
        _ = try app.objects(of: (any MemoryPlugin).self)
        let appObjects = tracker.alive.count
        var children: [ConcurrencyWeak] = []
        for _ in 0..<20 {
            let child = try ApplicationContext(MemoryRequestFactory(tracker: tracker), parent: app)
            _ = try child.objects(of: (any MemoryPlugin).self)
            _ = try child.object(of: MemorySession.self)
            children.append(ConcurrencyWeak(child, "child context"))
        }
        #expect(children.allSatisfy { $0.object == nil }, "a request's child context outlived the request")
        #expect(tracker.alive.count == appObjects, "only the app's own objects stay: \(tracker.alive)")
        withExtendedLifetime(app) {}
    }
}

// MARK: - Starts that do not finish

private struct MemoryStartFailure: Error {}

/// Eager singletons, the third of which fails: the first two are made and must be freed.
private struct MemoryFailingFactory: ObjectFactory {
    let tracker: MadeTracker
    var definitions: Definitions {
        createEagerSingleton("clock") { [tracker] in MemoryClock(tracker) }
        createEagerSingleton("store") { [tracker] r in MemoryStore(tracker, clock: try r.object("clock")) }
        createEagerSingleton("broken") { () throws -> MemoryClock in throw MemoryStartFailure() }
    }
}

/// An async eager singleton that waits until its start is cancelled, after others were made.
private struct MemoryCancelledFactory: ObjectFactory {
    let tracker: MadeTracker
    let waiting: ConcurrencyLatch
    var definitions: Definitions {
        createEagerSingleton("clock") { [tracker] in MemoryClock(tracker) }
        createEagerSingleton("store") { [tracker] r async throws in MemoryStore(tracker, clock: try await r.object("clock")) }
        createEagerSingleton("slow") { [tracker, waiting] () async throws -> MemoryClock in
            let clock = MemoryClock(tracker)
            waiting.countDown()
            // Never opened: only the start's cancellation ends the wait.
            guard await AsyncGate().waitUnlessCancelled() else { throw CancellationError() }
            return clock
        }
    }
}

@Suite("Memory contract: starts that do not finish")
struct MemoryContractStartTests {
    /// A failed start alone, then under a parent; returns a weak reference to the parent.
    private func failStarts(_ tracker: MadeTracker) throws -> [ConcurrencyWeak] {
        #expect(throws: ContextError.self) { try ApplicationContext(MemoryFailingFactory(tracker: tracker)) }
        let parent = try ApplicationContext(MemoryAppFactory(tracker: tracker))
        #expect(throws: ContextError.self) { try ApplicationContext(MemoryFailingFactory(tracker: tracker), parent: parent) }
        return [ConcurrencyWeak(parent, "parent context")]
    }

    @Test func aFailedSynchronousStartFreesWhatItMade() throws {
        let tracker = MadeTracker()
        expectNothingAlive(try failStarts(tracker), tracker, "a failed synchronous start")
    }

    private func failStarts(_ tracker: MadeTracker) async throws -> [ConcurrencyWeak] {
        await #expect(throws: ContextError.self) { try await ApplicationContext(MemoryFailingFactory(tracker: tracker)) }
        let parent = try await ApplicationContext(MemoryAppFactory(tracker: tracker))
        await #expect(throws: ContextError.self) { try await ApplicationContext(MemoryFailingFactory(tracker: tracker), parent: parent) }
        return [ConcurrencyWeak(parent, "parent context")]
    }

    @Test func aFailedAsyncStartFreesWhatItMade() async throws {
        let tracker = MadeTracker()
        expectNothingAlive(try await failStarts(tracker), tracker, "a failed async start")
    }

    /// Starts a context whose slow eager singleton waits, cancels the start once it waits.
    private func cancelStart(_ subject: MemorySubject, _ tracker: MadeTracker) async throws -> [ConcurrencyWeak] {
        let parent = subject == .child ? try await ApplicationContext(MemoryAppFactory(tracker: tracker)) : nil
        let waiting = ConcurrencyLatch(count: 1)
        let start = Task { [parent] in
            _ = try await ApplicationContext(MemoryCancelledFactory(tracker: tracker, waiting: waiting), parent: parent)
        }
        try #require(await opensInTime(waiting), "the slow eager singleton never started")
        start.cancel()
        let outcome = await AsyncHangGuard.run("a cancelled start") { await start.result }
        #expect(throws: ContextError.self) { try outcome?.get() }
        return parent.map { [ConcurrencyWeak($0, "parent context")] } ?? []
    }

    @Test(arguments: MemorySubject.allCases)
    func aCancelledAsyncStartFreesWhatItMade(_ subject: MemorySubject) async throws {
        let tracker = MadeTracker()
        expectNothingAlive(try await cancelStart(subject, tracker), tracker, "a cancelled async start on a \(subject)")
    }
}

// MARK: - The process-wide default

@Suite("Memory contract: the default context")
struct MemoryContractDefaultTests {
    // An exit test: `setDefault` is process-wide, and tests run in parallel (see
    // CurrentContextDefaultTests); a failed check stops the child process.
    @Test func setDefaultNilFreesTheDefaultAndEverythingItMade() async {
        await #expect(processExitsWith: .success) {
            let tracker = MadeTracker()
            var weak: [ConcurrencyWeak] = []
            do {
                let app = try ApplicationContext(MemoryAppFactory(tracker: tracker))
                let child = try ApplicationContext(MemoryRequestFactory(tracker: tracker), parent: app)
                weak = [ConcurrencyWeak(app, "app context"), ConcurrencyWeak(child, "child context")]
                ApplicationContext.setDefault(child)
                let target = MemoryTarget()
                _ = try target.$storage.get()
                _ = try child.objects(of: (any MemoryPlugin).self)
                _ = try ApplicationContext.current?.object(of: (any MemoryAudit).self)
                ApplicationContext.setDefault(app)
                _ = try MemoryTarget().$service.get()
            } catch {
                fatalError("unexpected error: \(error)")
            }
            ApplicationContext.setDefault(nil)
            if weak.contains(where: { $0.object != nil }) { fatalError("a context outlived setDefault(nil)") }
            if tracker.count == 0 || !tracker.alive.isEmpty { fatalError("still alive after setDefault(nil): \(tracker.alive)") }
        }
    }
}
