import Testing
@testable import Trellis
import TrellisTestSupport

// Docs/Async.md ("What a synchronous step of an awaited lookup waits for"): the synchronous
// steps of an awaited lookup — a synchronous closure, the filling of properties, `didInject` —
// behave as in a blocking lookup. A lookup `didInject` makes is nested in the injection (a
// property cycle's partner is taken early, not waited for forever), and a wait a synchronous
// step must not make (for a singleton whose maker has suspended) is made by the awaited lookup,
// suspending, before it makes the object again: a factory that validates cleanly gets no
// `requiresAwait` from an awaited lookup or start.

// MARK: - didInject looking up its property-cycle partner

private final class Partnered: InjectionAware, @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var partner: Partner
    @Inject("partner", .lazy) var lazyPartner: Partner
    let readsLazily: Bool
    // Safe: written once, in `didInject`, before the object is handed out.
    var seen: Partner?

    init(readsLazily: Bool) { self.readsLazily = readsLazily }

    func didInject(from context: ApplicationContext) {
        seen = readsLazily ? try? $lazyPartner.get() : try? context.object("partner", as: Partner.self)
    }
}

private final class Partner: @unchecked Sendable {
    // Safe: as above.
    @Inject var partnered: Partnered
}

private struct PartnerCycleFactory: ObjectFactory {
    let readsLazily: Bool
    let isEager: Bool

    var definitions: Definitions {
        if isEager {
            createEagerSingleton("partnered") { [readsLazily] in Partnered(readsLazily: readsLazily) }
        } else {
            createSingleton("partnered") { [readsLazily] in Partnered(readsLazily: readsLazily) }
        }
        createSingleton("partner") { Partner() }
    }
}

private func expectWired(_ partnered: Partnered, _ partner: Partner) {
    #expect(partnered.partner === partner)
    #expect(partner.partnered === partnered)
    #expect(partnered.seen === partner, "didInject did not get the partner")
}

@Test(arguments: [false, true], ["partnered", "partner"])
func anAwaitedLookupWhoseDidInjectAsksForItsCyclePartnerCompletes(readsLazily: Bool, key: String) async throws {
    let context = try Sync.start(PartnerCycleFactory(readsLazily: readsLazily, isEager: false))
    let made = await AsyncHangGuard.run("the awaited lookup of \(key)") { () -> Bool in
        (try? await context.object(key, as: AnyObject.self)) != nil
    }
    try #require(made == true, "the awaited lookup of \(key) failed or hung")
    expectWired(try await context.object("partnered", as: Partnered.self), try await context.object("partner", as: Partner.self))
}

@Test(arguments: [false, true])
func anAsyncStartWhoseEagerSingletonAsksForItsCyclePartnerInDidInjectCompletes(readsLazily: Bool) async throws {
    let started = await AsyncHangGuard.run("the async start") { () -> ApplicationContext? in
        try? await ApplicationContext(PartnerCycleFactory(readsLazily: readsLazily, isEager: true))
    }
    let context = try #require(started ?? nil, "the async start failed or hung")
    expectWired(try await context.object("partnered", as: Partnered.self), try await context.object("partner", as: Partner.self))
}

@Test(arguments: [false, true])
func theAsyncValidationOfSuchACycleCompletesClean(readsLazily: Bool) async throws {
    let problems = await AsyncHangGuard.run("the async validation") { () -> Int in
        await ApplicationContext.validate(PartnerCycleFactory(readsLazily: readsLazily, isEager: true)).problems.count
    }
    #expect(problems == 0)
}

// MARK: - A synchronous step meeting a singleton whose maker has suspended

/// `held` is made by a thread the test steers (its closure blocks there, never on a thread of
/// the cooperative pool); `injected` injects it; `user`'s synchronous closure looks `injected`
/// up, and `screen`, a main-actor singleton, injects it.
private final class Held: Sendable {}

private final class Injected: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var held: Held
}

private final class User: Sendable {
    let injected: Injected
    init(_ injected: Injected) { self.injected = injected }
}

private final class Screen: @unchecked Sendable {
    // Safe: as above.
    @Inject var injected: Injected
}

private final class HeldGates: Sendable {
    let armed = Guarded(false)
    let heldEntered = ConcurrencyLatch(count: 1)
    let heldRelease = ConcurrencyLatch(count: 1)
}

/// The context, for a closure that calls it directly rather than through its resolver.
private final class ContextBox: @unchecked Sendable {
    // Safe: set once, before any lookup that reads it.
    weak var context: ApplicationContext?
}

private struct SuspendedMakerFactory: ObjectFactory {
    let gates = HeldGates()
    let box = ContextBox()

    var definitions: Definitions {
        createSingleton("held") { [gates] () -> Held in
            if gates.armed.value {
                gates.heldEntered.countDown()
                gates.heldRelease.wait()
            }
            return Held()
        }
        createSingleton("injected") { Injected() }
        createSingleton("user") { r in User(try r.object("injected")) }
        // A lookup nested in the closure (the context called directly): the same.
        // (Unset while the factory is validated, when nothing asks for it.)
        createSingleton("directUser") { [box] () throws -> User in
            guard let context = box.context else { return User(Injected()) }
            return User(try context.object("injected", as: Injected.self))
        }
        createMainActorSingleton("screen") { Screen() }
    }
}

/// Runs `body` while a task is injecting `injected` of `context` and has suspended for `held`,
/// which a thread is making; then lets the thread finish, and checks the task's object.
private func whileATaskInjectingIsSuspended<R: Sendable>(in context: ApplicationContext, gates: HeldGates, _ body: () async throws -> R) async throws -> R {
    gates.armed.withLock { $0 = true }
    let maker = ConcurrencyThreads.start(1) { _ in _ = try? lookUpSynchronously(context, "held", as: Held.self) }
    defer { gates.heldRelease.countDown() }
    try #require(await opensInTime(gates.heldEntered), "held's closure never ran")
    let injecting = Task { try await context.object("injected", as: Injected.self) }
    let heldIndex = try #require(context.configuration.table.definition(withKey: "held"))
    let suspended = await AsyncHangGuard.run("the task injecting injected") { () -> Bool in
        while Coordinator.lock.withLock({ (context.states[heldIndex].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
        return true
    }
    try #require(suspended == true)
    let result = try await body()
    gates.heldRelease.countDown()
    try #require(await opensInTime(maker), "the thread making held never returned")
    let injected = try #require(await AsyncHangGuard.run("the task injecting injected") { try? await injecting.value } ?? nil)
    #expect(injected.held === (try await context.object("held", as: Held.self)))
    return result
}

/// Runs `lookUp` in a task while a task injecting `injected` is suspended, and lets that
/// injection go on once the lookup waits for `injected` (a waiter on its slot). The result of
/// `lookUp`, or `nil` if it failed or hung.
private func lookUpWhileASuspendedTaskInjects<T: Sendable>(_ key: String, in context: ApplicationContext, gates: HeldGates, _ lookUp: @escaping @Sendable () async throws -> T) async throws -> T? {
    let injectedIndex = try #require(context.configuration.table.definition(withKey: "injected"))
    let (asking, waits) = try await whileATaskInjectingIsSuspended(in: context, gates: gates) { () -> (Task<T?, Never>, Bool?) in
        let done = Guarded(false)
        let asking = Task { () -> T? in
            defer { done.withLock { $0 = true } }
            return try? await lookUp()
        }
        // The lookup waits for `injected`, or has ended (failed).
        let waits = await AsyncHangGuard.run("the lookup of \(key)") { () -> Bool in
            while !done.value, Coordinator.lock.withLock({ (context.states[injectedIndex].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
            return !done.value
        }
        return (asking, waits)
    }
    let result = await AsyncHangGuard.run("the lookup of \(key)") { await asking.value } ?? nil
    #expect(waits == true, "the lookup of \(key) did not wait for injected")
    return result
}

/// The synchronous lookup, from a thread a test started inside an async test.
private func lookUpSynchronously<T>(_ context: ApplicationContext, _ key: String, as _: T.Type) throws(ContextError) -> T {
    try context.object(key, as: T.self)
}

@Test func anAwaitedLookupWhoseSynchronousClosureMeetsASingletonASuspendedTaskIsMakingWaitsForIt() async throws {
    let factory = SuspendedMakerFactory()
    #expect(await ApplicationContext.validate(factory).problems.isEmpty)
    let context = try Sync.start(factory)
    let user = try #require(try await lookUpWhileASuspendedTaskInjects("user", in: context, gates: factory.gates) {
        try await context.object("user", as: User.self)
    }, "the awaited lookup of user failed")
    #expect(user.injected === (try await context.object("injected", as: Injected.self)))
    #expect(user === (try await context.object("user", as: User.self)))
}

@Test func anAwaitedLookupWhoseClosureCallsTheContextForASingletonASuspendedTaskIsMakingWaitsForIt() async throws {
    let factory = SuspendedMakerFactory()
    let context = try Sync.start(factory)
    factory.box.context = context
    let user = try #require(try await lookUpWhileASuspendedTaskInjects("directUser", in: context, gates: factory.gates) {
        try await context.object("directUser", as: User.self)
    }, "the awaited lookup of directUser failed")
    #expect(user.injected === (try await context.object("injected", as: Injected.self)))
}

@Test @MainActor func anAwaitedLookupOfAMainActorSingletonWhoseInjectionMeetsSuchASingletonWaitsForIt() async throws {
    let factory = SuspendedMakerFactory()
    let context = try Sync.start(factory)
    let screen = try #require(try await lookUpWhileASuspendedTaskInjects("screen", in: context, gates: factory.gates) { @MainActor in
        try await context.object("screen", as: Screen.self)
    }, "the awaited lookup of screen failed")
    #expect(screen.injected === (try await context.object("injected", as: Injected.self)))
}

@Test func aBlockingLookupInATaskStillGetsRequiresAwaitThere() async throws {
    // The rule the awaited form now waits for: a synchronous call never blocks for a making
    // that has suspended (Docs/Async.md's table).
    let factory = SuspendedMakerFactory()
    let context = try Sync.start(factory)
    let error = try await whileATaskInjectingIsSuspended(in: context, gates: factory.gates) {
        await Task { thrownContextError { () throws(ContextError) in _ = try lookUpSynchronously(context, "user", as: User.self) } }.value
    }
    guard case let .requiresAwait(key, _)? = error else {
        Issue.record("expected requiresAwait, got \(String(describing: error))")
        return
    }
    #expect(key == "injected")
}

// MARK: - The same in an async start

/// The app (a parent, started synchronously) holds `held`, `injected` and `user`; the started
/// child's async eager singletons: `first` looks `injected` up (suspending for `held`), `second`,
/// once the test opens its gate, looks `user` up, whose synchronous closure needs `injected`.
private struct StartingChildFactory: ObjectFactory {
    let secondMayAsk: AsyncGate
    /// Unset while the factory is validated: then `second` does not wait for the gate.
    let armed: Guarded<Bool>

    var definitions: Definitions {
        createEagerSingleton("first") { r async throws -> Held in
            _ = try await r.object("injected", as: Injected.self)
            return Held()
        }
        createEagerSingleton("second") { [secondMayAsk, armed] r async throws -> Held in
            if armed.value { await secondMayAsk.wait() }
            _ = try await r.object("user", as: User.self)
            return Held()
        }
    }
}

@Test func anAsyncStartWhoseSynchronousClosureMeetsASingletonASuspendedTaskIsMakingSucceeds() async throws {
    let factory = SuspendedMakerFactory()
    let app = try Sync.start(factory)
    let secondMayAsk = AsyncGate()
    let child = StartingChildFactory(secondMayAsk: secondMayAsk, armed: factory.gates.armed)
    // Validated under an app of its own: a validation makes what it needs of the parent.
    #expect(await ApplicationContext.validate(child, parent: try Sync.start(SuspendedMakerFactory())).problems.isEmpty)
    factory.gates.armed.withLock { $0 = true }
    let maker = ConcurrencyThreads.start(1) { _ in _ = try? lookUpSynchronously(app, "held", as: Held.self) }
    defer {
        factory.gates.heldRelease.countDown()
        secondMayAsk.open()
    }
    try #require(await opensInTime(factory.gates.heldEntered), "held's closure never ran")
    let done = Guarded(false)
    let start = Task { () -> ContextError? in
        defer { done.withLock { $0 = true } }
        return await thrownContextErrorAsync { () async throws(ContextError) in _ = try await ApplicationContext(child, parent: app) }
    }
    let heldIndex = try #require(app.configuration.table.definition(withKey: "held"))
    let injectedIndex = try #require(app.configuration.table.definition(withKey: "injected"))
    let suspended = await AsyncHangGuard.run("first, injecting injected") { () -> Bool in
        while !done.value, Coordinator.lock.withLock({ (app.states[heldIndex].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
        return !done.value
    }
    try #require(suspended == true, "the start ended before first suspended")
    secondMayAsk.open()
    let waits = await AsyncHangGuard.run("second, asking for user") { () -> Bool in
        while !done.value, Coordinator.lock.withLock({ (app.states[injectedIndex].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
        return !done.value
    }
    factory.gates.heldRelease.countDown()
    try #require(await opensInTime(maker), "the thread making held never returned")
    let ended = await AsyncHangGuard.run("the async start") { await start.value }
    #expect(waits == true, "second did not wait for injected")
    let error = try #require(ended, "the async start hung")
    #expect(error == nil, "the start failed: \(String(describing: error))")
}

// MARK: - Two rings asked for by six tasks at once

/// Ring one, `ra → rb → rc → ra`, through properties: `ra`'s closure looks `rx` up through its
/// resolver, `rb`'s calls the context directly (a nested lookup), `rc`'s is async and awaits
/// `rz`. Ring two, `rx → ry → rz → rx`, through properties. Every wait a synchronous step is
/// refused here is made by its awaited lookup, and every failure inside is dropped with what
/// holds it (Docs/DESIGN.md, "A failure drops what may hold the failed object").
private final class RingA: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var rb: RingB
    let rx: RingX
    init(_ rx: RingX) { self.rx = rx }
}

private final class RingB: @unchecked Sendable {
    // Safe: as above.
    @Inject var rc: RingC
    let ry: RingY
    init(_ ry: RingY) { self.ry = ry }
}

private final class RingC: @unchecked Sendable {
    // Safe: as above.
    @Inject var ra: RingA
    let rz: RingZ
    init(_ rz: RingZ) { self.rz = rz }
}

private final class RingX: @unchecked Sendable {
    // Safe: as above.
    @Inject var ry: RingY
}

private final class RingY: @unchecked Sendable {
    // Safe: as above.
    @Inject var rz: RingZ
}

private final class RingZ: @unchecked Sendable {
    // Safe: as above.
    @Inject var rx: RingX
}

private struct TwoRingsFactory: ObjectFactory {
    let box = ContextBox()

    var definitions: Definitions {
        createSingleton("ra") { r in RingA(try r.object("rx")) }
        createSingleton("rb") { [box] () throws -> RingB in
            guard let context = box.context else { return RingB(RingY()) }
            return RingB(try context.object("ry", as: RingY.self))
        }
        createSingleton("rc") { (r: Resolver) async throws -> RingC in RingC(try await r.object("rz")) }
        createSingleton("rx") { RingX() }
        createSingleton("ry") { RingY() }
        createSingleton("rz") { RingZ() }
    }
}

@Test func twoRingsWhoseClosuresLookUpEachOtherAskedForBySixTasksAtOnceAreMadeOnceAndWhole() async throws {
    let keys = ["ra", "rx", "rb", "ry", "rc", "rz"]
    for round in 0..<300 {
        let factory = TwoRingsFactory()
        let context = try Sync.start(factory)
        factory.box.context = context
        let outcome = await AsyncHangGuard.run("round \(round)") { () -> [String: Result<ObjectIdentifier, ContextError>] in
            await withTaskGroup(of: (String, Result<ObjectIdentifier, ContextError>).self) { group in
                for position in keys.indices {
                    let key = keys[(position + round) % keys.count]
                    group.addTask {
                        do throws(ContextError) {
                            return (key, .success(ObjectIdentifier(try await context.object(key, as: AnyObject.self))))
                        } catch {
                            return (key, .failure(error))
                        }
                    }
                }
                var made: [String: Result<ObjectIdentifier, ContextError>] = [:]
                for await (key, result) in group { made[key] = result }
                return made
            }
        }
        guard let outcome else { return }  // The hang guard recorded it.
        let failures = outcome.compactMap { key, result -> String? in
            guard case let .failure(error) = result else { return nil }
            return "\(key): \(error)"
        }
        guard failures.isEmpty else {
            Issue.record("round \(round): \(failures)")
            return
        }
        let made = outcome.compactMapValues { try? $0.get() }
        let a = try await context.object("ra", as: RingA.self), x = try await context.object("rx", as: RingX.self)
        #expect(made["ra"] == ObjectIdentifier(a) && made["rx"] == ObjectIdentifier(x), "round \(round): a key handed out two objects")
        #expect(a.rb.rc.ra === a && a.rx === x && a.rb.ry === x.ry && a.rb.rc.rz === x.ry.rz, "round \(round): ring one is not whole")
        #expect(x.ry.rz.rx === x, "round \(round): ring two is not whole")
        if !(a.rb.rc.ra === a && x.ry.rz.rx === x) { break }
    }
}
