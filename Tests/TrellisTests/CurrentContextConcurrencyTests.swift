import Foundation
import Testing
import Trellis
import TrellisTestSupport

// Docs/Injection.md, "Plain init and the current context": a plain-init object's property "resolves from that context on first read, as a lazy
// property does, and keeps the object" — so, like a lazy property, a first read from many threads
// or tasks at once looks the object up once and every reader gets the same one, for a singleton
// and for a prototype definition alike.

private final class RaceReport: Sendable {}

private final class RaceScreen {
    @Inject var report: RaceReport
}

private struct RaceForm {
    @Inject("report") var report: RaceReport
}

/// `report` is slow to make, so the first readers overlap while it is being made.
private struct RaceFactory: ObjectFactory {
    let scope: Scope
    let made: InjCounter
    var definitions: Definitions {
        switch scope {
        case .prototype:
            createPrototype("report") { [made] in slowReport(made) }
        default:
            createSingleton("report") { [made] in slowReport(made) }
        }
    }
}

private func slowReport(_ made: InjCounter) -> RaceReport {
    made.increment()
    Thread.sleep(forTimeInterval: 0.02)
    return RaceReport()
}

private let readers = 8

@Suite struct CurrentContextConcurrencyTests {
    @Test(arguments: [Scope.singleton, .prototype])
    func aFirstReadFromManyThreadsAtOnceResolvesOnce(scope: Scope) throws {
        let made = InjCounter()
        let context = try ApplicationContext(RaceFactory(scope: scope, made: made))
        let screen = UncheckedBox(Sync.withCurrent(context) { RaceScreen() })
        let barrier = ConcurrencyBarrier(parties: readers)
        let seen = Guarded<[ObjectIdentifier]>([])
        let finished = ConcurrencyThreads.run(readers) { _ in
            barrier.arriveAndWait()
            let report = screen.value.report
            seen.withLock { $0.append(ObjectIdentifier(report)) }
        }
        #expect(finished)
        #expect(seen.value.count == readers)
        #expect(Set(seen.value).count == 1)
        #expect(made.value == 1)
        #expect(ObjectIdentifier(screen.value.report) == seen.value.first)
        #expect(made.value == 1)
    }

    @Test(arguments: [Scope.singleton, .prototype])
    func aStructsFirstReadFromManyThreadsAtOnceResolvesOnce(scope: Scope) throws {
        let made = InjCounter()
        let context = try ApplicationContext(RaceFactory(scope: scope, made: made))
        let form = UncheckedBox(Sync.withCurrent(context) { RaceForm() })
        let barrier = ConcurrencyBarrier(parties: readers)
        let seen = Guarded<[ObjectIdentifier]>([])
        let finished = ConcurrencyThreads.run(readers) { _ in
            barrier.arriveAndWait()
            let report = form.value.report
            seen.withLock { $0.append(ObjectIdentifier(report)) }
        }
        #expect(finished)
        #expect(Set(seen.value).count == 1)
        #expect(made.value == 1)
    }

    @Test(arguments: [Scope.singleton, .prototype])
    func aFirstReadFromManyTasksAtOnceResolvesOnce(scope: Scope) async throws {
        let made = InjCounter()
        let context = try Sync.start(RaceFactory(scope: scope, made: made))
        let screen = UncheckedBox(Sync.withCurrent(context) { RaceScreen() })
        let barrier = AsyncBarrier(parties: readers)
        let seen = await AsyncHangGuard.run("first reads from tasks") { () -> Set<ObjectIdentifier>? in
            try? await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<readers {
                    group.addTask {
                        await barrier.arrive()
                        return ObjectIdentifier(try await screen.value.$report.get())
                    }
                }
                var seen: Set<ObjectIdentifier> = []
                for try await identity in group { seen.insert(identity) }
                return seen
            }
        }
        let identities = try #require(seen ?? nil)
        #expect(identities.count == 1)
        #expect(made.value == 1)
    }

    @Test func threadsAndTasksMixedResolveOnce() async throws {
        let made = InjCounter()
        let context = try Sync.start(RaceFactory(scope: .prototype, made: made))
        let screen = UncheckedBox(Sync.withCurrent(context) { RaceScreen() })
        let seen = Guarded<Set<ObjectIdentifier>>([])
        let threads = ConcurrencyThreads.start(4) { _ in
            let report = screen.value.report
            seen.withLock { _ = $0.insert(ObjectIdentifier(report)) }
        }
        let fromTasks = await AsyncHangGuard.run("first reads from tasks") { () -> [ObjectIdentifier] in
            await withTaskGroup(of: ObjectIdentifier?.self) { group in
                for _ in 0..<4 { group.addTask { (try? await screen.value.$report.get()).map(ObjectIdentifier.init) } }
                var all: [ObjectIdentifier] = []
                for await identity in group { if let identity { all.append(identity) } }
                return all
            }
        }
        #expect(threads.wait())
        let all = seen.value.union(try #require(fromTasks))
        #expect(all.count == 1)
        #expect(made.value == 1)
    }
}
