import Testing
import Trellis
import TrellisTestSupport

private final class LifeClock {}
private final class LifeRegistry {
    let clock: LifeClock
    init(clock: LifeClock) { self.clock = clock }
}
private final class LifeService {}
private final class LifeRequest {
    let service: LifeService
    init(service: LifeService) { self.service = service }
}

/// An eager singleton with a lazy property: the property holds the context weakly, so the
/// context → holder → property chain does not lead back to the context.
private final class LifeHolder {
    @Inject(.lazy) var service: LifeService
    @Inject var clock: LifeClock
}

private struct LifeParentFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("clock") { LifeClock() }
        createEagerSingleton("registry") { r in LifeRegistry(clock: try r.object("clock")) }
    }
}

private struct LifeChildFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("service") { LifeService() }
        createEagerSingleton("holder") { LifeHolder() }
        createPrototype("request") { r in LifeRequest(service: try r.object("service")) }
    }
}

/// Builds a parent and a child context, uses them as `iteration` says, and returns weak
/// references to the contexts and everything they made; all strong references end here.
private func useAndDrop(iteration: Int) throws -> [ConcurrencyWeak] {
    let parent = try ApplicationContext(LifeParentFactory())
    let child = try ApplicationContext(LifeChildFactory(), parent: parent)
    let holder = try child.object("holder", as: LifeHolder.self)
    var weak = [
        ConcurrencyWeak(parent, "parent context"), ConcurrencyWeak(child, "child context"),
        ConcurrencyWeak(holder, "eager singleton with a lazy property"),
        ConcurrencyWeak(try parent.object("registry", as: LifeRegistry.self), "eager singleton"),
        ConcurrencyWeak(holder.clock, "parent's singleton injected into the child's"),
    ]
    if iteration.isMultiple(of: 2) {
        // Reading the lazy property makes the lazy singleton; odd iterations never read it.
        weak.append(ConcurrencyWeak(holder.service, "lazy singleton made through a lazy property"))
        weak.append(ConcurrencyWeak(try child.object("request", as: LifeRequest.self), "prototype"))
    }
    return weak
}

@Suite("Concurrency: contexts made and dropped on many threads")
struct ConcurrencyLifetimeTests {
    @Test func contextsMadeAndDroppedOnEightThreadsAtOnceLeaveNothingAlive() throws {
        let threads = 8
        let start = ConcurrencyBarrier(parties: threads)
        let weak = Guarded<[ConcurrencyWeak]>([])
        let problems = Guarded<[String]>([])
        let finished = ConcurrencyThreads.run(threads) { thread in
            start.arriveAndWait()
            for iteration in 0..<40 {
                do {
                    let references = try useAndDrop(iteration: iteration + thread)
                    weak.withLock { $0.append(contentsOf: references) }
                } catch {
                    problems.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
        }
        try #require(finished, "threads did not finish")
        #expect(problems.value.isEmpty)
        let references = weak.value
        #expect(references.count > threads * 40 * 5)
        let alive = references.filter { $0.object != nil }.map(\.label)
        #expect(alive.isEmpty, "still alive after every thread dropped its contexts: \(Set(alive).sorted())")
    }
}
