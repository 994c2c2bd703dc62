import Synchronization
import Testing
@testable import Trellis
import TrellisTestSupport

// Docs/Lifecycle.md, "Concurrency": a singleton whose making was under way when `close()` began
// is never handed out nor kept: the lookup that made it gets `contextClosed` and disposes it.
// Here the making is a parent's property cycle, made for a child's singleton and held back for
// its group (the child's singleton, which another lookup waits for, is still being injected)
// when the parent closes: the child's singleton holds the cycle, so it is not kept either.

private let cycleDisposals = Atomic<Int>(0)

private final class GroupCycleA: Disposable, @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var groupCycleB: GroupCycleB
    func dispose() { cycleDisposals.add(1, ordering: .relaxed) }
}

private final class GroupCycleB: Disposable, @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var groupCycleA: GroupCycleA
    func dispose() { cycleDisposals.add(1, ordering: .relaxed) }
}

private final class GroupHolder: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var groupCycleA: GroupCycleA
    @Inject var slowPart: Int
}

/// Where the making stops, for the test to act in between.
private final class GroupGates: Sendable {
    let cycleEntered = ConcurrencyLatch(count: 1)
    let cycleGoesOn = ConcurrencyLatch(count: 1)
    let slowEntered = ConcurrencyLatch(count: 1)
    let slowGoesOn = ConcurrencyLatch(count: 1)
    let armed = Atomic<Bool>(true)
}

private struct GroupCycleApp: ObjectFactory {
    let gates: GroupGates
    var definitions: Definitions {
        createSingleton("groupCycleA") { GroupCycleA() }
        createSingleton("groupCycleB") { [gates] () -> GroupCycleB in
            if gates.armed.load(ordering: .relaxed) {
                gates.cycleEntered.countDown()
                gates.cycleGoesOn.wait()
            }
            return GroupCycleB()
        }
    }
}

private struct GroupHolderRequest: ObjectFactory {
    let gates: GroupGates
    var definitions: Definitions {
        createSingleton("holder") { GroupHolder() }
        createSingleton("slowPart") { [gates] () -> Int in
            if gates.armed.load(ordering: .relaxed) {
                gates.slowEntered.countDown()
                gates.slowGoesOn.wait()
            }
            return 1
        }
    }
}

@Test func aChildSingletonHoldingAParentCycleHeldBackForItsGroupWhenTheParentClosesIsNeitherHandedOutNorKept() async throws {
    cycleDisposals.store(0, ordering: .relaxed)
    let gates = GroupGates()
    let app = try Sync.start(GroupCycleApp(gates: gates))
    let request = try Sync.start(GroupHolderRequest(gates: gates), parent: app)
    let holderIndex = try #require(request.keys.firstIndex(of: "holder"))
    let first = Guarded<Result<GroupHolder, ContextError>?>(nil)
    // The holder's lookup makes the parent's cycle while it injects the holder.
    let finished = ConcurrencyThreads.start(1) { _ in
        first.withLock { $0 = Result { () throws(ContextError) in try request.object("holder", as: GroupHolder.self) } }
    }
    #expect(await opensInTime(gates.cycleEntered))
    // A second lookup of the holder waits for it: the holder's injection now belongs to its
    // group, which publishes the cycle only when the holder is injected.
    let second = Task { () -> Result<GroupHolder, ContextError> in
        do throws(ContextError) { return .success(try await request.object("holder", as: GroupHolder.self)) } catch { return .failure(error) }
    }
    while Coordinator.lock.withLock({ (request.states[holderIndex].asyncWaiters?.count ?? 0) == 0 }) { await Task.yield() }
    gates.cycleGoesOn.countDown()
    #expect(await opensInTime(gates.slowEntered))
    // The cycle is made, not published: the close has nothing of it to dispose.
    try await app.close()
    gates.slowGoesOn.countDown()
    #expect(await opensInTime(finished))
    gates.armed.store(false, ordering: .relaxed)
    for outcome in [try #require(first.withLock { $0 }), await second.value] {
        guard case let .failure(.contextClosed(context, key)) = outcome else {
            Issue.record("expected contextClosed, got \(outcome)")
            continue
        }
        #expect(context == app.name)
        #expect(key == "groupCycleA")
    }
    // Not kept: asked again, the holder still meets the closed parent.
    #expect(throws: ContextError.self) { try Sync.object(request, "holder", as: GroupHolder.self) }
    // The cycle's two objects, disposed by the lookup that made them, once each.
    #expect(cycleDisposals.load(ordering: .relaxed) == 2)
}
