import Testing
@testable import Trellis
import TrellisTestSupport

// Docs/DESIGN.md ("A failure drops what may hold the failed object, and nothing that cannot"):
// what a failure drops may have been handed out early before the failed injection began; what
// its holders made since holds it, and is dropped too, never published holding a dropped object.

/// `hy` injects `hx` (which injects `hy` back: a property cycle on one lookup), then `hg`, whose
/// closure the test holds, then `hc`; `hc` injects `hy`, then `hf`, whose closure throws once.
private final class ClosureGates: Sendable {
    /// `hg`'s closure has begun (`hy` is being injected, `hx` waits for the group holding `hy`
    /// early); it waits for `gRelease`.
    let gEntered = ConcurrencyLatch(count: 1)
    let gRelease = ConcurrencyLatch(count: 1)
    let fRuns = ConcurrencyCounter()
}

private final class ClosureY: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var hx: ClosureX
    @Inject var hg: ClosureG
    @Inject var hc: ClosureC
}

private final class ClosureX: @unchecked Sendable {
    // Safe: as above.
    @Inject var hy: ClosureY
}

private final class ClosureC: @unchecked Sendable {
    // Safe: as above.
    @Inject var hy: ClosureY
    @Inject var hf: ClosureF
}

private final class ClosureG: Sendable {}
private final class ClosureF: Sendable {}
private struct ClosureFailure: Error {}

private struct DropClosureFactory: ObjectFactory {
    let gates = ClosureGates()

    var definitions: Definitions {
        createSingleton("hy") { ClosureY() }
        createSingleton("hx") { ClosureX() }
        createSingleton("hg") { [gates] () -> ClosureG in
            gates.gEntered.countDown()
            gates.gRelease.wait()
            return ClosureG()
        }
        createSingleton("hc") { ClosureC() }
        createSingleton("hf") { [gates] () throws -> ClosureF in
            gates.fRuns.increment()
            if gates.fRuns.value == 1 { throw ClosureFailure() }
            return ClosureF()
        }
    }
}

/// Thread 1's lookup of `hy` makes `hx`, which takes `hy` early (its own cycle) and waits for
/// the group. Thread 2's lookup of `hc` begins injecting `hc` and waits for `hy`; then thread 1
/// needs `hc`: a cycle of waits, so it takes `hc` early and the groups merge, `hy` waits for the
/// group, and thread 2 takes it early. `hc`'s `hf` throws: the failure drops `hy` (its maker took
/// `hc` early after `hc`'s injection began), and `hx`, which holds that `hy` through an early
/// reference taken *before* then, used to be published with the group: the published `hx`
/// held a dropped `hy` (one key, two objects). It is dropped and made again instead.
@Test func aSingletonHoldingAnEarlyReferenceToWhatAFailureDropsIsDroppedTooHoweverEarlyItTookIt() async throws {
    let factory = DropClosureFactory()
    let gates = factory.gates
    let context = try await ApplicationContext(factory)
    defer {
        // Never leave a thread waiting, whatever fails.
        gates.gEntered.countDown()
        gates.gRelease.countDown()
    }
    let madeY = Guarded<ClosureY?>(nil)
    let errors = Guarded<[String]>([])
    let yDone = ConcurrencyThreads.start(1) { _ in
        do throws(ContextError) {
            let y = try context.object("hy", as: ClosureY.self)
            madeY.withLock { $0 = y }
        } catch {
            errors.withLock { $0.append("hy: \(error)") }
        }
    }
    try #require(await opensInTime(gates.gEntered), "hg's closure never ran")
    let cError = Guarded<ContextError?>(nil)
    let cDone = ConcurrencyThreads.start(1) { _ in
        let error = thrownContextError { () throws(ContextError) in _ = try context.object("hc", as: ClosureC.self) }
        cError.withLock { $0 = error }
    }
    // Once the lookup injecting `hc` waits for `hy` (reading the phase settles `hc`'s slot, as
    // any lookup's claim would), let thread 1 go on to `hc`.
    let cIndex = try #require(context.configuration.table.definition(withKey: "hc"))
    let waiting = await AsyncHangGuard.run("the lookup of hc waiting for hy") { () -> Bool in
        func waitsForY() -> Bool {
            Coordinator.lock.withLock {
                guard case let .injecting(owner, _, _) = SingletonSlot(context, cIndex).phase else { return false }
                return owner.waitingFor?.key == "hy"
            }
        }
        while !waitsForY() { await Task.yield() }
        return true
    }
    try #require(waiting == true)
    gates.gRelease.countDown()
    try #require(await opensInTime(cDone), "the lookup of hc never returned")
    try #require(await opensInTime(yDone), "the lookup of hy never returned")
    guard case let .creationFailed(key, _, underlying) = try #require(cError.value), key == "hf", underlying is ClosureFailure else {
        Issue.record("hc: \(String(describing: cError.value))")
        return
    }
    #expect(errors.value.isEmpty, "\(errors.value)")
    let y = try #require(madeY.value)
    #expect(try await context.object("hy", as: ClosureY.self) === y)
    let x = try await context.object("hx", as: ClosureX.self)
    #expect(x.hy === y, "the published hx holds an hy the failure dropped")
    #expect(y.hx === x)
    #expect(y.hc.hy === y)
}
