#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import Trellis
import TrellisTestSupport

// Issue 10, points 2 and 4: calls that re-enter the library from user code. A failure swallowed
// inside another resolution caches nothing that saw the failed object (point 2); a call made
// directly on a context from a closure or hook, a context built inside a closure, and
// `objects(of:)` inside a `didInject` see their own resolution, not the caller's frames
// (point 4; validation inside a closure is in ValidationIsolationTests).

// MARK: - Fixtures

/// The context that closures and hooks call directly, not through their resolver; set once the
/// context exists (weak: the context's objects hold the slot).
private final class ReentrantSlot: Sendable {
    private struct Weak { weak var context: ApplicationContext? }
    private let stored = Guarded(Weak())
    var context: ApplicationContext? { stored.withLock { $0.context } }
    func set(_ context: ApplicationContext) { stored.withLock { $0.context = context } }
}

private struct ReentrantFailure: Error, CustomStringConvertible {
    var description: String { "not yet" }
}

/// Throws the first `failures` times it is asked, then makes a `ReLate`.
private final class ReGate: Sendable {
    let calls = ConcurrencyCounter()
    let failures: Int
    init(failures: Int = 1) { self.failures = failures }
    func make() throws -> ReLate {
        calls.increment()
        if calls.value <= failures { throw ReentrantFailure() }
        return ReLate()
    }
}

private final class ReLate {}
private final class ReX {}

/// `b` first (b's property is this object: a property cycle), then `late`, which fails once.
private final class ReA {
    @Inject var b: ReB
    @Inject var late: ReLate
}

private final class ReB {
    @Inject var a: ReA
}

/// How the failure of `a` is swallowed while `outer` is injected.
enum SwallowSite: String, Sendable, CaseIterable {
    /// `try? r.object("a")` in the closure of `x`, a property of `outer`.
    case resolverTry
    /// `do { try r.object("a") } catch {}` in the closure of `x`.
    case resolverCatch
    /// `try? context.object("a")` called directly on the context in the closure of `x`.
    case directCall
    /// `try? context.object("a")` in `outer`'s `didInject`.
    case didInject
    /// As `resolverTry`, `x` being a prototype.
    case prototypeClosure
    /// As `resolverTry`, `outer` being an eager singleton made by the start.
    case eagerStart
    /// `try? r.object("a")` in the closure of `x` asked on its own, no `outer` around it.
    case topLevel
}

private final class ReOuter: InjectionAware {
    @Inject var x: ReX
    let site: SwallowSite
    init(site: SwallowSite) { self.site = site }
    func didInject(from context: ApplicationContext) {
        if site == .didInject { _ = try? context.object("a", as: ReA.self) }
    }
}

private struct SwallowFactory: ObjectFactory {
    let site: SwallowSite
    let gate = ReGate()
    let slot = ReentrantSlot()

    var definitions: Definitions {
        if site == .eagerStart {
            createEagerSingleton("outer") { [site] in ReOuter(site: site) }
        } else {
            createSingleton("outer") { [site] in ReOuter(site: site) }
        }
        if site == .prototypeClosure {
            createPrototype("x") { [site, slot] r in try Self.makeX(site, slot, r) }
        } else {
            createSingleton("x") { [site, slot] r in try Self.makeX(site, slot, r) }
        }
        createSingleton("a") { ReA() }
        createSingleton("b") { ReB() }
        createSingleton("late") { [gate] in try gate.make() }
    }

    private static func makeX(_ site: SwallowSite, _ slot: ReentrantSlot, _ r: Resolver) throws -> ReX {
        switch site {
        case .resolverTry, .prototypeClosure, .eagerStart, .topLevel:
            _ = try? r.object("a", as: ReA.self)
        case .resolverCatch:
            do { _ = try r.object("a", as: ReA.self) } catch {}
        case .directCall:
            _ = try? slot.context?.object("a", as: ReA.self)
        case .didInject:
            break
        }
        return ReX()
    }
}

/// `x` swallows the failure of `a`, then asks for `b` (which the failed attempt made, holding
/// the unfinished `a`) and keeps it.
private final class ReKeepsB {
    let b: ReB
    init(b: ReB) { self.b = b }
}

private struct SwallowThenAskAgainFactory: ObjectFactory {
    let gate = ReGate()
    var definitions: Definitions {
        createSingleton("x") { r in
            _ = try? r.object("a", as: ReA.self)
            return ReKeepsB(b: try r.object("b"))
        }
        createSingleton("a") { ReA() }
        createSingleton("b") { ReB() }
        createSingleton("late") { [gate] in try gate.make() }
    }
}

/// As `SwallowFactory` with `.resolverTry`, with async closures and lookups.
private struct SwallowAsyncFactory: ObjectFactory {
    let gate = ReGate()
    var definitions: Definitions {
        createSingleton("outer") { () async -> ReOuter in ReOuter(site: .resolverTry) }
        createSingleton("x") { (r: Resolver) async -> ReX in
            _ = try? await r.object("a", as: ReA.self)
            return ReX()
        }
        createSingleton("a") { ReA() }
        createSingleton("b") { ReB() }
        createSingleton("late") { [gate] in try gate.make() }
    }
}

// MARK: Contexts inside closures

private final class ReRepository: Sendable {}

private final class ReService: Sendable {
    let repository: ReRepository
    init(repository: ReRepository) { self.repository = repository }
}

/// Keys equal to the outer factory's, on purpose: an inner start that saw the outer frames would
/// find `service → … → service`.
private struct ReInnerFactory: ObjectFactory {
    var contextName: String { "Inner" }
    var definitions: Definitions {
        createEagerSingleton("service") { r in ReService(repository: try r.object("repository")) }
        createEagerSingleton("repository") { ReRepository() }
    }
}

private struct ReInnerFailingFactory: ObjectFactory {
    var contextName: String { "InnerFailing" }
    var definitions: Definitions {
        createEagerSingleton("service") { r in ReService(repository: try r.object("missing")) }
    }
}

/// What an inner start gave: its context, or its error.
private struct ReInnerOutcome: Sendable {
    let context: ApplicationContext?
    let error: ContextError?

    init(_ start: () throws(ContextError) -> ApplicationContext) {
        do throws(ContextError) {
            context = try start()
            error = nil
        } catch {
            context = nil
            self.error = error
        }
    }

    init(async start: () async throws(ContextError) -> ApplicationContext) async {
        do throws(ContextError) {
            context = try await start()
            error = nil
        } catch {
            context = nil
            self.error = error
        }
    }
}

private struct ReOuterFactory: ObjectFactory {
    var contextName: String { "Outer" }
    var definitions: Definitions {
        createEagerSingleton("service") { ReInnerOutcome { () throws(ContextError) in try ApplicationContext(ReInnerFactory()) } }
        createSingleton("lazyService") { ReInnerOutcome { () throws(ContextError) in try ApplicationContext(ReInnerFactory()) } }
        createSingleton("repository") { r in try r.object("lazyService", as: ReInnerOutcome.self) }
        createSingleton("failing") { ReInnerOutcome { () throws(ContextError) in try ApplicationContext(ReInnerFailingFactory()) } }
        createSingleton("top") { r in try r.object("failing", as: ReInnerOutcome.self) }
    }
}

private struct ReAsyncOuterFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("service") { () async -> ReInnerOutcome in
            await ReInnerOutcome { () async throws(ContextError) in try await ApplicationContext(ReInnerFactory()) }
        }
        createSingleton("failing") { () async -> ReInnerOutcome in
            await ReInnerOutcome { () async throws(ContextError) in try await ApplicationContext(ReInnerFailingFactory()) }
        }
    }
}

/// A cycle of its own, looked up by a closure of another context.
private struct ReInnerCycleFactory: ObjectFactory {
    var contextName: String { "InnerCycle" }
    var definitions: Definitions {
        createSingleton("c1") { r in
            _ = try r.object("c2", as: ReNode.self)
            return ReNode()
        }
        createSingleton("c2") { r in
            _ = try r.object("c1", as: ReNode.self)
            return ReNode()
        }
    }
}

private struct ReBuilderFactory: ObjectFactory {
    let seen = ReErrorBox()
    var definitions: Definitions {
        createSingleton("builder") { [seen] () throws -> ReNode in
            let inner = try ApplicationContext(ReInnerCycleFactory())
            do throws(ContextError) {
                _ = try inner.object("c1", as: ReNode.self)
            } catch {
                seen.error = error
            }
            return ReNode()
        }
        createSingleton("top") { r in try r.object("builder", as: ReNode.self) }
    }
}

// MARK: objects(of:) in didInject

private protocol ReRoute: AnyObject {}
private final class ReUsersRoute: ReRoute {}
private final class ReStatusRoute: ReRoute {}
private final class ReClock {}

/// Not a route itself; its `didInject` collects the routes.
private final class ReHealthHandler: InjectionAware {
    @Inject var clock: ReClock
    var routes: [any ReRoute] = []
    var error: ContextError?
    let single: Bool
    init(single: Bool = false) { self.single = single }

    func didInject(from context: ApplicationContext) {
        do throws(ContextError) {
            if single {
                routes = [try context.object(of: ReStatusRoute.self)]
            } else {
                routes = try context.objects(of: (any ReRoute).self)
            }
        } catch {
            self.error = error
        }
    }
}

/// Declared as `AnyObject`, so finding the routes means making (probing) each definition,
/// `healthHandler` included.
private struct ReRoutesFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { ReClock() }
        createPrototype("healthHandler") { ReHealthHandler() as AnyObject }
        createPrototype("singleHandler") { ReHealthHandler(single: true) as AnyObject }
        createSingleton("users") { ReUsersRoute() as AnyObject }
        createPrototype("status") { ReStatusRoute() as AnyObject }
    }
}

/// The routes factory plus a singleton handler: its `didInject` asks for the routes while it is
/// itself being made, and finding out that it is not a route means looking at it.
private struct ReRoutesSingletonFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { ReClock() }
        createSingleton("healthSingleton") { ReHealthHandler() as AnyObject }
        createSingleton("users") { ReUsersRoute() as AnyObject }
        createPrototype("status") { ReStatusRoute() as AnyObject }
    }
}

// MARK: Direct calls

private final class ReNode {}

private final class ReSelfInjectingHelper {
    @Inject var selfInjecting: ReNode
}

private final class ReSeesPartner: InjectionAware {
    @Inject var clock: ReClock
    var partner: RePartner?
    var error: ContextError?
    func didInject(from context: ApplicationContext) {
        do throws(ContextError) {
            partner = try context.object("partner", as: RePartner.self)
        } catch {
            self.error = error
        }
    }
}

private final class RePartner {
    @Inject var seesPartner: ReSeesPartner
}

private final class ReErrorBox: @unchecked Sendable {
    // Safe: written by the closure before it returns, read by the test after the lookup.
    var error: ContextError?
}

private struct ReDirectFactory: ObjectFactory {
    let slot = ReentrantSlot()
    let seen = ReErrorBox()
    let cycleSeen = ReErrorBox()

    var definitions: Definitions {
        createSingleton("selfish") { [slot] () throws -> ReNode in
            _ = try slot.context?.object("selfish", as: ReNode.self)
            return ReNode()
        }
        createSingleton("ping") { [slot] () throws -> ReNode in
            _ = try slot.context?.object("pong", as: ReNode.self)
            return ReNode()
        }
        createSingleton("pong") { r in
            _ = try r.object("ping", as: ReNode.self)
            return ReNode()
        }
        createSingleton("caller") { [slot, seen] () -> ReNode in
            do throws(ContextError) {
                _ = try slot.context?.object("callee", as: ReNode.self)
            } catch {
                seen.error = error
            }
            return ReNode()
        }
        createSingleton("callee") { r in
            _ = try r.object("missing", as: ReNode.self)
            return ReNode()
        }
        createSingleton("clock") { ReClock() }
        createSingleton("seesPartner") { ReSeesPartner() }
        createSingleton("partner") { RePartner() }
        createSingleton("sharedNode") { ReNode() }
        createSingleton("directNode") { [slot] () throws -> ReNode in
            try slot.context!.object("sharedNode", as: ReNode.self)
        }
        createSingleton("viaResolver") { r in try r.object("sharedNode", as: ReNode.self) }
        // A cycle the caller is not part of, reached by a direct call.
        createSingleton("cycleCaller") { [slot, cycleSeen] () -> ReNode in
            do throws(ContextError) {
                _ = try slot.context?.object("c1", as: ReNode.self)
            } catch {
                cycleSeen.error = error
            }
            return ReNode()
        }
        createSingleton("c1") { r in
            _ = try r.object("c2", as: ReNode.self)
            return ReNode()
        }
        createSingleton("c2") { r in
            _ = try r.object("c1", as: ReNode.self)
            return ReNode()
        }
        // A helper injected by a direct call whose property names the definition making it; and
        // two definitions reaching that one by direct calls.
        createSingleton("selfInjecting") { [slot] () throws -> ReNode in
            try slot.context!.inject(into: ReSelfInjectingHelper())
            return ReNode()
        }
        createSingleton("injectsHelper") { [slot] () throws -> ReNode in
            try slot.context!.inject(into: ReSelfInjectingHelper())
            return ReNode()
        }
        createSingleton("asksSelfInjecting") { [slot] () throws -> ReNode in
            _ = try slot.context!.object("selfInjecting", as: ReNode.self)
            return ReNode()
        }
    }

    func context() throws -> ApplicationContext {
        let context = try ApplicationContext(self)
        slot.set(context)
        return context
    }
}

/// The outcome of looking `key` up on a thread of its own, bounded by the hang guard.
private func boundedLookUp<T>(_ context: ApplicationContext, _ key: String, as type: T.Type) throws -> Result<ObjectIdentifier?, ContextError> {
    let outcome = Guarded<Result<ObjectIdentifier?, ContextError>?>(nil)
    let finished = ConcurrencyThreads.run(1) { _ in
        do throws(ContextError) {
            let object = try context.object(key, as: T.self)
            outcome.withLock { $0 = .success((object as AnyObject?).map(ObjectIdentifier.init)) }
        } catch {
            outcome.withLock { $0 = .failure(error) }
        }
    }
    try #require(finished, "looking up '\(key)' did not finish: a deadlock")
    return try #require(outcome.value)
}

// MARK: - Tests

@Suite("Re-entrant calls")
struct ReentrancyTests {
    // MARK: Point 2: a swallowed failure caches nothing that saw it

    @Test(arguments: SwallowSite.allCases)
    func failureSwallowedInsideAnotherResolutionCachesNothingThatSawTheFailedObject(site: SwallowSite) throws {
        let factory = SwallowFactory(site: site)
        let context = try ApplicationContext(factory)
        factory.slot.set(context)
        if site == .topLevel {
            _ = try context.object("x", as: ReX.self)
        } else {
            let outer = try context.object("outer", as: ReOuter.self)
            _ = try outer.$x.get()
        }
        #expect(factory.gate.calls.value == 1, "the failing injection of 'a' did not run: the test proves nothing")
        // `late` works now. If `b` had been published holding the first, failed `a`, it would
        // still hold it; made afresh, `b` and `a` hold each other.
        let b = try context.object("b", as: ReB.self)
        let a = try context.object("a", as: ReA.self)
        #expect(b.a === a, "\(site): 'b' was published holding the unfinished 'a' whose injection failed")
        #expect(a.b === b, "\(site)")
        #expect(factory.gate.calls.value == 2, "\(site)")
    }

    @Test(arguments: SwallowSite.allCases)
    func failedObjectIsNotPublishedAfterItsFailureWasSwallowed(site: SwallowSite) throws {
        let factory = SwallowFactory(site: site)
        let context = try ApplicationContext(factory)
        factory.slot.set(context)
        if site == .topLevel {
            _ = try context.object("x", as: ReX.self)
        } else {
            _ = try context.object("outer", as: ReOuter.self)
        }
        let rows = diagnosticsTableRows(context)
        #expect(rows.first { $0["key"] == "a" }?["made"] == "no", "\(site): the failed 'a' was published")
        #expect(rows.first { $0["key"] == "b" }?["made"] == "no", "\(site): 'b', holding the failed 'a', was published")
    }

    @Test func closureThatSwallowedAFailureThenAsksAgainNeverGetsAnObjectHoldingTheFailedOne() throws {
        let factory = SwallowThenAskAgainFactory()
        let context = try ApplicationContext(factory)
        let x = try context.object("x", as: ReKeepsB.self)
        #expect(factory.gate.calls.value == 2, "the failing injection of 'a' did not run, or did not run again")
        let a = try context.object("a", as: ReA.self)
        #expect(x.b.a === a, "the closure got the 'b' made during the failed attempt, holding the failed 'a'")
        #expect(x.b === (try context.object("b", as: ReB.self)))
        #expect((try? x.b.a.$late.get()) != nil, "the 'a' inside 'b' was never completely injected")
    }

    @Test func failureSwallowedInAnAsyncClosureCachesNothingThatSawTheFailedObject() async throws {
        let factory = SwallowAsyncFactory()
        let context = try await ApplicationContext(factory)
        let outer: ReOuter = try await context.object("outer")
        _ = try await outer.$x.get()
        #expect(factory.gate.calls.value == 1, "the failing injection of 'a' did not run: the test proves nothing")
        let b: ReB = try await context.object("b")
        let a: ReA = try await context.object("a")
        #expect(b.a === a, "'b' was published holding the unfinished 'a' whose injection failed")
        #expect(a.b === b)
    }

    // MARK: Point 4: a context built and started inside a closure

    @Test func contextStartedInsideAnEagerSingletonsClosureDoesNotSeeTheCallersFrames() throws {
        let outer = try ApplicationContext(ReOuterFactory())
        let outcome = try outer.object("service", as: ReInnerOutcome.self)
        #expect(outcome.error == nil, "the inner start saw the outer frames: \(String(describing: outcome.error))")
        let inner = try #require(outcome.context)
        let service = try inner.object("service", as: ReService.self)
        #expect(service.repository === (try inner.object("repository", as: ReRepository.self)))
    }

    @Test func contextStartedInsideALazySingletonReachedThroughAResolverDoesNotSeeTheCallersFrames() throws {
        let outer = try ApplicationContext(ReOuterFactory())
        // repository (Outer) → lazyService (Outer) → start of Inner: service → repository.
        let outcome = try outer.object("repository", as: ReInnerOutcome.self)
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
    }

    @Test func failedStartInsideAClosureReportsOnlyItsOwnPath() throws {
        let outer = try ApplicationContext(ReOuterFactory())
        let outcome = try outer.object("top", as: ReInnerOutcome.self)
        #expect(outcome.context == nil)
        #expect(outcome.error == .noSuchObject(key: "missing", searched: ["InnerFailing"], path: ["service", "missing"]))
    }

    @Test func startupReportsOfNestedStartsKeepToTheirOwnContexts() throws {
        let outer = try ApplicationContext(ReOuterFactory())
        #expect(outer.startupReport.entries.map(\.key) == ["service"])
        let pulledIn = outer.startupReport.entries.flatMap(\.pulledIn)
        #expect(!pulledIn.contains { $0.contains("Inner") || $0.contains("repository") }, "\(pulledIn)")
        let inner = try #require(try outer.object("service", as: ReInnerOutcome.self).context)
        #expect(Set(inner.startupReport.entries.map(\.key)).isSubset(of: ["service", "repository"]))
        #expect(inner.startupReport.entries.map(\.key).contains("service"))
    }

    @Test func contextStartedWithAwaitInsideAnAsyncClosureDoesNotSeeTheCallersFrames() async throws {
        let outer = try await ApplicationContext(ReAsyncOuterFactory())
        let outcome: ReInnerOutcome = try await outer.object("service")
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        let failing: ReInnerOutcome = try await outer.object("failing")
        #expect(failing.error == .noSuchObject(key: "missing", searched: ["InnerFailing"], path: ["service", "missing"]))
    }

    // MARK: Point 4: objects(of:) inside didInject

    @Test func objectsOfTypeInsideAPrototypesDidInjectFindsTheRoutesWithoutASpuriousCycle() throws {
        let context = try ApplicationContext(ReRoutesFactory())
        let handler = try context.object("healthHandler", as: ReHealthHandler.self)
        #expect(handler.error == nil, "\(String(describing: handler.error))")
        #expect(handler.routes.count == 2)
        #expect(handler.routes.first === (try context.object("users", as: ReUsersRoute.self)))
        #expect(handler.routes.last is ReStatusRoute)
    }

    @Test func objectOfTypeInsideAPrototypesDidInjectFindsTheOneWithoutASpuriousCycle() throws {
        let context = try ApplicationContext(ReRoutesFactory())
        let handler = try context.object("singleHandler", as: ReHealthHandler.self)
        #expect(handler.error == nil, "\(String(describing: handler.error))")
        #expect(handler.routes.first is ReStatusRoute)
    }

    @Test func objectsOfTypeInsideASingletonsDidInjectFindsTheRoutesWithoutASpuriousCycle() throws {
        let context = try ApplicationContext(ReRoutesSingletonFactory())
        // Bounded: the singleton asks about itself while it is being made.
        let outcome = try boundedLookUp(context, "healthSingleton", as: ReHealthHandler.self)
        guard case .success = outcome else {
            Issue.record("expected success, got \(outcome)")
            return
        }
        let handler = try context.object("healthSingleton", as: ReHealthHandler.self)
        #expect(handler.error == nil, "\(String(describing: handler.error))")
        #expect(handler.routes.count == 2)
    }

    @Test func objectsOfTypeInsideADidInjectReachedThroughAResolverFindsTheRoutes() throws {
        // The handler is made for another definition's closure: the outer frames are longer.
        struct Factory: ObjectFactory {
            var definitions: Definitions {
                ReRoutesFactory().definitions
                createSingleton("app") { r in try r.object("healthHandler", as: ReHealthHandler.self) }
            }
        }
        let context = try ApplicationContext(Factory())
        let handler = try context.object("app", as: ReHealthHandler.self)
        #expect(handler.error == nil, "\(String(describing: handler.error))")
        #expect(handler.routes.count == 2)
    }

    // MARK: Point 4: calls made directly on the context

    @Test func closureLookingItselfUpDirectlyIsACircularDependencyNotADeadlock() throws {
        let factory = ReDirectFactory()
        let context = try factory.context()
        let outcome = try boundedLookUp(context, "selfish", as: ReNode.self)
        guard case let .failure(error) = outcome, case let .circularDependency(path) = error else {
            Issue.record("expected circularDependency, got \(outcome)")
            return
        }
        #expect(path.first == "selfish" && path.last == "selfish", "\(path)")
    }

    @Test func cycleClosedByADirectCallIsACircularDependencyNotADeadlock() throws {
        let factory = ReDirectFactory()
        let context = try factory.context()
        let outcome = try boundedLookUp(context, "ping", as: ReNode.self)
        guard case let .failure(error) = outcome, case let .circularDependency(path) = error else {
            Issue.record("expected circularDependency, got \(outcome)")
            return
        }
        #expect(path.contains("ping") && path.contains("pong"), "\(path)")
        #expect(path.first == path.last, "\(path)")
    }

    @Test func directCallInAClosureHasItsOwnPath() throws {
        let factory = ReDirectFactory()
        let context = try factory.context()
        _ = try context.object("caller", as: ReNode.self)
        #expect(factory.seen.error == .noSuchObject(key: "missing", searched: ["ReDirectFactory"], path: ["callee", "missing"]))
    }

    @Test func cycleReachedByADirectCallInAClosureHasOnlyTheCycleInItsPath() throws {
        let factory = ReDirectFactory()
        let context = try factory.context()
        _ = try context.object("cycleCaller", as: ReNode.self)
        #expect(factory.cycleSeen.error == .circularDependency(path: ["c1", "c2", "c1"]))
    }

    @Test(arguments: ["selfInjecting", "injectsHelper", "asksSelfInjecting"])
    func cycleThroughAnInjectionByADirectCallHasOnlyTheCycleInItsPath(asked: String) throws {
        // Docs/Concurrency.md: a direct call is a nested lookup with its own path; the cycle it
        // meets is reported with the cycle's keys only, whoever asked.
        let context = try ReDirectFactory().context()
        let error = syncError { try context.object(asked, as: ReNode.self) }
        #expect(error == .circularDependency(path: ["selfInjecting", "selfInjecting"]), "asked for '\(asked)'")
    }

    @Test func cycleInAContextBuiltInsideAClosureHasOnlyItsOwnPath() throws {
        let factory = ReBuilderFactory()
        let context = try ApplicationContext(factory)
        _ = try context.object("top", as: ReNode.self)
        #expect(factory.seen.error == .circularDependency(path: ["c1", "c2", "c1"]))
    }

    @Test func directCallInAClosureReturnsTheSameSingletonAsTheResolver() throws {
        let factory = ReDirectFactory()
        let context = try factory.context()
        let direct = try context.object("directNode", as: ReNode.self)
        let resolved = try context.object("viaResolver", as: ReNode.self)
        #expect(direct === resolved)
        #expect(direct === (try context.object("sharedNode", as: ReNode.self)))
    }

    @Test func didInjectLookingUpItsPropertyCyclePartnerDirectlyGetsTheOneInstance() throws {
        let factory = ReDirectFactory()
        let context = try factory.context()
        let outcome = try boundedLookUp(context, "seesPartner", as: ReSeesPartner.self)
        guard case .success = outcome else {
            Issue.record("expected success, got \(outcome)")
            return
        }
        let seesPartner = try context.object("seesPartner", as: ReSeesPartner.self)
        let partner = try context.object("partner", as: RePartner.self)
        #expect(seesPartner.error == nil, "\(String(describing: seesPartner.error))")
        #expect(seesPartner.partner === partner)
        #expect(partner.seesPartner === seesPartner)
    }
}
