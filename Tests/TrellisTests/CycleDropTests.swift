import Testing
@testable import Trellis
import TrellisTestSupport

// Docs/Concurrency.md ("Across threads and tasks"): when an injection of a publication group
// fails, what another lookup took early from the group is dropped with it; what that lookup is
// still making and may hold it is dropped and made again when it ends, never published holding a
// dropped object.

/// `front` injects `middle`, then `failing`, which throws; `middle` and `back` inject each other
/// (a property cycle); `back` also injects `slow`. The gates steer one lookup of `front` (a
/// thread) and one of `back` (a task) through the cycle and the failure.
private final class DropGates: Sendable {
    /// `middle`'s first closure run has begun; it waits for `middleRelease`.
    let middleEntered = ConcurrencyLatch(count: 1)
    let middleRelease = ConcurrencyLatch(count: 1)
    /// `back`'s injection reached `slow` (holding `middle` early); it suspends until
    /// `slowRelease` opens (never blocking a thread of the cooperative pool, which the task's
    /// lookup runs on).
    let atSlow = ConcurrencyLatch(count: 1)
    let slowRelease = AsyncGate()
    let middlesMade = ConcurrencyCounter()
}

private final class DropFront: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var middle: DropMiddle
    @Inject var failing: DropFailing
}

private final class DropMiddle: @unchecked Sendable {
    // Safe: as above.
    @Inject var back: DropBack
}

private final class DropBack: @unchecked Sendable {
    // Safe: as above.
    @Inject var middle: DropMiddle
    @Inject var slow: DropSlow
}

private final class DropSlow: Sendable {}
private final class DropFailing: Sendable {}
private struct DropFailure: Error {}

private struct DroppingCycleFactory: ObjectFactory {
    let gates = DropGates()

    var definitions: Definitions {
        createSingleton("front") { DropFront() }
        createSingleton("middle") { [gates] () -> DropMiddle in
            gates.middlesMade.increment()
            if gates.middlesMade.value == 1 {
                gates.middleEntered.countDown()
                gates.middleRelease.wait()
            }
            return DropMiddle()
        }
        createSingleton("back") { DropBack() }
        createSingleton("slow") { [gates] () async -> DropSlow in
            gates.atSlow.countDown()
            await gates.slowRelease.wait()
            return DropSlow()
        }
        createSingleton("failing") { [gates] () throws -> DropFailing in
            gates.atSlow.wait()
            throw DropFailure()
        }
    }
}

/// The thread's lookup of `front` makes `middle`, whose `back` the task is injecting while it
/// waits for `middle`: a property cycle across them, so the thread takes `back` early and
/// their groups merge; `middle` waits for the group, and the task takes it early. Then `front`'s
/// `failing` throws, which drops `front` and `middle`: the task's `back`, holding that `middle`,
/// was published with it (one key, two objects: `back.middle` and a new `middle`). It is made
/// again instead.
@Test func aSingletonHoldingWhatAnotherLookupsFailureDroppedIsMadeAgainNotPublished() async throws {
    let factory = DroppingCycleFactory()
    let gates = factory.gates
    let context = try await ApplicationContext(factory)
    let frontError = Guarded<ContextError?>(nil)
    let frontDone = ConcurrencyThreads.start(1) { _ in
        let error = thrownContextError { () throws(ContextError) in _ = try lookUpSynchronously(context, "front", as: DropFront.self) }
        frontError.withLock { $0 = error }
    }
    defer {
        // Never leave a thread or task waiting, whatever fails.
        gates.middleRelease.countDown()
        gates.slowRelease.open()
    }
    try #require(await opensInTime(gates.middleEntered), "middle's closure never ran")
    let back = Task { try await context.object("back", as: DropBack.self) }
    // Once the task waits for `middle` (a waiter on its slot), let the thread finish making it.
    let middleIndex = try #require(context.configuration.table.definition(withKey: "middle"))
    let waiting = await AsyncHangGuard.run("the task waiting for middle") { () -> Bool in
        while Coordinator.lock.withLock({ (context.states[middleIndex].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
        return true
    }
    try #require(waiting == true)
    gates.middleRelease.countDown()
    try #require(await opensInTime(frontDone), "the lookup of front never returned")
    guard case let .creationFailed(key, _, underlying) = try #require(frontError.value), key == "failing", underlying is DropFailure else {
        Issue.record("front: \(String(describing: frontError.value))")
        return
    }
    gates.slowRelease.open()
    let handedOut = await AsyncHangGuard.run("the lookup of back") { try? await back.value }
    let madeBack = try #require(handedOut ?? nil, "the lookup of back failed or did not finish")

    let middle = try await context.object("middle", as: DropMiddle.self)
    #expect(madeBack.middle === middle, "back holds a middle the failure dropped")
    #expect(middle.back === madeBack)
    #expect(try await context.object("back", as: DropBack.self) === madeBack)
}

/// The synchronous lookup, from a thread a test started inside an async test.
private func lookUpSynchronously<T>(_ context: ApplicationContext, _ key: String, as _: T.Type) throws(ContextError) -> T {
    try context.object(key, as: T.self)
}

// MARK: - A ring whose member always fails, asked for by threads and tasks at once

private final class RingA: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var b: RingB
    @Inject var failing: DropFailing
}

private final class RingB: @unchecked Sendable {
    // Safe: as above.
    @Inject var c: RingC
}

private final class RingC: @unchecked Sendable {
    // Safe: as above.
    @Inject var a: RingA
}

/// A prototype outside the ring, injecting a member.
private final class RingUser: @unchecked Sendable {
    // Safe: as above.
    @Inject var b: RingB
}

/// `a.b`, `b.c`, `c.a`, and `a.failing`, which always throws: nothing of the ring can be made,
/// nor the prototype `user` of `b`.
private struct FailingRingFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("a") { RingA() }
        createSingleton("b") { RingB() }
        createSingleton("c") { RingC() }
        createPrototype("user") { RingUser() }
        createSingleton("failing") { () throws -> DropFailing in throw DropFailure() }
    }
}

private let ringKeys = ["a", "b", "c", "user"]

/// Looks `key` up blocking: whether an object was handed out.
private func ringObjectHandedOut(_ context: ApplicationContext, _ key: String) throws(ContextError) -> Bool {
    switch key {
    case "a": _ = try context.object("a", as: RingA.self)
    case "b": _ = try context.object("b", as: RingB.self)
    case "c": _ = try context.object("c", as: RingC.self)
    default: _ = try context.object("user", as: RingUser.self)
    }
    return true
}

/// Looks `key` up with `await`: whether an object was handed out.
private func ringObjectHandedOutAwaiting(_ context: ApplicationContext, _ key: String) async throws(ContextError) -> Bool {
    switch key {
    case "a": _ = try await context.object("a", as: RingA.self)
    case "b": _ = try await context.object("b", as: RingB.self)
    case "c": _ = try await context.object("c", as: RingC.self)
    default: _ = try await context.object("user", as: RingUser.self)
    }
    return true
}

/// Every lookup's error is the failure or, for a blocking one that met the ring being made by a
/// task that has suspended, `requiresAwait`; anything else is recorded.
private func noteRingError(_ error: ContextError, _ unexpected: Guarded<[String]>) {
    switch error {
    case let .creationFailed(key, _, underlying) where key == "failing" && underlying is DropFailure: return
    case .requiresAwait: return
    default: unexpected.withLock { $0.append("\(error)") }
    }
}

/// Two threads looking the ring up blocking and two tasks with `await`, eight lookups each, at
/// once: every lookup throws. A blocking lookup whose object waited for its group, which waited
/// for a task's injection that had suspended, used to take the object without waiting — and the
/// failure then dropped what it held: a lookup of `b` returned an object whose `c` was never
/// injected (reading `b.c.a` trapped). It gets `requiresAwait` now (Docs/Async.md, "What
/// suspends and what blocks"), as does a prototype's lookup (`user`) in the same place.
@Test func aRingThatCannotBeMadeHandsNothingOutToThreadsOrTasksAskingAtOnce() async throws {
    for round in 0..<200 {
        let context = try await ApplicationContext(FailingRingFactory())
        let handedOut = Guarded<[String]>([])
        let unexpected = Guarded<[String]>([])
        let threads = ConcurrencyThreads.start(2) { thread in
            for attempt in 0..<8 {
                let key = ringKeys[(thread * 2 + attempt) % ringKeys.count]
                do throws(ContextError) {
                    if try ringObjectHandedOut(context, key) { handedOut.withLock { $0.append(key) } }
                } catch {
                    noteRingError(error, unexpected)
                }
            }
        }
        let tasksDone = await AsyncHangGuard.run("round \(round): the awaited lookups") {
            await withTaskGroup(of: Void.self) { group in
                for task in 2..<4 {
                    group.addTask {
                        for attempt in 0..<8 {
                            let key = ringKeys[(task * 2 + attempt) % ringKeys.count]
                            do throws(ContextError) {
                                if try await ringObjectHandedOutAwaiting(context, key) { handedOut.withLock { $0.append(key) } }
                            } catch {
                                noteRingError(error, unexpected)
                            }
                        }
                    }
                }
            }
            return true
        }
        try #require(tasksDone == true)
        try #require(await opensInTime(threads), "round \(round): the blocking lookups did not return")
        #expect(handedOut.value.isEmpty, "round \(round): handed out \(handedOut.value)")
        #expect(unexpected.value.isEmpty, "round \(round): \(unexpected.value)")
        if !handedOut.value.isEmpty || !unexpected.value.isEmpty { return }
    }
}

// MARK: - An async let's failure, caught by the closure that started it

private final class LetGates: Sendable {
    /// `partner`'s injection reached `slow`: `shared` is made and waits for the group.
    let atSlow = AsyncGate()
    let slowRelease = AsyncGate()
    /// `holder`'s lookup of `shared` returned (with or without an object).
    let sharedAnswered = ConcurrencyFlag()
    let holderRuns = ConcurrencyCounter()
}

private final class LetHolder: Sendable {
    let shared: LetShared?
    init(_ shared: LetShared?) { self.shared = shared }
}

private final class LetPartner: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var shared: LetShared
    @Inject var slow: DropSlow
    @Inject var failing: DropFailing
}

private final class LetShared: @unchecked Sendable {
    // Safe: as above.
    @Inject var partner: LetPartner
}

/// `holder`'s closure looks `partner` up in an `async let` (a continuation of its lookup),
/// ignoring its failure, and `shared` itself; `partner` and `shared` inject each other, and
/// `partner` also `failing`, which always throws.
private struct AsyncLetFailureFactory: ObjectFactory {
    let gates = LetGates()

    var definitions: Definitions {
        createSingleton("holder") { [gates] (r: Resolver) async throws -> LetHolder in
            gates.holderRuns.increment()
            async let partner = try? await r.object("partner", as: LetPartner.self)
            await gates.atSlow.wait()
            let shared = try? await r.object("shared", as: LetShared.self)
            gates.sharedAnswered.set()
            _ = await partner
            return LetHolder(shared)
        }
        createSingleton("partner") { LetPartner() }
        createSingleton("shared") { LetShared() }
        createSingleton("slow") { [gates] () async -> DropSlow in
            gates.atSlow.open()
            await gates.slowRelease.wait()
            return DropSlow()
        }
        createSingleton("failing") { () throws -> DropFailing in throw DropFailure() }
    }
}

/// The closure's own lookup of `shared`, which the `async let` made and which waits for the
/// group (its partner is being injected), waits for it instead of taking it early: the partner's
/// failure drops `shared`, and the closure then makes it itself and gets the failure. It used to
/// take it early and be published holding the dropped `shared` (a key with two objects: none
/// that a lookup can get); taken early and made again, it would be made again forever.
@Test func aSingletonSharingItsGroupWithAFailingAsyncLetWaitsForItInsteadOfHoldingWhatItDrops() async throws {
    let factory = AsyncLetFailureFactory()
    let gates = factory.gates
    let context = try await ApplicationContext(factory)
    defer { gates.slowRelease.open() }
    let holder = Task { try await context.object("holder", as: LetHolder.self) }
    let sharedIndex = try #require(context.configuration.table.definition(withKey: "shared"))
    // Once the closure's lookup of `shared` waits for it (or has its answer), let `partner` go on.
    let asked = await AsyncHangGuard.run("the lookup of shared") { () -> Bool in
        while !gates.sharedAnswered.isSet, Coordinator.lock.withLock({ (context.states[sharedIndex].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
        return true
    }
    try #require(asked == true)
    gates.slowRelease.open()
    let made = await AsyncHangGuard.run("the lookup of holder") { try? await holder.value }
    let madeHolder = try #require(made ?? nil, "the lookup of holder failed or did not finish")

    #expect(madeHolder.shared == nil, "holder holds a shared its partner's failure dropped")
    #expect(gates.holderRuns.value == 1)
    #expect(await thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("shared", as: LetShared.self) } != nil)
}

// MARK: - A wait for a singleton of the lookup's own group, on a cycle closed later

private final class MergeGates: Sendable {
    /// `y`'s closure waits for `yRelease`; `c`'s for `zEntered`; `z`'s for `zRelease`.
    let yEntered = ConcurrencyLatch(count: 1)
    let yRelease = ConcurrencyLatch(count: 1)
    let zEntered = ConcurrencyLatch(count: 1)
    let zRelease = ConcurrencyLatch(count: 1)
}

private final class MergeX: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var y: MergeY
}

private final class MergeY: @unchecked Sendable {
    // Safe: as above.
    @Inject var s: MergeS
}

private final class MergeS: @unchecked Sendable {
    // Safe: as above.
    @Inject var x: MergeX
}

private final class MergeW: @unchecked Sendable {
    // Safe: as above.
    @Inject var y: MergeY
    @Inject var z: MergeZ
}

private final class MergeT: Sendable {
    let s: MergeS
    init(_ s: MergeS) { self.s = s }
}

private final class MergeZ: Sendable {
    let t: MergeT
    init(_ t: MergeT) { self.t = t }
}

private final class MergeC: Sendable {
    let x: MergeX
    let t: MergeT
    init(_ x: MergeX, _ t: MergeT) {
        self.x = x
        self.t = t
    }
}

/// A property cycle `x.y`, `y.s`, `s.x` that two lookups make together (`w` needs `y`, `c` needs
/// `x`), then closures: `c` makes `t`, whose closure needs `s`; `w`'s `z`, whose closure needs
/// `t`.
private struct MergedGroupFactory: ObjectFactory {
    let gates = MergeGates()

    var definitions: Definitions {
        createSingleton("x") { MergeX() }
        createSingleton("y") { [gates] () -> MergeY in
            gates.yEntered.countDown()
            gates.yRelease.wait()
            return MergeY()
        }
        createSingleton("s") { MergeS() }
        createSingleton("w") { MergeW() }
        createSingleton("z") { [gates] (r: Resolver) throws -> MergeZ in
            gates.zEntered.countDown()
            gates.zRelease.wait()
            return MergeZ(try r.object("t"))
        }
        createSingleton("t") { (r: Resolver) throws -> MergeT in MergeT(try r.object("s")) }
        createSingleton("c") { [gates] (r: Resolver) throws -> MergeC in
            let x: MergeX = try r.object("x")
            gates.zEntered.wait()
            return MergeC(x, try r.object("t"))
        }
    }
}

/// Whether definition `key`'s phase says `matches` (its slot settled under the lock).
private func phase(of key: String, in context: ApplicationContext, _ matches: (CreationPhase) -> Bool) -> Bool {
    guard let index = context.configuration.table.definition(withKey: key) else { return false }
    return Coordinator.lock.withLock { matches(context.states[index].phase) }
}

/// Whether a lookup holding an early reference of the group `key` waits in waits for `key`.
private func aLookupOfItsGroupWaits(for key: String, in context: ApplicationContext) -> Bool {
    phase(of: key, in: context) { phase in
        guard case let .deferred(group, _) = phase else { return false }
        return group.root.earlyReferences.contains { $0.holders.contains { $0.waitingFor?.key == key } }
    }
}

/// The lookup of `c`, merged with `w`'s by the cycle, meets `s` waiting for that group: nothing
/// forces it to take `s` early, so it waits. Then `w`'s `z` needs `t`, which `c`'s lookup is
/// making, its closure waiting for `s`: a cycle of waits, which `c`'s lookup breaks by taking `s`
/// early — not a `circularDependency` for `w` (there is no cycle of closures: `w → z → t → s`
/// does not come back). A second lookup of `w` registers `w`'s injection in the group.
@Test func aWaitForTheLookupsOwnGroupOnACycleOfWaitsEndsWithAnEarlyReferenceNotAnError() async throws {
    let factory = MergedGroupFactory()
    let gates = factory.gates
    let context = try await ApplicationContext(factory)
    defer {
        // Never leave a thread waiting, whatever fails.
        gates.yRelease.countDown()
        gates.zEntered.countDown()
        gates.zRelease.countDown()
    }
    let errors = Guarded<[String]>([])
    let made = Guarded<[String: AnyObject]>([:])
    let lookUp: @Sendable (String) -> Void = { key in
        do throws(ContextError) {
            let object: AnyObject = key == "w" ? try lookUpSynchronously(context, "w", as: MergeW.self) : try lookUpSynchronously(context, "c", as: MergeC.self)
            made.withLock { $0[key] = object }
        } catch {
            errors.withLock { $0.append("\(key): \(error)") }
        }
    }
    let steps = await AsyncHangGuard.run("the lookups reaching each step") { () -> Bool in
        func until(_ condition: @Sendable () -> Bool) async { while !condition() { await Task.yield() } }
        let first = ConcurrencyThreads.start(1) { _ in lookUp("w") }
        guard await opensInTime(gates.yEntered) else { return false }
        // The second lookup of `w` waits for it: `w`'s injection is registered in its group.
        let second = ConcurrencyThreads.start(1) { _ in lookUp("w") }
        await until { phase(of: "w", in: context) { if case .injecting = $0 { true } else { false } } }
        // `c`'s lookup, injecting `x`, waits for `y` (its claim settled `y`'s slot).
        let third = ConcurrencyThreads.start(1) { _ in lookUp("c") }
        await until { phase(of: "y", in: context) { if case .making = $0 { true } else { false } } }
        gates.yRelease.countDown()
        // `t`'s closure, on `c`'s lookup, waits for `s`, which waits for the merged group.
        await until { aLookupOfItsGroupWaits(for: "s", in: context) }
        gates.zRelease.countDown()
        for done in [first, second, third] {
            guard await opensInTime(done) else { return false }
        }
        return true
    }
    try #require(steps == true, "the lookups did not finish")
    #expect(errors.value.isEmpty, "\(errors.value)")
    let w = try #require(made.value["w"] as? MergeW)
    let c = try #require(made.value["c"] as? MergeC)
    let s = try await context.object("s", as: MergeS.self)
    #expect(w.z.t === c.t)
    #expect(c.t.s === s)
    #expect(w.y.s === s && s.x === c.x && c.x.y === w.y)
}

// MARK: - A cycle through an awaited lookup waiting for its group

private final class SettleGates: Sendable {
    let xEntered = AsyncGate()
    let xRelease = AsyncGate()
    let dRelease = AsyncGate()
    let context = Guarded<ApplicationContext?>(nil)
}

private final class SettleTop: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var holder: SettleHolder
}

private final class SettleHolder: Sendable {
    let made: SettleMade
    init(_ made: SettleMade) { self.made = made }
}

private final class SettleMade: Sendable {
    let x: SettleX
    init(_ x: SettleX) { self.x = x }
}

private final class SettleX: @unchecked Sendable {
    // Safe: as above.
    @Inject var a: SettleA
}

private final class SettleA: @unchecked Sendable {
    // Safe: as above.
    @Inject var x: SettleX
    @Inject var d: DropSlow
    @Inject var top: SettleTop
}

/// `top.holder`, whose closure looks `made` up on the context itself (a lookup of its own):
/// `made` is a prototype (or a weak singleton) whose closure needs `x`; `x.a` and `a.x` are a
/// property cycle, and `a` also needs `d`, then `top`.
private struct SettleCycleFactory: ObjectFactory {
    let weak: Bool
    let gates = SettleGates()

    var definitions: Definitions {
        createSingleton("top") { SettleTop() }
        createSingleton("holder") { [gates] () async throws -> SettleHolder in
            let context = try #require(gates.context.value)
            return SettleHolder(try await context.object("made", as: SettleMade.self))
        }
        if weak {
            createWeakSingleton("made") { (r: Resolver) async throws -> SettleMade in SettleMade(try await r.object("x")) }
        } else {
            createPrototype("made") { (r: Resolver) async throws -> SettleMade in SettleMade(try await r.object("x")) }
        }
        createSingleton("x") { [gates] () async -> SettleX in
            gates.xEntered.open()
            await gates.xRelease.wait()
            return SettleX()
        }
        createSingleton("a") { [gates] () async -> SettleA in
            await gates.xEntered.wait()
            return SettleA()
        }
        createSingleton("d") { [gates] () async -> DropSlow in
            await gates.dRelease.wait()
            return DropSlow()
        }
    }
}

/// One task asks for `top`: `holder`'s closure asks the context for `made`, whose closure makes
/// `x`; another asks for `a`, waits for `x` and is taken early by `x.a`, which merges the two
/// groups. `made`'s lookup, done, waits for the group (`a` is being injected); `a` then needs
/// `top`, which the first task is injecting while its `holder` waits for that lookup. The
/// lookup's wait was not in the wait-for graph, so `a`'s lookup saw no cycle and waited: both
/// hung. It sees the cycle now and takes `top` early.
@Test(arguments: [false, true])
func anAwaitedLookupWaitingForItsGroupIsOnTheWaitForGraph(weak: Bool) async throws {
    let factory = SettleCycleFactory(weak: weak)
    let gates = factory.gates
    let context = try await ApplicationContext(factory)
    gates.context.withLock { $0 = context }
    defer {
        gates.xRelease.open()
        gates.dRelease.open()
    }
    let top = Task { try await context.object("top", as: SettleTop.self) }
    let entered: Void? = await AsyncHangGuard.run("x's closure") { await gates.xEntered.wait() }
    try #require(entered != nil)
    let a = Task { try await context.object("a", as: SettleA.self) }
    let xIndex = try #require(context.configuration.table.definition(withKey: "x"))
    let aIndex = try #require(context.configuration.table.definition(withKey: "a"))
    let steps = await AsyncHangGuard.run("the lookups reaching each step") { () -> Bool in
        // `a`'s lookup waits for `x`.
        while Coordinator.lock.withLock({ (context.states[xIndex].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
        gates.xRelease.open()
        // `made`'s lookup waits for the group that `a`'s injection (at `d`) holds open.
        while !Coordinator.lock.withLock({ () -> Bool in
            guard case let .injecting(owner, _, _) = context.states[aIndex].phase else { return false }
            return !(owner.group.root.settleWaiters?.isEmpty ?? true)
        }) { await Task.yield() }
        gates.dRelease.open()
        return true
    }
    try #require(steps == true)
    let finished = await AsyncHangGuard.run("both lookups") { () -> (SettleTop, SettleA)? in
        guard let madeTop = try? await top.value, let madeA = try? await a.value else { return nil }
        return (madeTop, madeA)
    }
    let (madeTop, madeA) = try #require(finished ?? nil, "a lookup failed or both hung")
    #expect(madeA.top === madeTop)
    #expect(madeA.x.a === madeA)
    #expect(madeTop.holder.made.x === madeA.x)
}

// MARK: - A start whose eager singletons meet in a property cycle through a closure

private final class EagerGates: Sendable {
    let aEntered = AsyncGate()
    let aRelease = AsyncGate()
    /// The context being started, as `a`'s closure sees it.
    let context = Guarded<ApplicationContext?>(nil)
}

private final class EagerA: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var b: EagerB
}

private final class EagerB: @unchecked Sendable {
    // Safe: as above.
    @Inject var c: EagerC
}

private final class EagerC: Sendable {
    let p: EagerP
    init(_ p: EagerP) { self.p = p }
}

private final class EagerP: @unchecked Sendable {
    // Safe: as above.
    @Inject var a: EagerA
}

/// `a → b → c` through properties, `c → p` through `c`'s closure, `p → a` through a property:
/// one cycle, broken where `p` takes `a` early (being injected). `a` and `c` are async eager
/// singletons, made at once by the start.
private struct EagerRingFactory: ObjectFactory {
    let gates = EagerGates()

    var definitions: Definitions {
        createEagerSingleton("a") { [gates] (r: Resolver) async -> EagerA in
            gates.context.withLock { $0 = r.context }
            gates.aEntered.open()
            await gates.aRelease.wait()
            return EagerA()
        }
        createEagerSingleton("b") { EagerB() }
        createEagerSingleton("c") { (r: Resolver) async throws -> EagerC in EagerC(try await r.object("p")) }
        createPrototype("p") { EagerP() }
    }
}

/// The start's task for `c` needs `a` (for `p`) while `a`'s closure still runs, and waits; then
/// `a`, injected, needs `c`, whose closure waits for `a`: a cycle of waits that `c`'s task can
/// break, taking `a` early now that it is being injected. The start used to fail with
/// `circularDependency` in that order (a probe: 3 starts in 200, 35 before this stop's other
/// changes), while `validate` found nothing.
@Test func aStartWhoseEagerSingletonsMeetInACycleBreaksItWhateverTheOrder() async throws {
    let validated = EagerRingFactory()
    validated.gates.aRelease.open()
    #expect(await ApplicationContext.validate(validated).problems.isEmpty)
    let factory = EagerRingFactory()
    let gates = factory.gates
    defer { gates.aRelease.open() }
    let start = Task { try await ApplicationContext(factory) }
    let entered: Void? = await AsyncHangGuard.run("a's closure") { await gates.aEntered.wait() }
    try #require(entered != nil)
    let context = try #require(gates.context.value)
    let aIndex = try #require(context.configuration.table.definition(withKey: "a"))
    let waited = await AsyncHangGuard.run("c's task waiting for a") { () -> Bool in
        while Coordinator.lock.withLock({ (context.states[aIndex].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
        return true
    }
    try #require(waited == true)
    gates.aRelease.open()
    let outcome = await AsyncHangGuard.run("the start") { () -> String in
        do {
            _ = try await start.value
            return "started"
        } catch {
            return "\(error)"
        }
    }
    #expect(outcome == "started")
    let a = try await context.object("a", as: EagerA.self)
    #expect(a.b.c.p.a === a)
}
