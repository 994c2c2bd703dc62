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

// Issue 10, point 3: no user code runs while the library holds a lock. Closures, `didInject`,
// `dispose` and every `deinit` the library triggers (objects discarded after a failed injection,
// a failed start, a type probe, a released context) may look objects up: on the same thread in
// the same context, or by waiting for another thread that looks up an unrelated context. Under
// a lock held by the library either deadlocks, and a deadlock under a process-wide lock would
// stop every other test too, so each scenario runs in an exit test: its child process waits for
// the scenario with the hang guard and exits with a code saying what went wrong.

/// Exit codes of the scenarios.
private enum LockExit {
    static let ok: Int32 = 0
    static let hung: Int32 = 10
    static let setUpFailed: Int32 = 11
    static let wrongOutcome: Int32 = 12
    static let hookNeverRan: Int32 = 13
}

// MARK: - Fixtures

private final class LockClock: Sendable {}
private struct LockStartFailure: Error {}
private final class LockMissing {}

/// What the hooks of one scenario need and what they found.
private final class LockSlot: Sendable {
    private struct State {
        /// The context the hooks look up directly (weak: objects of the context hold the slot).
        weak var context: ApplicationContext?
        /// An unrelated context that other threads look up.
        var unrelated: ApplicationContext?
        var records: [String] = []
    }

    private let state = Guarded(State())

    var context: ApplicationContext? { state.withLock { $0.context } }
    var unrelated: ApplicationContext? { state.withLock { $0.unrelated } }
    var records: [String] { state.withLock { $0.records } }

    func set(context: ApplicationContext) { state.withLock { $0.context = context } }
    func set(unrelated: ApplicationContext) { state.withLock { $0.unrelated = unrelated } }
    func record(_ entry: String) { state.withLock { $0.records.append(entry) } }

    /// Looks up `key` in the slot's context, here, and records what happened.
    func lookUpHere(_ key: String, as label: String) {
        guard let context else { return record("\(label): no context") }
        do throws(ContextError) {
            _ = try context.object(key, as: LockClock.self)
            record("\(label): found")
        } catch {
            record("\(label): \(error)")
        }
    }

    /// Looks up `key` in the unrelated context on another thread, waits for it, and records what
    /// happened: "hung" if the other thread never finished (it is blocked by a lock this thread
    /// holds).
    func lookUpOnAnotherThread(_ key: String, as label: String) {
        guard let unrelated else { return record("\(label): no unrelated context") }
        let found = ConcurrencyFlag()
        let finished = ConcurrencyThreads.run(1) { _ in
            if (try? unrelated.object(key, as: LockClock.self)) != nil { found.set() }
        }
        record("\(label): \(finished ? (found.isSet ? "found" : "failed") : "hung")")
    }
}

/// Clocks for other threads to make: every scenario asks for a singleton not made yet.
private struct LockUnrelatedFactory: ObjectFactory {
    var contextName: String { "Unrelated" }
    var definitions: Definitions {
        createSingleton("clock1") { LockClock() }
        createSingleton("clock2") { LockClock() }
        createSingleton("clock3") { LockClock() }
    }
}

/// An object whose injection fails and whose `deinit` looks `clock` up, here and from
/// another thread.
private final class LockDoomed {
    @Inject var missing: LockMissing
    let slot: LockSlot
    let label: String
    init(_ slot: LockSlot, _ label: String) {
        self.slot = slot
        self.label = label
    }

    deinit {
        slot.lookUpHere("clock", as: "\(label) deinit here")
        slot.lookUpOnAnotherThread("clock1", as: "\(label) deinit other thread")
    }
}

/// Nothing to inject (its type probe would be kept), so it has one `@Inject` to make the probe
/// a discarded instance.
private final class LockProbed {
    @Inject var clock: LockClock
    let slot: LockSlot
    init(_ slot: LockSlot) { self.slot = slot }
    deinit { slot.lookUpHere("otherClock", as: "probe deinit") }
}

private protocol LockRoute {}

/// Looked up to hold a reference to the context and be released with it.
private final class LockReleased {
    let slot: LockSlot
    init(_ slot: LockSlot) { self.slot = slot }
    deinit {
        slot.lookUpHere("clock", as: "released deinit here")
        slot.lookUpOnAnotherThread("clock2", as: "released deinit other thread")
    }
}

private final class LockHooked: InjectionAware {
    @Inject var clock: LockClock
    let slot: LockSlot
    init(_ slot: LockSlot) { self.slot = slot }
    func didInject(from context: ApplicationContext) {
        do throws(ContextError) {
            _ = try context.object("otherClock", as: LockClock.self)
            slot.record("didInject here: found")
        } catch {
            slot.record("didInject here: \(error)")
        }
        slot.lookUpOnAnotherThread("clock2", as: "didInject other thread")
    }
}

private final class LockDisposed: Disposable {
    let slot: LockSlot
    init(_ slot: LockSlot) { self.slot = slot }
    func dispose() throws {
        slot.lookUpOnAnotherThread("clock3", as: "dispose other thread")
    }
}

private struct LockFactory: ObjectFactory {
    var contextName: String { "Locks" }
    let slot: LockSlot
    var definitions: Definitions {
        createSingleton("clock") { LockClock() }
        createSingleton("otherClock") { LockClock() }
        createSingleton("doomedSingleton") { [slot] in LockDoomed(slot, "singleton") }
        createPrototype("doomedPrototype") { [slot] in LockDoomed(slot, "prototype") }
        createSingleton("hooked") { [slot] in LockHooked(slot) }
        createSingleton("closure") { [slot] () -> LockClock in
            slot.lookUpOnAnotherThread("clock3", as: "closure other thread")
            return LockClock()
        }
    }
}

/// Only a prototype declared as `AnyObject`: `objects(of:)` must make one to learn its type
/// (lazy singletons not declared as the type are made too, so there are none but the one the
/// probe's `deinit` looks up).
private struct LockProbeFactory: ObjectFactory {
    var contextName: String { "Probe" }
    let slot: LockSlot
    var definitions: Definitions {
        createSingleton("otherClock") { LockClock() }
        createPrototype("probed") { [slot] in LockProbed(slot) as AnyObject }
    }
}

/// A child whose eager singleton fails its injection: the start fails and discards it.
private struct LockFailingStartFactory: ObjectFactory {
    var contextName: String { "FailingStart" }
    let slot: LockSlot
    var definitions: Definitions {
        createEagerSingleton("good") { [slot] in LockReleased(slot) }
        createEagerSingleton("doomed") { [slot] in LockDoomed(slot, "start") }
    }
}

/// A child context whose singletons are released with it.
private struct LockChildFactory: ObjectFactory {
    var contextName: String { "Child" }
    let slot: LockSlot
    var definitions: Definitions {
        createSingleton("released") { [slot] in LockReleased(slot) }
        createSingleton("disposed") { [slot] in LockDisposed(slot) }
    }
}

/// An async start that fails after making `good`, which it must release.
private struct LockFailingAsyncStartFactory: ObjectFactory {
    var contextName: String { "FailingAsyncStart" }
    let slot: LockSlot
    var definitions: Definitions {
        createEagerSingleton("good") { [slot] () async -> LockReleased in LockReleased(slot) }
        createEagerSingleton("bad") { (r: Resolver) async throws -> LockClock in
            _ = try await r.object("good", as: LockReleased.self)
            throw LockStartFailure()
        }
    }
}

private final class LockLazyReader {
    @Inject("slowClock", .lazy) var clock: LockClock
}

/// A lazy property whose first read makes a singleton whose closure waits for another thread.
private struct LockLazyFactory: ObjectFactory {
    var contextName: String { "Lazy" }
    let slot: LockSlot
    var definitions: Definitions {
        createSingleton("slowClock") { [slot] () -> LockClock in
            slot.lookUpOnAnotherThread("clock1", as: "lazy closure other thread")
            return LockClock()
        }
        createPrototype("reader") { LockLazyReader() }
    }
}

/// `dispose` re-enters the closing context: a lookup and a second `close`.
private final class LockReentrantDisposed: Disposable {
    let slot: LockSlot
    init(_ slot: LockSlot) { self.slot = slot }
    func dispose() throws {
        guard let context = slot.context else { return slot.record("dispose: no context") }
        do throws(ContextError) {
            _ = try context.object("clock", as: LockClock.self)
            slot.record("dispose lookup: found")
        } catch {
            if case .contextClosed = error { slot.record("dispose lookup: contextClosed") } else { slot.record("dispose lookup: \(error)") }
        }
        do throws(ContextError) {
            try context.close()
            slot.record("dispose close: returned")
        } catch {
            slot.record("dispose close: \(error)")
        }
    }
}

private struct LockReentrantCloseFactory: ObjectFactory {
    var contextName: String { "ReentrantClose" }
    let slot: LockSlot
    var definitions: Definitions {
        createSingleton("clock") { LockClock() }
        createSingleton("disposed") { [slot] in LockReentrantDisposed(slot) }
    }
}

/// The parent the hooks of the child scenarios look up.
private struct LockParentFactory: ObjectFactory {
    var contextName: String { "Parent" }
    var definitions: Definitions {
        createSingleton("clock") { LockClock() }
    }
}

// MARK: - Scenarios (each runs in a child process)

/// Runs `body` on another thread with the hang guard; the exit code it returned, or `hung`.
private func bounded(_ body: @escaping @Sendable () -> Int32) -> Int32 {
    let code = Guarded<Int32>(LockExit.hung)
    let finished = ConcurrencyThreads.run(1) { _ in
        let result = body()
        code.withLock { $0 = result }
    }
    return finished ? code.value : LockExit.hung
}

/// A slot with `Locks` as its context and a fresh unrelated context; `nil` if either failed.
private func lockSetUp() -> (LockSlot, ApplicationContext)? {
    let slot = LockSlot()
    guard let context = try? ApplicationContext(LockFactory(slot: slot)),
          let unrelated = try? ApplicationContext(LockUnrelatedFactory()) else { return nil }
    slot.set(context: context)
    slot.set(unrelated: unrelated)
    return (slot, context)
}

/// `expected` records, in any order, else `wrongOutcome` (printing what was recorded).
private func expectRecords(_ slot: LockSlot, _ expected: Set<String>) -> Int32 {
    let records = slot.records
    if records.isEmpty { return LockExit.hookNeverRan }
    if Set(records) != expected {
        print("recorded: \(records)")
        return LockExit.wrongOutcome
    }
    return LockExit.ok
}

private func discardedSingletonScenario() -> Int32 {
    bounded {
        guard let (slot, context) = lockSetUp() else { return LockExit.setUpFailed }
        guard (try? context.object("doomedSingleton", as: LockDoomed.self)) == nil else { return LockExit.wrongOutcome }
        return expectRecords(slot, ["singleton deinit here: found", "singleton deinit other thread: found"])
    }
}

private func discardedPrototypeScenario() -> Int32 {
    bounded {
        guard let (slot, context) = lockSetUp() else { return LockExit.setUpFailed }
        guard (try? context.object("doomedPrototype", as: LockDoomed.self)) == nil else { return LockExit.wrongOutcome }
        return expectRecords(slot, ["prototype deinit here: found", "prototype deinit other thread: found"])
    }
}

private func failedStartScenario() -> Int32 {
    bounded {
        let slot = LockSlot()
        guard let parent = try? ApplicationContext(LockParentFactory()),
              let unrelated = try? ApplicationContext(LockUnrelatedFactory()) else { return LockExit.setUpFailed }
        slot.set(context: parent)
        slot.set(unrelated: unrelated)
        guard (try? ApplicationContext(LockFailingStartFactory(slot: slot), parent: parent)) == nil else { return LockExit.wrongOutcome }
        return expectRecords(slot, [
            "start deinit here: found", "start deinit other thread: found",
            "released deinit here: found", "released deinit other thread: found",
        ])
    }
}

private func typeProbeScenario() -> Int32 {
    bounded {
        let slot = LockSlot()
        guard let context = try? ApplicationContext(LockProbeFactory(slot: slot)) else { return LockExit.setUpFailed }
        slot.set(context: context)
        // `probed` is declared as AnyObject: finding out whether it is a LockRoute makes one.
        guard let routes = try? context.objects(of: (any LockRoute).self), routes.isEmpty else { return LockExit.wrongOutcome }
        return expectRecords(slot, ["probe deinit: found"])
    }
}

private func releasedChildScenario() -> Int32 {
    bounded {
        let slot = LockSlot()
        guard let parent = try? ApplicationContext(LockParentFactory()),
              let unrelated = try? ApplicationContext(LockUnrelatedFactory()) else { return LockExit.setUpFailed }
        slot.set(context: parent)
        slot.set(unrelated: unrelated)
        do {
            let child = try ApplicationContext(LockChildFactory(slot: slot), parent: parent)
            _ = try child.object("released", as: LockReleased.self)
        } catch {
            return LockExit.setUpFailed
        }
        // The child and its singleton are gone: the deinit has run.
        return expectRecords(slot, ["released deinit here: found", "released deinit other thread: found"])
    }
}

private func hooksScenario() -> Int32 {
    bounded {
        guard let (slot, context) = lockSetUp() else { return LockExit.setUpFailed }
        guard (try? context.object("hooked", as: LockHooked.self)) != nil,
              (try? context.object("closure", as: LockClock.self)) != nil else { return LockExit.wrongOutcome }
        return expectRecords(slot, ["didInject here: found", "didInject other thread: found", "closure other thread: found"])
    }
}

private func disposeScenario() -> Int32 {
    bounded {
        let slot = LockSlot()
        guard let parent = try? ApplicationContext(LockParentFactory()),
              let unrelated = try? ApplicationContext(LockUnrelatedFactory()) else { return LockExit.setUpFailed }
        slot.set(context: parent)
        slot.set(unrelated: unrelated)
        do {
            let child = try ApplicationContext(LockChildFactory(slot: slot), parent: parent)
            _ = try child.object("disposed", as: LockDisposed.self)
            try child.close()
        } catch {
            return LockExit.wrongOutcome
        }
        return expectRecords(slot, ["dispose other thread: found"])
    }
}

private func failedAsyncStartScenario() -> Int32 {
    bounded {
        let slot = LockSlot()
        guard let parent = try? ApplicationContext(LockParentFactory()),
              let unrelated = try? ApplicationContext(LockUnrelatedFactory()) else { return LockExit.setUpFailed }
        slot.set(context: parent)
        slot.set(unrelated: unrelated)
        let started = ConcurrencyFlag()
        let done = ConcurrencyLatch(count: 1)
        Task {
            if (try? await ApplicationContext(LockFailingAsyncStartFactory(slot: slot), parent: parent)) != nil { started.set() }
            done.countDown()
        }
        guard done.wait() else { return LockExit.hung }
        guard !started.isSet else { return LockExit.wrongOutcome }
        return expectRecords(slot, ["released deinit here: found", "released deinit other thread: found"])
    }
}

private func lazyPropertyScenario() -> Int32 {
    bounded {
        let slot = LockSlot()
        guard let context = try? ApplicationContext(LockLazyFactory(slot: slot)),
              let unrelated = try? ApplicationContext(LockUnrelatedFactory()),
              let reader = try? context.object("reader", as: LockLazyReader.self) else { return LockExit.setUpFailed }
        slot.set(context: context)
        slot.set(unrelated: unrelated)
        guard (try? reader.$clock.get()) != nil else { return LockExit.wrongOutcome }
        return expectRecords(slot, ["lazy closure other thread: found"])
    }
}

private func disposeReentersItsContextScenario() -> Int32 {
    bounded {
        let slot = LockSlot()
        guard let context = try? ApplicationContext(LockReentrantCloseFactory(slot: slot)),
              (try? context.object("disposed", as: LockReentrantDisposed.self)) != nil else { return LockExit.setUpFailed }
        slot.set(context: context)
        guard (try? context.close()) != nil else { return LockExit.wrongOutcome }
        return expectRecords(slot, ["dispose lookup: contextClosed", "dispose close: returned"])
    }
}

// MARK: - Tests

@Suite("No user code under a library lock")
struct UserCodeOutsideLocksTests {
    @Test func deinitOfASingletonDiscardedAfterAFailedInjectionMayLookUpObjects() async {
        await #expect(processExitsWith: .success) { exit(discardedSingletonScenario()) }
    }

    @Test func deinitOfAPrototypeDiscardedAfterAFailedInjectionMayLookUpObjects() async {
        await #expect(processExitsWith: .success) { exit(discardedPrototypeScenario()) }
    }

    @Test func deinitOfAnEagerSingletonDiscardedByAFailedStartMayLookUpObjects() async {
        await #expect(processExitsWith: .success) { exit(failedStartScenario()) }
    }

    @Test func deinitOfATypeProbeMayLookUpObjects() async {
        await #expect(processExitsWith: .success) { exit(typeProbeScenario()) }
    }

    @Test func deinitOfASingletonReleasedWithItsContextMayLookUpObjects() async {
        await #expect(processExitsWith: .success) { exit(releasedChildScenario()) }
    }

    @Test func didInjectAndClosuresMayWaitForLookupsOnOtherThreads() async {
        await #expect(processExitsWith: .success) { exit(hooksScenario()) }
    }

    @Test func deinitOfAnEagerSingletonReleasedByAFailedAsyncStartMayLookUpObjects() async {
        await #expect(processExitsWith: .success) { exit(failedAsyncStartScenario()) }
    }

    @Test func closureRunByALazyPropertysFirstReadMayWaitForLookupsOnOtherThreads() async {
        await #expect(processExitsWith: .success) { exit(lazyPropertyScenario()) }
    }

    @Test func disposeMayLookUpAndCloseItsOwnClosingContext() async {
        await #expect(processExitsWith: .success) { exit(disposeReentersItsContextScenario()) }
    }

    @Test func disposeMayWaitForLookupsOnOtherThreads() async {
        await #expect(processExitsWith: .success) { exit(disposeScenario()) }
    }
}
