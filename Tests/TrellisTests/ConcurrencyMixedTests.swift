import Testing
import Trellis
import TrellisTestSupport

private final class MixedConfig {}
private final class MixedStore {}
private final class MixedMailer {
    let config: MixedConfig
    init(config: MixedConfig) { self.config = config }
}
private final class MixedRequest {
    let mailer: MixedMailer
    init(mailer: MixedMailer) { self.mailer = mailer }
}

/// A singleton shared by every thread, read only after the context injected it.
private final class MixedController: @unchecked Sendable {
    @Inject(.lazy) var mailer: MixedMailer
    @Inject("mailService", .lazy) var service: MixedMailer
    @Inject var store: MixedStore
    @Inject("request", .lazy) var firstRequest: MixedRequest
}

/// How often each key's closure ran.
private final class MixedCounts: Sendable {
    private let counts = Guarded<[String: Int]>([:])
    func made(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
    var value: [String: Int] { counts.value }
}

private struct MixedParentFactory: ObjectFactory {
    let counts: MixedCounts
    var definitions: Definitions {
        createEagerSingleton("config") { [counts] in counts.made("config"); return MixedConfig() }
        createSingleton("store") { [counts] in counts.made("store"); return MixedStore() }
    }
}

private struct MixedChildFactory: ObjectFactory {
    let counts: MixedCounts
    /// When set, a request's closure waits for it: the test opens it once every thread is reading.
    let requestHold: ConcurrencyLatch?
    var definitions: Definitions {
        createSingleton("mailer") { [counts] r in
            counts.made("mailer")
            return MixedMailer(config: try r.object("CONFIG"))
        }.aliases("mailService")
        createSingleton("controller") { [counts] in counts.made("controller"); return MixedController() }
        createPrototype("request") { [counts, requestHold] r in
            counts.made("request")
            requestHold?.wait()
            return MixedRequest(mailer: try r.object("mailService"))
        }
    }
}

/// What one thread saw: the identity of every singleton by the name it asked, and the
/// prototypes it got (kept alive so their identities stay unique).
private struct MixedObservation: Sendable {
    var singletons: [String: ObjectIdentifier] = [:]
    var prototypes: [ObjectIdentifier] = []
}

/// One lookup of the mix, by the name it records.
private let mixedLookups: [(name: String, look: @Sendable (ApplicationContext, inout MixedObservation, Guarded<[AnyObject]>) throws -> Void)] = [
    ("mailer", { c, o, _ in o.singletons["mailer"] = ObjectIdentifier(try c.object("mailer", as: MixedMailer.self)) }),
    ("mailService", { c, o, _ in o.singletons["mailService"] = ObjectIdentifier(try c.object("mailService", as: MixedMailer.self)) }),
    ("MAILER", { c, o, _ in o.singletons["MAILER"] = ObjectIdentifier(try c.object("MAILER", as: MixedMailer.self)) }),
    ("config", { c, o, _ in o.singletons["config"] = ObjectIdentifier(try c.object("config", as: MixedConfig.self)) }),
    ("store", { c, o, _ in o.singletons["store"] = ObjectIdentifier(try c.object("store", as: MixedStore.self)) }),
    ("STORE", { c, o, _ in o.singletons["STORE"] = ObjectIdentifier(try c.object("STORE", as: MixedStore.self)) }),
    ("controller", { c, o, _ in
        let controller = try c.object("CONTROLLER", as: MixedController.self)
        o.singletons["controller"] = ObjectIdentifier(controller)
        o.singletons["controller.mailer"] = ObjectIdentifier(controller.mailer)
        o.singletons["controller.service"] = ObjectIdentifier(controller.service)
        o.singletons["controller.store"] = ObjectIdentifier(controller.store)
        o.singletons["controller.firstRequest"] = ObjectIdentifier(controller.firstRequest)
    }),
    ("request", { c, o, keep in
        let request = try c.object("request", as: MixedRequest.self)
        keep.withLock { $0.append(request) }
        o.prototypes.append(ObjectIdentifier(request))
        o.singletons["request.mailer"] = ObjectIdentifier(request.mailer)
    }),
]

/// Runs every lookup of the mix, starting at a different one per `thread`, so that different
/// threads make different singletons first.
private func observe(_ context: ApplicationContext, thread: Int, keep: Guarded<[AnyObject]>) throws -> MixedObservation {
    var observation = MixedObservation()
    for step in 0..<(mixedLookups.count * 2) {
        try mixedLookups[(thread + step) % mixedLookups.count].look(context, &observation, keep)
    }
    return observation
}

/// A parent and a child context with nothing lazy made yet.
private func freshContexts(requestHold: ConcurrencyLatch? = nil) throws -> (context: ApplicationContext, counts: MixedCounts) {
    let counts = MixedCounts()
    let parent = try ApplicationContext(MixedParentFactory(counts: counts))
    return (try ApplicationContext(MixedChildFactory(counts: counts, requestHold: requestHold), parent: parent), counts)
}

/// What every thread must have seen, checked against one thread's lookups made afterwards.
private func check(_ observations: [MixedObservation], in context: ApplicationContext, counts: MixedCounts, keep: Guarded<[AnyObject]>, round: Int) throws {
    let reference = try observe(context, thread: 0, keep: keep)
    for (thread, observation) in observations.enumerated() {
        #expect(observation.singletons == reference.singletons, "round \(round), thread \(thread): other singletons than one thread sees")
    }
    let mailer = try #require(reference.singletons["mailer"])
    for name in ["mailService", "MAILER", "controller.mailer", "controller.service", "request.mailer"] {
        #expect(reference.singletons[name] == mailer, "round \(round): \(name) is not the mailer singleton")
    }
    #expect(reference.singletons["STORE"] == reference.singletons["store"] && reference.singletons["controller.store"] == reference.singletons["store"])
    let prototypes = (observations + [reference]).flatMap(\.prototypes) + [try #require(reference.singletons["controller.firstRequest"])]
    #expect(Set(prototypes).count == prototypes.count, "round \(round): a prototype was handed out twice")
    let made = counts.value
    #expect(made["request"] == prototypes.count, "round \(round): prototypes made \(made["request"] ?? 0) times for \(prototypes.count) lookups")
    for key in ["config", "store", "mailer", "controller"] {
        #expect(made[key] == 1, "round \(round): '\(key)' made \(made[key] ?? 0) times")
    }
}

@Suite("Concurrency: mixed lookups from threads and tasks")
struct ConcurrencyMixedTests {
    @Test func mixedLookupsFromEightThreadsSeeTheSingletonsOneThreadSees() throws {
        let threads = 8
        for round in 0..<30 {
            let (context, counts) = try freshContexts()
            let start = ConcurrencyBarrier(parties: threads)
            let keep = Guarded<[AnyObject]>([])
            let observations = Guarded<[MixedObservation]>([])
            let problems = Guarded<[String]>([])
            let finished = ConcurrencyThreads.run(threads) { thread in
                start.arriveAndWait()
                do {
                    let observation = try observe(context, thread: thread, keep: keep)
                    observations.withLock { $0.append(observation) }
                } catch {
                    problems.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
            try #require(finished, "round \(round): threads did not finish: a lookup deadlocked")
            #expect(problems.value.isEmpty, "round \(round)")
            try check(observations.value, in: context, counts: counts, keep: keep, round: round)
        }
    }

    @Test func mixedLookupsFromATaskGroupSeeTheSingletonsOneThreadSees() async throws {
        for round in 0..<30 {
            let (context, counts) = try freshContexts()
            let keep = Guarded<[AnyObject]>([])
            let observations = try await withThrowingTaskGroup(of: MixedObservation.self) { group in
                for task in 0..<8 {
                    group.addTask { try observe(context, thread: task, keep: keep) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try check(observations, in: context, counts: counts, keep: keep, round: round)
        }
    }

    @Test func lazyInjectedPrototypeReadByEightThreadsAtOnceIsMadeOnce() throws {
        let threads = 8
        for round in 0..<50 {
            let reading = ConcurrencyLatch(count: threads)
            let (context, counts) = try freshContexts(requestHold: reading)
            let controller = try context.object("controller", as: MixedController.self)
            #expect(counts.value["request"] == nil, "a lazy property was looked up at injection")
            let start = ConcurrencyBarrier(parties: threads)
            let seen = Guarded<Set<ObjectIdentifier>>([])
            let finished = ConcurrencyThreads.run(threads) { _ in
                start.arriveAndWait()
                // Counted before reading; the request's closure waits for all eight, so every
                // thread reads while the first read is still looking it up.
                reading.countDown()
                let request = controller.firstRequest
                _ = seen.withLock { $0.insert(ObjectIdentifier(request)) }
            }
            try #require(finished, "round \(round): threads did not finish: a lazy property deadlocked")
            #expect(seen.value == [ObjectIdentifier(controller.firstRequest)], "round \(round): threads saw different objects")
            #expect(counts.value["request"] == 1, "round \(round): the lazy property was looked up \(counts.value["request"] ?? 0) times")
        }
    }
}

// MARK: - A synchronous lookup in a task while an async lookup makes a synchronous singleton

private final class MixedGatedDependency: Sendable {}

private final class MixedGatedOwner {
    @Inject var gated: MixedGatedDependency
}

/// Only synchronous definitions: it validates cleanly, so no lookup may throw `requiresAwait`.
/// `gated` holds its first making until the test opens `release`.
private struct MixedGatedFactory: ObjectFactory {
    let entered = ConcurrencyLatch(count: 1)
    let release = ConcurrencyLatch(count: 1)
    var definitions: Definitions {
        createSingleton("owner") { MixedGatedOwner() }
        createSingleton("gated") { [entered, release] () -> MixedGatedDependency in
            entered.countDown()
            release.wait()
            return MixedGatedDependency()
        }
    }
}

/// A synchronous lookup, from whatever runs the caller (here: a task).
private func mixedSynchronousLookUp(_ context: ApplicationContext, _ key: String) -> ContextError? {
    do throws(ContextError) {
        _ = try context.object(key, as: AnyObject.self)
        return nil
    } catch {
        return error
    }
}

extension ConcurrencyMixedTests {
    @Test func synchronousLookupInATaskOfASynchronousSingletonAnAsyncLookupIsMakingIsNotRequiresAwait() async throws {
        // Found while testing issue 10, point 9 (main-actor definitions from many tasks): Docs/Async.md
        // (requiresAwait) says a factory that validates cleanly never throws requiresAwait at a lookup.
        let opened = MixedGatedFactory()
        opened.release.countDown()
        #expect(await ApplicationContext.validate(opened).problems.isEmpty)
        let factory = MixedGatedFactory()
        let context = try await ApplicationContext(factory)
        let maker = Task.detached { () async -> ContextError? in
            do throws(ContextError) {
                _ = try await context.object("owner", as: MixedGatedOwner.self)
                return nil
            } catch {
                return error
            }
        }
        try #require(factory.entered.wait(), "the async lookup never reached 'gated'")
        // The async lookup is now injecting 'owner' (inside 'gated''s closure). A synchronous
        // lookup from another task must wait for it (or make nothing), not claim 'owner' is async.
        let starting = ConcurrencyLatch(count: 1)
        let asker = Task.detached { () -> ContextError? in
            starting.countDown()
            return mixedSynchronousLookUp(context, "owner")
        }
        // Opens the gate once the asker is on its way; a thread, not a task: the maker and the
        // asker may hold every thread of the cooperative pool. The asker usually reaches 'owner'
        // before the gate opens; when it does not, it finds 'owner' made and the test passes
        // without having checked anything (never the other way round).
        let releaser = ConcurrencyThreads.start(1) { _ in
            starting.wait()
            factory.release.countDown()
        }
        let error = await asker.value
        try #require(releaser.wait())
        #expect(await maker.value == nil)
        if case .requiresAwait? = error {
            Issue.record("a synchronous lookup of a synchronous singleton threw: \(error!)")
        } else {
            #expect(error == nil, "\(String(describing: error))")
        }
    }
}
