import Testing
@testable import Trellis
import TrellisTestSupport

// Docs/RunningAService.md ("waited"): an entry's wait for a singleton another task is making
// counts, also when that making is not part of the start (a parent's singleton).

private final class SlowThing: Sendable {}

/// `slow` waits at `gate`: the test opens it once a child's eager singleton waits for it.
private struct SlowParentFactory: ObjectFactory {
    let entered = ConcurrencyLatch(count: 1)
    let gate = AsyncGate()
    var definitions: Definitions {
        createSingleton("slow") { [entered, gate] () async -> SlowThing in
            entered.countDown()
            await gate.wait()
            return SlowThing()
        }
    }
}

private struct WaitingChildFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("waiting") { r async throws -> SlowThing in try await r.object("slow") }
    }
}

@Test func anEntrysWaitForAParentSingletonAnotherTaskIsMakingCountsAsWaited() async throws {
    let factory = SlowParentFactory()
    let parent = try await ApplicationContext(factory)
    let maker = Task { try await parent.object("slow", as: SlowThing.self) }
    try #require(await opensInTime(factory.entered))
    let child = Task { try await ApplicationContext(WaitingChildFactory(), parent: parent) }
    // Once the child's eager singleton waits for `slow` (a waiter on its slot), let it be made.
    let index = try #require(parent.configuration.table.definition(withKey: "slow"))
    let waiting = await AsyncHangGuard.run("the child's eager singleton waiting") { () -> Bool in
        while Coordinator.lock.withLock({ (parent.states[index].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
        return true
    }
    try #require(waiting == true)
    factory.gate.open()
    _ = try await maker.value
    let report = try await child.value.startupReport
    let entry = try #require(report.entries.first)
    #expect(entry.waited > .zero, "\(report)")
    #expect(entry.waited <= entry.duration)
}
