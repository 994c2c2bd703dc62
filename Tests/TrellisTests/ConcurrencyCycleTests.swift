import Testing
import Trellis
import TrellisTestSupport

private final class CycleNode {}

/// Singletons `keys[0] → keys[1] → … → keys[0]` through creation closures. The first run of each
/// closure waits at `meeting` until every closure of the cycle is running, so each thread is
/// inside its own closure when it looks up the next key.
private struct ClosureCycleFactory: ObjectFactory {
    let keys: [String]
    let meeting: ConcurrencyBarrier
    let firstRuns = ConcurrencyFirstRuns()
    let missedMeeting = ConcurrencyFlag()

    init(keys: [String]) {
        self.keys = keys
        meeting = ConcurrencyBarrier(parties: keys.count)
    }

    var definitions: Definitions {
        for (position, key) in keys.enumerated() {
            createSingleton(key) { [keys, meeting, firstRuns, missedMeeting] r in
                if firstRuns.claim(position), !meeting.arriveAndWait() { missedMeeting.set() }
                _ = try r.object(keys[(position + 1) % keys.count], as: CycleNode.self)
                return CycleNode()
            }
        }
    }
}

private final class PropertyA: @unchecked Sendable {
    @Inject var b: PropertyB
}

private final class PropertyB: @unchecked Sendable {
    @Inject var a: PropertyA
}

private final class RingA: @unchecked Sendable {
    @Inject var b: RingB
}

private final class RingB: @unchecked Sendable {
    @Inject var c: RingC
}

private final class RingC: @unchecked Sendable {
    @Inject var a: RingA
}

/// `a.b` is `b` and `b.a` is `a`, both through `@Inject`; both closures meet before returning, so
/// both objects are injected at the same time on two threads.
private struct PropertyCycleFactory: ObjectFactory {
    let meeting = ConcurrencyBarrier(parties: 2)
    let firstRuns = ConcurrencyFirstRuns()
    let made = ConcurrencyCounter()

    var definitions: Definitions {
        createSingleton("a") { [meeting, firstRuns, made] in
            made.increment()
            if firstRuns.claim(0) { meeting.arriveAndWait() }
            return PropertyA()
        }
        createSingleton("b") { [meeting, firstRuns, made] in
            made.increment()
            if firstRuns.claim(1) { meeting.arriveAndWait() }
            return PropertyB()
        }
    }
}

/// `a.b → b`, `b.c → c`, `c.a → a` through `@Inject`, the three injected at once on three threads.
private struct PropertyRingFactory: ObjectFactory {
    let meeting = ConcurrencyBarrier(parties: 3)
    let firstRuns = ConcurrencyFirstRuns()
    let made = ConcurrencyCounter()

    var definitions: Definitions {
        createSingleton("a") { [meeting, firstRuns, made] in
            made.increment()
            if firstRuns.claim(0) { meeting.arriveAndWait() }
            return RingA()
        }
        createSingleton("b") { [meeting, firstRuns, made] in
            made.increment()
            if firstRuns.claim(1) { meeting.arriveAndWait() }
            return RingB()
        }
        createSingleton("c") { [meeting, firstRuns, made] in
            made.increment()
            if firstRuns.claim(2) { meeting.arriveAndWait() }
            return RingC()
        }
    }
}

/// The cycle `keys` rotated to start at `keys[start]`, closed: `["b", "a", "b"]`.
private func cycle(_ keys: [String], from start: Int) -> [String] {
    let rotated = Array(keys[start...] + keys[..<start])
    return rotated + [keys[start]]
}

/// Asks `keys[thread]` of `context` on one thread per key, at once; the error each thread got.
private func askAtOnce(_ context: ApplicationContext, _ keys: [String]) throws -> [ContextError?] {
    let errors = Guarded<[ContextError?]>(Array(repeating: nil, count: keys.count))
    let finished = ConcurrencyThreads.run(keys.count) { thread in
        do throws(ContextError) {
            _ = try context.object(keys[thread], as: CycleNode.self)
        } catch {
            errors.withLock { $0[thread] = error }
        }
    }
    try #require(finished, "threads did not finish: a cycle across threads deadlocked")
    return errors.value
}

@Suite("Concurrency: cycles across threads")
struct ConcurrencyCycleTests {
    @Test(arguments: [["a", "b"], ["a", "b", "c"]])
    func creationClosureCycleFirstAskedOnOneThreadPerKeyFailsOnEveryThread(keys: [String]) throws {
        for round in 0..<100 {
            let factory = ClosureCycleFactory(keys: keys)
            let context = try ApplicationContext(factory)
            let errors = try askAtOnce(context, keys)
            #expect(!factory.missedMeeting.isSet, "round \(round): the closures never ran at the same time")
            for thread in keys.indices {
                // The thread asking for a key reports the cycle from that key, whichever thread
                // closed it: the wait-for graph on one side, its own stack on the other.
                #expect(errors[thread] == .circularDependency(path: cycle(keys, from: thread)), "round \(round), thread \(thread)")
            }
        }
    }

    @Test func creationClosureCycleStillFailsWhenAskedAgainAfterFailingOnTwoThreads() throws {
        let keys = ["a", "b"]
        let context = try ApplicationContext(ClosureCycleFactory(keys: keys))
        _ = try askAtOnce(context, keys)

        #expect(throws: ContextError.circularDependency(path: ["a", "b", "a"])) { try context.object("a", as: CycleNode.self) }
        #expect(throws: ContextError.circularDependency(path: ["b", "a", "b"])) { try context.object("b", as: CycleNode.self) }
        for _ in 0..<20 {
            let errors = try askAtOnce(context, keys)
            #expect(errors == [.circularDependency(path: ["a", "b", "a"]), .circularDependency(path: ["b", "a", "b"])])
        }
    }

    @Test func propertyCycleFirstAskedOnTwoThreadsWiresThePairWithoutDeadlock() throws {
        for round in 0..<100 {
            let factory = PropertyCycleFactory()
            let context = try ApplicationContext(factory)
            let seen = Guarded<[String: ObjectIdentifier]>([:])
            let problems = Guarded<[String]>([])
            let finished = ConcurrencyThreads.run(2) { thread in
                do {
                    if thread == 0 {
                        let a = try context.object("a", as: PropertyA.self)
                        seen.withLock { $0["a"] = ObjectIdentifier(a) }
                    } else {
                        let b = try context.object("b", as: PropertyB.self)
                        seen.withLock { $0["b"] = ObjectIdentifier(b) }
                    }
                } catch {
                    problems.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
            try #require(finished, "round \(round): threads did not finish: a property cycle across threads deadlocked")
            #expect(problems.value.isEmpty, "round \(round)")
            let a = try context.object("a", as: PropertyA.self)
            let b = try context.object("b", as: PropertyB.self)
            #expect(a.b === b && b.a === a, "round \(round): the pair is not wired to each other")
            #expect(seen.value == ["a": ObjectIdentifier(a), "b": ObjectIdentifier(b)], "round \(round)")
            #expect(factory.made.value == 2, "round \(round)")
        }
    }

    @Test func propertyRingFirstAskedOnThreeThreadsWiresTheRingWithoutDeadlock() throws {
        for round in 0..<50 {
            let factory = PropertyRingFactory()
            let context = try ApplicationContext(factory)
            let problems = Guarded<[String]>([])
            let finished = ConcurrencyThreads.run(3) { thread in
                do {
                    switch thread {
                    case 0: _ = try context.object("a", as: RingA.self)
                    case 1: _ = try context.object("b", as: RingB.self)
                    default: _ = try context.object("c", as: RingC.self)
                    }
                } catch {
                    problems.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
            try #require(finished, "round \(round): threads did not finish: a property ring across threads deadlocked")
            #expect(problems.value.isEmpty, "round \(round)")
            let a = try context.object("a", as: RingA.self)
            let b = try context.object("b", as: RingB.self)
            let c = try context.object("c", as: RingC.self)
            #expect(a.b === b && b.c === c && c.a === a, "round \(round): the ring is not wired")
            #expect(factory.made.value == 3, "round \(round)")
        }
    }
}
