import Foundation
import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

private final class Made: Sendable {
    let key: String
    let parts: [Made]
    init(_ key: String, parts: [Made] = []) {
        self.key = key
        self.parts = parts
    }
}

/// One slow async singleton, made only once the test opens `gate`.
private struct SlowSingletonFactory: ObjectFactory {
    let runs = ConcurrencyCounter()
    let entered = AsyncGate()
    let gate = AsyncGate()

    var definitions: Definitions {
        createSingleton("slow") { [runs, entered, gate] () async throws -> Made in
            runs.increment()
            entered.open()
            await gate.wait()
            try await Task.sleep(for: .milliseconds(5))
            return Made("slow")
        }
    }
}

/// `a` awaits `b` and `b` awaits `a`; the first run of each closure waits until both are
/// running, so each task is inside its own closure when it asks for the other.
private struct TaskCycleFactory: ObjectFactory {
    let meeting = AsyncBarrier(parties: 2)
    let firstRuns = ConcurrencyFirstRuns()

    var definitions: Definitions {
        createSingleton("a") { [meeting, firstRuns] r async throws -> Made in
            if firstRuns.claim(0) { await meeting.arrive() }
            return Made("a", parts: [try await r.object("b")])
        }
        createSingleton("b") { [meeting, firstRuns] r async throws -> Made in
            if firstRuns.claim(1) { await meeting.arrive() }
            return Made("b", parts: [try await r.object("a")])
        }
    }
}

/// Cross-dependent singletons, acyclic: async `n<i>` depends on `n<i+1>`, `n<i+3>` and the
/// synchronous `s<i>`; synchronous `s<i>` depends on `s<i+1>`. Every closure yields, so tasks
/// interleave.
private struct CrossDependentFactory: ObjectFactory {
    static let size = 20
    let runs = Guarded<[String: Int]>([:])

    func ran(_ key: String) { runs.withLock { $0[key, default: 0] += 1 } }

    var definitions: Definitions {
        for index in 0..<Self.size {
            createSingleton("n\(index)") { [self] r async throws -> Made in
                ran("n\(index)")
                await Task.yield()
                var parts: [Made] = [try await r.object("s\(index)")]
                for next in [index + 1, index + 3] where next < Self.size {
                    parts.append(try await r.object("n\(next)"))
                    await Task.yield()
                }
                return Made("n\(index)", parts: parts)
            }
            createSingleton("s\(index)") { [self] r in
                ran("s\(index)")
                return Made("s\(index)", parts: index + 1 < Self.size ? [try r.object("s\(index + 1)")] : [])
            }
            createPrototype("p\(index)") { r async throws -> Made in
                Made("p\(index)", parts: [try await r.object("n\((index + 7) % Self.size)")])
            }
        }
    }
}

/// A synchronous singleton whose closure is slow (it sleeps, to make it slow, not to
/// synchronise): while an async lookup is making it, a synchronous lookup asks for it.
private struct SlowSynchronousFactory: ObjectFactory {
    let entered = AsyncGate()
    let runs = ConcurrencyCounter()

    var definitions: Definitions {
        createSingleton("slowSync") { [entered, runs] in
            runs.increment()
            entered.open()
            usleep(200_000)
            return Made("slowSync")
        }
    }
}

// MARK: - Tests

@Suite struct AsyncConcurrencyTests {
    @Test func sixtyFourTasksAskingForOneSlowAsyncSingletonMakeItOnce() async throws {
        let factory = SlowSingletonFactory()
        let context = try await ApplicationContext(factory)
        let ready = AsyncBarrier(parties: 65)
        let results = await AsyncHangGuard.run("64 tasks asking for one singleton") { () async -> [ObjectIdentifier?] in
            await withTaskGroup(of: ObjectIdentifier?.self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        await ready.arrive()
                        return (try? await context.object("slow", as: Made.self)).map(ObjectIdentifier.init)
                    }
                }
                // Every task has arrived: open the gate only now, so most of them wait (each
                // waiter suspends; if one blocked a pool thread instead, this could not run).
                await ready.arrive()
                await factory.entered.wait()
                for _ in 0..<10 { await Task.yield() }
                factory.gate.open()
                var all: [ObjectIdentifier?] = []
                for await result in group { all.append(result) }
                return all
            }
        }
        let identities = try #require(results)
        #expect(identities.count == 64)
        #expect(identities.allSatisfy { $0 != nil })
        #expect(Set(identities.compactMap { $0 }).count == 1)
        #expect(factory.runs.value == 1)
        #expect(ObjectIdentifier(try Sync.object(context, "slow", as: Made.self)) == identities.first!)
    }

    @Test func cycleAcrossTwoTasksFailsOnBothWithThePath() async throws {
        let context = try await ApplicationContext(TaskCycleFactory())
        let outcome = await AsyncHangGuard.run("a cycle across two tasks") { () async -> [ContextError?] in
            async let a = asyncError { try await context.object("a", as: Made.self) }
            async let b = asyncError { try await context.object("b", as: Made.self) }
            return await [a, b]
        }
        let errors = try #require(outcome)
        let fromA = try #require(errors[0]?.cyclePath, "expected circularDependency for 'a', got \(String(describing: errors[0]))")
        let fromB = try #require(errors[1]?.cyclePath, "expected circularDependency for 'b', got \(String(describing: errors[1]))")
        #expect(fromA == ["a", "b", "a"])
        #expect(fromB == ["b", "a", "b"])
        #expect(errors[0]?.description.contains("a → b → a") == true)
    }

    @Test func twoHundredTasksResolvingCrossDependentAsyncSingletonsComplete() async throws {
        for _ in 0..<3 {
            let factory = CrossDependentFactory()
            let context = try await ApplicationContext(factory)
            let outcome = await AsyncHangGuard.run("200 tasks on the default pool") { () async -> [String] in
                await withTaskGroup(of: String.self) { group in
                    for task in 0..<200 {
                        group.addTask {
                            do throws(ContextError) {
                                let index = (task * 7) % CrossDependentFactory.size
                                let node: Made = try await context.object("n\(index)")
                                let prototype: Made = try await context.object("p\(task % CrossDependentFactory.size)")
                                let synchronous: Made = try await context.object("s\((task * 3) % CrossDependentFactory.size)")
                                return node.key == "n\(index)" && prototype.parts.count == 1 && !synchronous.key.isEmpty ? "ok" : "wrong object"
                            } catch {
                                return "\(error)"
                            }
                        }
                    }
                    var all: [String] = []
                    for await result in group { all.append(result) }
                    return all
                }
            }
            let results = try #require(outcome)
            #expect(results.count == 200)
            #expect(results.allSatisfy { $0 == "ok" }, "\(Set(results))")
            // Exactly once each, and every singleton's dependencies are the published ones.
            #expect(factory.runs.value.values.allSatisfy { $0 == 1 }, "\(factory.runs.value)")
            for index in 0..<CrossDependentFactory.size {
                let node: Made = try Sync.object(context, "n\(index)")
                #expect(node.parts[0] === (try Sync.object(context, "s\(index)", as: Made.self)))
                if index + 1 < CrossDependentFactory.size {
                    #expect(node.parts[1] === (try Sync.object(context, "n\(index + 1)", as: Made.self)))
                }
            }
        }
    }

    @Test func synchronousThreadsAndAsyncTasksTogetherMakeEachSingletonOnce() async throws {
        let factory = CrossDependentFactory()
        let context = try await ApplicationContext(factory)
        let threadsDone = AsyncGate()
        let threadErrors = Guarded<[String]>([])
        let finished = ConcurrencyCounter()
        // Plain threads (not tasks) look up the synchronous chain while tasks make the async one.
        _ = ConcurrencyThreads.start(4) { thread in
            for step in 0..<CrossDependentFactory.size {
                let key = "s\((step + thread * 5) % CrossDependentFactory.size)"
                do throws(ContextError) {
                    _ = try Sync.object(context, key, as: Made.self)
                } catch {
                    threadErrors.withLock { $0.append("\(error)") }
                }
            }
            finished.increment()
            if finished.value == 4 { threadsDone.open() }
        }
        let outcome = await AsyncHangGuard.run("tasks next to threads") { () async -> Int in
            await withTaskGroup(of: Int.self) { group in
                for task in 0..<100 {
                    group.addTask { (try? await context.object("n\(task % CrossDependentFactory.size)", as: Made.self)) == nil ? 0 : 1 }
                }
                var count = 0
                for await one in group { count += one }
                await threadsDone.wait()
                return count
            }
        }
        #expect(outcome == 100)
        #expect(threadErrors.value == [])
        #expect(factory.runs.value.values.allSatisfy { $0 == 1 }, "\(factory.runs.value)")
    }

    @Test func synchronousLookupOfASynchronousSingletonAnAsyncLookupIsMakingNeverRequiresAwait() async throws {
        // Every definition is synchronous, so the factory validates cleanly...
        #expect(await ApplicationContext.validate(SlowSynchronousFactory()).problems == [])
        let factory = SlowSynchronousFactory()
        let context = try await ApplicationContext(factory)
        // ...and no lookup of it may throw requiresAwait, also while an async lookup makes it.
        let maker = Task { try await context.object("slowSync", as: Made.self) }
        await factory.entered.wait()
        let outcome = await AsyncHangGuard.run("a synchronous lookup from a task") { () async -> Result<Made, ContextError> in
            Result { () throws(ContextError) -> Made in try Sync.object(context, "slowSync", as: Made.self) }
        }
        let made = try await maker.value
        switch try #require(outcome) {
        case let .success(value):
            #expect(value === made)
        case let .failure(error):
            Issue.record("a synchronous singleton that validates cleanly threw: \(error)")
        }
        #expect(factory.runs.value == 1)
    }
}
