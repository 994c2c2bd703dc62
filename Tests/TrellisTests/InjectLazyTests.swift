import Dispatch
import Synchronization
import Testing
import Trellis
import TrellisTestSupport

private final class Report {}

private final class LazyHolder {
    @Inject(.lazy) var report: Report
}

private final class KeyedLazyHolder {
    @Inject("monthlyReport", .lazy) var current: Report
}

private struct LazyFactory: ObjectFactory {
    let reportsMade: InjCounter
    var definitions: Definitions {
        createSingleton("report") { [reportsMade] in
            reportsMade.increment()
            return Report()
        }
        createSingleton("monthlyReport") { [reportsMade] in
            reportsMade.increment()
            return Report()
        }
        createSingleton("holder") { LazyHolder() }
        createPrototype("keyed") { KeyedLazyHolder() }
    }
}

@Test func lazyInjectIsNotMadeAtInjectionTime() throws {
    let made = InjCounter()
    let context = try ApplicationContext(LazyFactory(reportsMade: made))
    _ = try context.object("holder", as: LazyHolder.self)
    _ = try context.object("keyed", as: KeyedLazyHolder.self)
    #expect(made.value == 0)
}

@Test func lazyInjectIsMadeOnFirstAccessAndIsTheContextsSingleton() throws {
    let made = InjCounter()
    let context = try ApplicationContext(LazyFactory(reportsMade: made))
    let holder = try context.object("holder", as: LazyHolder.self)
    let first = holder.report
    #expect(made.value == 1)
    #expect(holder.report === first)
    #expect(try context.object("report", as: Report.self) === first)
    #expect(made.value == 1)
}

@Test func lazyInjectWithAnExplicitKeyLooksUpThatKey() throws {
    let made = InjCounter()
    let context = try ApplicationContext(LazyFactory(reportsMade: made))
    let holder = try context.object("keyed", as: KeyedLazyHolder.self)
    #expect(made.value == 0)
    #expect(holder.current === (try context.object("monthlyReport", as: Report.self)))
    #expect(made.value == 1)
}

// MARK: - Weak context

private struct WeakContextFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("report") { Report() }
        createSingleton("holder") { LazyHolder() }
    }
}

@Test func lazyInjectHoldsItsContextWeakly() throws {
    var holder: LazyHolder?
    weak var weakContext: ApplicationContext?
    do {
        let context = try ApplicationContext(WeakContextFactory())
        holder = try context.object("holder", as: LazyHolder.self)
        weakContext = context
        #expect(weakContext != nil)
    }
    // Reading `holder.report` now would stop the program by design; only check the context is gone.
    #expect(holder != nil)
    #expect(weakContext == nil)
}

// MARK: - First access from several threads

private final class Gadget {}

/// Shared across threads the documented way: injected first, then only read. Its lazy property's
/// first read is synchronised by Trellis, which is what the test checks.
private final class GadgetHolder: @unchecked Sendable {
    @Inject(.lazy) var gadget: Gadget
}

private struct GadgetFactory: ObjectFactory {
    let gadgetsMade: InjCounter
    /// Readers that have started reading in the current round.
    let readers: InjCounter
    var definitions: Definitions {
        createPrototype("gadget") { [gadgetsMade, readers] in
            let before = readers.value
            gadgetsMade.increment()
            // Widen the window a second reader could slip through, without waiting on time: spin
            // (bounded) until another reader has started, which a correct lock then holds back.
            for _ in 0..<200_000 where readers.value == before {}
            return Gadget()
        }
        createPrototype("holder") { GadgetHolder() }
    }
}

/// The one identity every reader saw, and how many readers saw another.
private final class SameInstance: Sendable {
    private let first = Atomic<Int>(0)
    private let others = Atomic<Int>(0)

    func saw(_ object: AnyObject) {
        let id = Int(bitPattern: UInt(bitPattern: ObjectIdentifier(object).hashValue))
        let (exchanged, original) = first.compareExchange(expected: 0, desired: id, ordering: .relaxed)
        if !exchanged && original != id { others.wrappingAdd(1, ordering: .relaxed) }
    }

    var mismatches: Int { others.load(ordering: .relaxed) }
}

@Test func lazyFirstAccessFromSeveralThreadsMakesAPrototypeOnce() throws {
    let made = InjCounter()
    let readers = InjCounter()
    let context = try ApplicationContext(GadgetFactory(gadgetsMade: made, readers: readers))
    let rounds = 50
    for round in 1...rounds {
        let holder = try context.object("holder", as: GadgetHolder.self)
        let seen = SameInstance()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            readers.increment()
            seen.saw(holder.gadget)
        }
        #expect(made.value == round, "round \(round): the prototype was made more than once")
        #expect(seen.mismatches == 0, "round \(round): readers saw different instances")
        #expect(holder.gadget === holder.gadget)
    }
}

// MARK: - Lazy optionals and defaults

private final class LazyOptionalHolder {
    @Inject(.lazy) var missing: Report?
    @Inject(.lazy) var fallback: Report = Report()
    @Inject(.lazy) var report: Report?
}

private struct LazyOptionalFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("report") { Report() }
        createPrototype("holder") { LazyOptionalHolder() }
    }
}

@Test func lazyOptionalWithNoSuchKeyIsNilAndLazyDefaultIsKept() throws {
    let context = try ApplicationContext(LazyOptionalFactory())
    let holder = try context.object("holder", as: LazyOptionalHolder.self)
    #expect(holder.missing == nil)
    let fallback = holder.fallback
    #expect(holder.fallback === fallback)
    #expect(holder.report === (try context.object("report", as: Report.self)))
}

// MARK: An awaited first read that comes back to its property

private final class ComingBack: Sendable {}

private final class ComingBackHolder: @unchecked Sendable {
    // Unchecked: the @Inject storage is written once, by the context, before the object is shared.
    @Inject("comingBack", .lazy) var comingBack: ComingBack
}

/// `comingBack`'s closure reads the property whose first read is looking it up.
private struct ComingBackFactory: ObjectFactory {
    let box = Guarded<ApplicationContext?>(nil)
    var definitions: Definitions {
        createSingleton("holder") { ComingBackHolder() }
        createSingleton("comingBack") { [box] () async throws -> ComingBack in
            let holder = try await box.value!.object("holder", as: ComingBackHolder.self)
            _ = try await holder.$comingBack.get()
            return ComingBack()
        }
    }
}

/// Docs/Concurrency.md: a read that comes back to the property while its first read is still
/// looking it up is a cycle, not a hang; awaited too.
@Test func anAwaitedFirstReadThatComesBackToItsPropertyIsACycle() async throws {
    let factory = ComingBackFactory()
    let context = try await ApplicationContext(factory)
    factory.box.withLock { $0 = context }
    let holder = try await context.object("holder", as: ComingBackHolder.self)
    let error = await AsyncHangGuard.run("the awaited first read") { await asyncError { try await holder.$comingBack.get() } }
    let thrown = try #require(error ?? nil, "the first read did not fail")
    guard case let .circularDependency(path) = thrown else {
        Issue.record("expected circularDependency, got \(thrown)")
        return
    }
    #expect(path == ["comingBack", "@Inject(.lazy) comingBack"], "\(path)")
}
