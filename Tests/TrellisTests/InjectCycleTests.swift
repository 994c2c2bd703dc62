import Testing
import Trellis
import TrellisTestSupport

private final class NodeA: InjectionAware {
    @Inject var b: NodeB
    var didInjectCalls = 0
    var bAtDidInject: ObjectIdentifier?

    // Reads only `b` itself: when B is asked first, B is still being injected while A's
    // didInject runs (B's `a` is set after A is complete), as in Spring.
    func didInject(from context: ApplicationContext) {
        didInjectCalls += 1
        bAtDidInject = ObjectIdentifier(b)
    }
}

private final class NodeB {
    @Inject var a: NodeA
}

private final class SelfReferencing {
    @Inject("node") var me: SelfReferencing
}

private final class PrototypeP {
    @Inject var q: PrototypeQ
}

private final class PrototypeQ {
    @Inject var p: PrototypeP
}

private final class SingletonS {
    @Inject var p: PrototypeP
}

private final class Root {
    @Inject var holder: Holder
}

private final class Holder {
    @Inject var root: Root
}

private struct PropertyCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("a") { NodeA() }
        createSingleton("b") { NodeB() }
        createSingleton("node") { SelfReferencing() }
    }
}

@Test func singletonsReferencingEachOtherThroughPropertiesWorkFromAFirst() throws {
    let context = try ApplicationContext(PropertyCycleFactory())
    let a = try context.object("a", as: NodeA.self)
    let b = try context.object("b", as: NodeB.self)
    #expect(a.b === b)
    #expect(b.a === a)
    #expect(a.didInjectCalls == 1)
}

@Test func singletonsReferencingEachOtherThroughPropertiesWorkFromBFirst() throws {
    let context = try ApplicationContext(PropertyCycleFactory())
    let b = try context.object("b", as: NodeB.self)
    let a = try context.object("a", as: NodeA.self)
    #expect(a.b === b)
    #expect(b.a === a)
    #expect(a.didInjectCalls == 1)
}

@Test func didInjectOfASingletonInAPropertyCycleSeesItsPropertiesFromEitherSide() throws {
    let aFirst = try ApplicationContext(PropertyCycleFactory())
    let a1 = try aFirst.object("a", as: NodeA.self)
    #expect(a1.bAtDidInject == ObjectIdentifier(try aFirst.object("b", as: NodeB.self)))
    let bFirst = try ApplicationContext(PropertyCycleFactory())
    let b2 = try bFirst.object("b", as: NodeB.self)
    #expect(b2.a.bAtDidInject == ObjectIdentifier(b2))
}

@Test func singletonInjectedWithItselfGetsItsOwnInstance() throws {
    let context = try ApplicationContext(PropertyCycleFactory())
    let node = try context.object("node", as: SelfReferencing.self)
    #expect(node.me === node)
}

private struct EagerCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("a") { NodeA() }
        createSingleton("b") { NodeB() }
    }
}

@Test func eagerSingletonInAPropertyCycleStartsTheContext() throws {
    let context = try ApplicationContext(EagerCycleFactory())
    let a = try context.object("a", as: NodeA.self)
    #expect(a.b.a === a)
    #expect(a.didInjectCalls == 1)
}

private struct SingletonPrototypeCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("root") { Root() }
        createPrototype("holder") { Holder() }
    }
}

@Test func singletonAndPrototypeReferencingEachOtherThroughPropertiesWork() throws {
    let context = try ApplicationContext(SingletonPrototypeCycleFactory())
    let root = try context.object("root", as: Root.self)
    #expect(root.holder.root === root)
    let other = try context.object("holder", as: Holder.self)
    #expect(other !== root.holder)
    #expect(other.root === root)
}

private struct PrototypeCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("p") { PrototypeP() }
        createPrototype("q") { PrototypeQ() }
        createSingleton("s") { SingletonS() }
    }
}

@Test func prototypeCycleThroughPropertiesIsACircularDependency() throws {
    let context = try ApplicationContext(PrototypeCycleFactory())
    #expect(throws: ContextError.circularDependency(path: ["p", "q", "p"])) {
        try context.object("p", as: PrototypeP.self)
    }
    #expect(throws: ContextError.circularDependency(path: ["q", "p", "q"])) {
        try context.object("q", as: PrototypeQ.self)
    }
}

@Test func prototypeCycleBelowASingletonReportsTheWholePath() throws {
    let context = try ApplicationContext(PrototypeCycleFactory())
    let error = #expect(throws: ContextError.self) { try context.object("s", as: SingletonS.self) }
    #expect(error == .circularDependency(path: ["s", "p", "q", "p"]))
    #expect(error.map { "\($0)".contains("s → p → q → p") } == true)
}

private final class ClosureX: Sendable {
    let y: ClosureY
    init(y: ClosureY) { self.y = y }
}

private final class ClosureY: Sendable {
    let x: ClosureX
    init(x: ClosureX) { self.x = x }
}

private struct ClosureCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("x") { r in ClosureX(y: try r.object("y")) }
        createSingleton("y") { r in ClosureY(x: try r.object("x")) }
    }
}

@Test func singletonCycleThroughCreationClosuresIsStillAnError() throws {
    let context = try ApplicationContext(ClosureCycleFactory())
    #expect(throws: ContextError.circularDependency(path: ["x", "y", "x"])) {
        try context.object("x", as: ClosureX.self)
    }
    #expect(throws: ContextError.circularDependency(path: ["y", "x", "y"])) {
        try context.object("y", as: ClosureY.self)
    }
}

// MARK: - A property cycle first asked on two threads at once

private final class RaceA {
    @Inject var b: RaceB
}

private final class RaceB {
    @Inject var a: RaceA
}

private struct RaceFactory: ObjectFactory {
    let started: InjCounter
    var definitions: Definitions {
        createSingleton("a") { [started] in
            started.increment()
            // Bounded spin, no waiting on time: give the other thread the chance to start B.
            for _ in 0..<200_000 where started.value < 2 {}
            return RaceA()
        }
        createSingleton("b") { [started] in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return RaceB()
        }
    }
}

@Test func propertyCycleFirstAskedOnTwoThreadsAtOnceCompletesConsistently() async throws {
    for round in 1...20 {
        let context = try Sync.start(RaceFactory(started: InjCounter()))
        let failures = InjCounter()
        // Two threads of their own, watched by the hang guard: a deadlock fails the test, a
        // slow machine only makes it slower (no wall-clock limit).
        let done = ConcurrencyThreads.start(2) { index in
            do throws(ContextError) {
                _ = try context.object(index == 0 ? "a" : "b", as: AnyObject.self)
            } catch {
                failures.increment()
            }
        }
        try #require(await opensInTime(done), "round \(round): the two lookups did not return: deadlock")
        let a = try Sync.object(context, "a", as: RaceA.self)
        let b = try Sync.object(context, "b", as: RaceB.self)
        #expect(failures.value == 0, "round \(round)")
        #expect(a.b === b, "round \(round)")
        #expect(b.a === a, "round \(round)")
    }
}

// MARK: - A property cycle first asked by tasks (awaited lookups) at once

@Test func propertyCycleFirstAskedByTwoTasksAtOnceCompletesConsistently() async throws {
    for round in 1...20 {
        let context = try Sync.start(RaceFactory(started: InjCounter()))
        // The first task makes one and, injecting it, waits for the other, which the second task
        // makes and injects with an early reference to the first: the waiting task must take the
        // second early too, rather than wait for a publication that waits for its own injection.
        let failures = await finishesInTime { () -> Int in
            async let first = thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("a", as: AnyObject.self) }
            async let second = thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("b", as: AnyObject.self) }
            return [await first, await second].compactMap { $0 }.count
        }
        try #require(failures != nil, "round \(round): the two awaited lookups did not return: deadlock")
        #expect(failures == 0, "round \(round)")
        let a = try Sync.object(context, "a", as: RaceA.self)
        let b = try Sync.object(context, "b", as: RaceB.self)
        #expect(a.b === b, "round \(round)")
        #expect(b.a === a, "round \(round)")
    }
}

/// The blocking lookup either gets `a` published or, where the group it made `a` in waits for the
/// task's making, which has suspended (it waited for `a`), `requiresAwait` (Docs/Async.md, "What
/// suspends and what blocks"): never `a` while the task is still injecting `b` (it used to be
/// handed out then, and if `b`'s injection failed, it held a dropped object).
@Test func propertyCycleFirstAskedByAThreadAndATaskAtOnceCompletesConsistently() async throws {
    for round in 1...20 {
        let context = try Sync.start(RaceFactory(started: InjCounter()))
        let failures = InjCounter()
        let thread = ConcurrencyThreads.start(1) { _ in
            do throws(ContextError) {
                let a = try context.object("a", as: RaceA.self)
                // Published: wired.
                if a.b.a !== a { failures.increment() }
            } catch {
                guard case let .requiresAwait(key, _) = error, key == "a" else {
                    failures.increment()
                    return
                }
            }
        }
        let task = await finishesInTime { await thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("b", as: AnyObject.self) } }
        try #require(await opensInTime(thread), "round \(round): the blocking lookup did not return: deadlock")
        try #require(task != nil, "round \(round): the awaited lookup did not return: deadlock")
        #expect(task! == nil, "round \(round)")
        #expect(failures.value == 0, "round \(round)")
        let a = try Sync.object(context, "a", as: RaceA.self)
        let b = try Sync.object(context, "b", as: RaceB.self)
        #expect(a.b === b, "round \(round)")
        #expect(b.a === a, "round \(round)")
    }
}

private final class AsyncEagerCycleA: @unchecked Sendable {
    // Unchecked: set once by the context's injection, before the start returns, then only read.
    @Inject var b: AsyncEagerCycleB
}

private final class AsyncEagerCycleB: @unchecked Sendable {
    // Unchecked: as `AsyncEagerCycleA`.
    @Inject var a: AsyncEagerCycleA
}

private struct AsyncEagerCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("a") { () async -> AsyncEagerCycleA in
            await Task.yield()
            return AsyncEagerCycleA()
        }
        createEagerSingleton("b") { () async -> AsyncEagerCycleB in
            await Task.yield()
            return AsyncEagerCycleB()
        }
    }
}

@Test func asyncStartOfEagerSingletonsInAPropertyCycleFinishesWiredToEachOther() async throws {
    for round in 1...20 {
        // The start makes both concurrently: each injection asks for the other.
        let started = await finishesInTime { () -> ApplicationContext? in try? await ApplicationContext(AsyncEagerCycleFactory()) }
        let finished = try #require(started, "round \(round): the start did not return: deadlock")
        let context = try #require(finished, "round \(round): the start failed")
        let a = try await context.object("a", as: AsyncEagerCycleA.self)
        let b = try await context.object("b", as: AsyncEagerCycleB.self)
        #expect(a.b === b, "round \(round)")
        #expect(b.a === a, "round \(round)")
    }
}

// MARK: - What a lookup hands out when another lookup's injection takes part

private final class HolderS: @unchecked Sendable {
    // Unchecked: made once by the context, then only read.
    let u: HolderU
    init(_ u: HolderU) { self.u = u }
}

private final class HolderU: @unchecked Sendable {
    // Unchecked: set once by the context's injection, then only read.
    @Inject var s: HolderS
}

/// `s`'s closure looks `u` up; `u`'s property is `s`: a cycle through a closure on one side.
private struct ClosureAndPropertyRaceFactory: ObjectFactory {
    let started: InjCounter
    var definitions: Definitions {
        createSingleton("s") { [started] (r: Resolver) throws -> HolderS in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return HolderS(try r.object("u"))
        }
        createSingleton("u") { [started] () -> HolderU in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return HolderU()
        }
    }
}

@Test func aLookupNeverHandsOutAnObjectWhosePropertiesAnotherLookupIsStillInjecting() async throws {
    for round in 1...20 {
        let context = try Sync.start(ClosureAndPropertyRaceFactory(started: InjCounter()))
        let handedOut = Guarded<[HolderS]>([])
        let unexpected = Guarded<[ContextError]>([])
        let done = ConcurrencyThreads.start(2) { index in
            do throws(ContextError) {
                // Read at once: a property not injected yet would read as never injected.
                let s = index == 0 ? try context.object("s", as: HolderS.self) : try context.object("u", as: HolderU.self).s
                _ = try s.u.$s.get()
                handedOut.withLock { $0.append(s) }
            } catch {
                // Asked first on one path, the closure's side is a cycle (Docs/Injection.md).
                if case .circularDependency = error { return }
                unexpected.withLock { $0.append(error) }
            }
        }
        try #require(await opensInTime(done), "round \(round): deadlock")
        #expect(unexpected.value.isEmpty, "round \(round): \(unexpected.value)")
        for s in handedOut.value { #expect(s.u.s === s, "round \(round)") }
    }
}

private final class FailingA: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var b: FailingB
}

private final class FailingB: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var a: FailingA
    @Inject var missing: FailingA
}

private struct FailingCycleRaceFactory: ObjectFactory {
    let started: InjCounter
    var definitions: Definitions {
        createSingleton("a") { [started] () -> FailingA in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return FailingA()
        }
        createSingleton("b") { [started] () -> FailingB in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return FailingB()
        }
    }
}

@Test func aPropertyCycleWhoseInjectionFailsOnAnotherThreadFailsBothLookups() async throws {
    for round in 1...20 {
        let context = try Sync.start(FailingCycleRaceFactory(started: InjCounter()))
        let errors = Guarded<[ContextError?]>([nil, nil])
        let done = ConcurrencyThreads.start(2) { index in
            do throws(ContextError) {
                _ = try context.object(index == 0 ? "a" : "b", as: AnyObject.self)
            } catch {
                errors.withLock { $0[index] = error }
            }
        }
        try #require(await opensInTime(done), "round \(round): deadlock")
        // `a` holds `b`, whose `missing` nobody defines: neither can be handed out.
        for (index, error) in errors.value.enumerated() {
            guard case let .unresolvedInjection(_, property, _)? = error else {
                Issue.record("round \(round), lookup \(index): expected unresolvedInjection, got \(String(describing: error))")
                continue
            }
            #expect(property == "missing", "round \(round)")
        }
    }
}

@MainActor private final class CycleScreen {
    @Inject var service: CycleService
    nonisolated init() {}
}

private final class CycleService: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var screen: CycleScreen
}

private struct MainActorCycleRaceFactory: ObjectFactory {
    let started: InjCounter
    var definitions: Definitions {
        createMainActorSingleton("screen") { [started] () -> CycleScreen in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return CycleScreen()
        }
        createSingleton("service") { [started] () -> CycleService in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return CycleService()
        }
    }
}

@Test func aMainActorSingletonAndAnotherInAPropertyCycleAskedByTwoTasksAreWiredToEachOther() async throws {
    for round in 1...20 {
        let context = try await ApplicationContext(MainActorCycleRaceFactory(started: InjCounter()))
        let failures = await finishesInTime { () -> [ContextError] in
            async let service = thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("service", as: CycleService.self) }
            async let screen = thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("screen", as: CycleScreen.self) }
            return [await service, await screen].compactMap { $0 }
        }
        let errors = try #require(failures, "round \(round): deadlock")
        #expect(errors.isEmpty, "round \(round): \(errors)")
        let service = try await context.object("service", as: CycleService.self)
        let screen = try await context.object("screen", as: CycleScreen.self)
        #expect(service.screen === screen, "round \(round)")
        #expect(await MainActor.run { screen.service } === service, "round \(round)")
    }
}

@MainActor private final class GatedScreen {
    @Inject var service: GatedService
    nonisolated init() {}
}

private final class GatedService: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var opening: GatedGate
    @Inject var screen: GatedScreen
    @Inject var gate: GatedGate
}

private final class GatedGate: Sendable {}

/// `service`'s injection first waits (suspending) for `opening`, which another task makes; then
/// makes `screen` on the main actor; then holds its group open in `gate` until the screen's own
/// lookup has begun.
private struct GatedCycleFactory: ObjectFactory {
    let openingStarted: InjCounter
    let screenMade: InjCounter
    let screenAsked: InjCounter
    var definitions: Definitions {
        createMainActorSingleton("screen") { [screenMade] () -> GatedScreen in
            screenMade.increment()
            return GatedScreen()
        }
        createSingleton("service") { GatedService() }
        // Bounded spins, no waiting on time: give the other lookups the chance to get where
        // the test needs them.
        createSingleton("opening") { [openingStarted] () -> GatedGate in
            openingStarted.increment()
            for _ in 0..<2_000_000 {}
            return GatedGate()
        }
        createSingleton("gate") { [screenAsked] () -> GatedGate in
            for _ in 0..<20_000_000 where screenAsked.value == 0 {}
            for _ in 0..<2_000_000 {}
            return GatedGate()
        }
    }
}

@Test func anAwaitedLookupOfAMainActorSingletonWaitsOffTheMainActorForAnotherLookupsGroup() async throws {
    for round in 1...10 {
        let openingStarted = InjCounter(), screenMade = InjCounter(), screenAsked = InjCounter()
        let context = try await ApplicationContext(GatedCycleFactory(openingStarted: openingStarted, screenMade: screenMade, screenAsked: screenAsked))
        let failures = await finishesInTime { () -> [ContextError] in
            async let opening = thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("opening", as: GatedGate.self) }
            for _ in 0..<1_000_000 where openingStarted.value == 0 { await Task.yield() }
            // Its lookup suspends waiting for `opening`: a blocking wait for its group is refused.
            async let service = thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("service", as: GatedService.self) }
            for _ in 0..<1_000_000 where screenMade.value == 0 { await Task.yield() }
            screenAsked.increment()
            let screen = await thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("screen", as: GatedScreen.self) }
            return [await opening, await service, screen].compactMap { $0 }
        }
        let errors = try #require(failures, "round \(round): deadlock")
        #expect(errors.isEmpty, "round \(round): \(errors)")
        let service = try await context.object("service", as: GatedService.self)
        let screen = try await context.object("screen", as: GatedScreen.self)
        #expect(service.screen === screen, "round \(round)")
        #expect(await MainActor.run { screen.service } === service, "round \(round)")
    }
}

@MainActor private final class AsyncCycleScreen {
    @Inject var service: AsyncCycleService
    nonisolated init() {}
}

private final class AsyncCycleService: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var screen: AsyncCycleScreen
}

private struct AsyncAndMainActorCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createMainActorSingleton("screen") { AsyncCycleScreen() }
        createSingleton("service") { () async -> AsyncCycleService in
            await Task.yield()
            return AsyncCycleService()
        }
    }
}

@Test func anAsyncSingletonAndTheMainActorSingletonItInjectsReferringToItAreWiredToEachOther() async throws {
    let context = try await ApplicationContext(AsyncAndMainActorCycleFactory())
    // The screen's injection runs synchronously on the main actor and meets the service being
    // injected: a property cycle, not a synchronous call needing an async definition.
    let service = try await context.object("service", as: AsyncCycleService.self)
    let screen = try await context.object("screen", as: AsyncCycleScreen.self)
    #expect(service.screen === screen)
    #expect(await MainActor.run { screen.service } === service)
}

/// The same, the service declared first: a validation makes it first, and the screen with it.
private struct ServiceFirstCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("service") { () async -> AsyncCycleService in
            await Task.yield()
            return AsyncCycleService()
        }
        createMainActorSingleton("screen") { AsyncCycleScreen() }
    }
}

@Test func validateStillReportsTheSynchronousSideOfAPropertyCycleThroughAnAsyncSingleton() async throws {
    // Asked first, the screen would need the service, async and not made, synchronously.
    let problems = await ApplicationContext.validate(ServiceFirstCycleFactory()).problems
    #expect(problems.contains { if case .requiresAwait("service", _) = $0 { true } else { false } }, "\(problems)")
    let context = try await ApplicationContext(AsyncAndMainActorCycleFactory())
    let error = await thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object("screen", as: AsyncCycleScreen.self) }
    guard case .requiresAwait("service", _)? = error else {
        Issue.record("expected requiresAwait for 'service', got \(String(describing: error))")
        return
    }
}

// MARK: - Prototypes and weak singletons handed out while another lookup injects their group

private final class HeldA: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var b: HeldB
}

private final class HeldB: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var a: HeldA
    @Inject var slow: HeldSlow
}

private final class HeldSlow: Sendable {}

private final class CycleHolder: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var a: HeldA
}

/// `a` and `b` refer to each other; `b`'s second property takes a while; `holder` (a prototype,
/// or a weak singleton) holds `a`.
private struct HeldCycleFactory: ObjectFactory {
    let weak: Bool
    let started: InjCounter
    var definitions: Definitions {
        createSingleton("a") { [started] () -> HeldA in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return HeldA()
        }
        createSingleton("b") { [started] () -> HeldB in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return HeldB()
        }
        createSingleton("slow") { () -> HeldSlow in
            // Bounded spin, no waiting on time: keeps `b`'s injection going a little longer.
            for _ in 0..<2_000_000 {}
            return HeldSlow()
        }
        if weak {
            createWeakSingleton("holder") { CycleHolder() }
        } else {
            createPrototype("holder") { CycleHolder() }
        }
    }
}

@Test(arguments: [false, true])
func aPrototypeOrWeakSingletonIsHandedOutOnlyOnceWhatItHoldsIsInjected(weak: Bool) async throws {
    for round in 1...10 {
        let context = try Sync.start(HeldCycleFactory(weak: weak, started: InjCounter()))
        let unfinished = InjCounter()
        let failures = Guarded<[ContextError]>([])
        let done = ConcurrencyThreads.start(2) { index in
            do throws(ContextError) {
                if index == 0 {
                    _ = try context.object("b", as: HeldB.self)
                } else {
                    let holder = try context.object("holder", as: CycleHolder.self)
                    // Read at once: `b`, taken early by the holder's `a`, may still be injected.
                    if (try? holder.a.b.$slow.get()) == nil { unfinished.increment() }
                }
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        try #require(await opensInTime(done), "round \(round): deadlock")
        #expect(failures.value.isEmpty, "round \(round): \(failures.value)")
        #expect(unfinished.value == 0, "round \(round)")
    }
}

// MARK: - ...and a prototype or weak singleton whose group is dropped meanwhile

private final class DroppedA: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var b: DroppedB
}

private final class DroppedB: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var a: DroppedA
    @Inject var slow: HeldSlow
    @Inject var missing: HeldSlow
}

private final class DroppedHolder: @unchecked Sendable {
    // Unchecked: as `HolderU`.
    @Inject var a: DroppedA
}

/// `HeldCycleFactory` where `b`'s injection fails at its last property, after the slow one:
/// the group the holder's `a` joined is dropped while the holder waits for it.
private struct DroppedCycleFactory: ObjectFactory {
    let weak: Bool
    let started: InjCounter
    var definitions: Definitions {
        createSingleton("a") { [started] () -> DroppedA in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return DroppedA()
        }
        createSingleton("b") { [started] () -> DroppedB in
            started.increment()
            for _ in 0..<200_000 where started.value < 2 {}
            return DroppedB()
        }
        createSingleton("slow") { () -> HeldSlow in
            // Bounded spin, no waiting on time: keeps `b`'s injection going a little longer.
            for _ in 0..<2_000_000 {}
            return HeldSlow()
        }
        if weak {
            createWeakSingleton("holder") { DroppedHolder() }
        } else {
            createPrototype("holder") { DroppedHolder() }
        }
    }
}

@Test(arguments: [false, true])
func aPrototypeOrWeakSingletonWhoseGroupWasDroppedIsMadeAgainNotHandedOut(weak: Bool) async throws {
    // Docs/Injection.md: no lookup hands out an object holding one whose injection failed.
    for round in 1...10 {
        let context = try Sync.start(DroppedCycleFactory(weak: weak, started: InjCounter()))
        let handedOut = Guarded<[DroppedHolder]>([])
        let unexpected = Guarded<[ContextError]>([])
        let done = ConcurrencyThreads.start(2) { index in
            do throws(ContextError) {
                if index == 0 {
                    _ = try context.object("b", as: DroppedB.self)
                } else {
                    let holder = try context.object("holder", as: DroppedHolder.self)
                    handedOut.withLock { $0.append(holder) }
                }
            } catch {
                guard case .unresolvedInjection(_, "missing", _) = error else {
                    unexpected.withLock { $0.append(error) }
                    return
                }
            }
        }
        try #require(await opensInTime(done), "round \(round): deadlock")
        #expect(unexpected.value.isEmpty, "round \(round): \(unexpected.value)")
        // Every `b` fails to inject, so no holder can be handed out.
        #expect(handedOut.value.isEmpty, "round \(round): a holder was handed out holding a dropped `a`")
    }
}
