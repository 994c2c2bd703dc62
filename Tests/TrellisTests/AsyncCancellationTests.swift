import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

private final class CancelObject: Sendable {
    let run: Int
    init(run: Int) { self.run = run }
}

/// `slow` is made only once the test opens `gate`; `entered` opens when its first run began.
private struct GatedFactory: ObjectFactory {
    let runs = ConcurrencyCounter()
    let entered = AsyncGate()
    let gate = AsyncGate()

    var definitions: Definitions {
        createSingleton("slow") { [runs, entered, gate] () async -> CancelObject in
            runs.increment()
            let run = runs.value
            entered.open()
            await gate.wait()
            return CancelObject(run: run)
        }
        createSingleton("dependent") { r async throws -> CancelObject in
            let slow: CancelObject = try await r.object("slow")
            return CancelObject(run: slow.run)
        }
    }
}

/// `slow` waits for `gate` unless its task is cancelled; it records whether it saw the
/// cancellation and fails because of it.
private struct CancellableMakerFactory: ObjectFactory {
    let runs = ConcurrencyCounter()
    let entered = AsyncGate()
    let gate = AsyncGate()
    let sawCancellation = Guarded<[Bool]>([])

    var definitions: Definitions {
        createSingleton("slow") { [runs, entered, gate, sawCancellation] () async throws -> CancelObject in
            runs.increment()
            let run = runs.value
            entered.open()
            _ = await gate.waitUnlessCancelled()
            sawCancellation.withLock { $0.append(Task.isCancelled) }
            try Task.checkCancellation()
            return CancelObject(run: run)
        }
    }
}

/// Reads `slow` lazily: the first read looks it up (and waits for the gate of `GatedFactory`).
private final class LazyReader: @unchecked Sendable {
    // Safe: the wrapper is written by the injection, before the context hands the object out;
    // after that its first read is synchronised by the library (the test's subject).
    @Inject(.lazy) var slow: CancelObject
}

private struct LazyReaderFactory: ObjectFactory {
    let gated = GatedFactory()
    var definitions: Definitions {
        gated.definitions
        createSingleton("reader") { LazyReader() }
    }
}

private func expectCancellation(_ error: ContextError?, key: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error else {
        Issue.record("expected creationFailed(CancellationError), got a result", sourceLocation: sourceLocation)
        return
    }
    guard let failure = error.creationFailure else {
        Issue.record("expected creationFailed(CancellationError), got \(error)", sourceLocation: sourceLocation)
        return
    }
    #expect(failure.key == key, sourceLocation: sourceLocation)
    #expect(failure.underlying is CancellationError, "underlying: \(failure.underlying)", sourceLocation: sourceLocation)
}

// MARK: - Tests

@Suite struct AsyncCancellationTests {
    @Test func cancelledWaiterStopsWaitingWhileTheMakingGoesOnForTheOthers() async throws {
        let factory = GatedFactory()
        let context = try await ApplicationContext(factory)
        let maker = Task { try await context.object("slow", as: CancelObject.self) }
        await factory.entered.wait()
        let other = Task { try await context.object("slow", as: CancelObject.self) }
        let waiter = Task { await asyncError { try await context.object("slow", as: CancelObject.self) } }
        waiter.cancel()
        // The cancelled waiter returns while "slow" is still being made (the gate is closed).
        let error = await AsyncHangGuard.run("a cancelled waiter") { await waiter.value }
        expectCancellation(try #require(error), key: "slow")
        #expect(!factory.gate.isOpen)
        factory.gate.open()
        let made = try await maker.value
        #expect(try await other.value === made)
        #expect(try await context.object("slow", as: CancelObject.self) === made)
        #expect(factory.runs.value == 1)
    }

    @Test func cancelledWaiterThroughAClosureReportsThePath() async throws {
        let factory = GatedFactory()
        let context = try await ApplicationContext(factory)
        let maker = Task { try await context.object("slow", as: CancelObject.self) }
        await factory.entered.wait()
        let waiter = Task { await asyncError { try await context.object("dependent", as: CancelObject.self) } }
        waiter.cancel()
        let error = try #require(await AsyncHangGuard.run("a cancelled waiter") { await waiter.value })
        expectCancellation(error, key: "slow")
        #expect(error?.creationFailure?.path == ["dependent", "slow"])
        factory.gate.open()
        _ = try await maker.value
        // Nothing was cached for "dependent": it is made now.
        #expect(try await context.object("dependent", as: CancelObject.self).run == 1)
    }

    @Test func cancelledMakerSeesItAndAWaiterMakesTheSingletonAgain() async throws {
        let factory = CancellableMakerFactory()
        let context = try await ApplicationContext(factory)
        let maker = Task { await asyncError { try await context.object("slow", as: CancelObject.self) } }
        await factory.entered.wait()
        let waiter = Task { try await context.object("slow", as: CancelObject.self) }
        maker.cancel()
        let makerError = try #require(await AsyncHangGuard.run("a cancelled maker") { await maker.value })
        expectCancellation(makerError, key: "slow")
        factory.gate.open()
        let made = try #require(await AsyncHangGuard.run("the waiter") { try? await waiter.value }) ?? nil
        // The first run saw its task cancelled and failed; nothing was cached, so the waiter
        // started the making again, in its own (not cancelled) task.
        #expect(factory.sawCancellation.value == [true, false])
        #expect(factory.runs.value == 2)
        #expect(made?.run == 2)
        #expect(try Sync.object(context, "slow", as: CancelObject.self) === made)
    }

    @Test func cancelledTaskWaitingForAnotherTasksFirstReadOfALazyPropertyStopsWaiting() async throws {
        let factory = LazyReaderFactory()
        let context = try await ApplicationContext(factory)
        let reader: LazyReader = try await context.object("reader")
        // The first read claims the property and waits for `slow`, whose gate is closed.
        let first = Task { try await reader.$slow.get() }
        await factory.gated.entered.wait()
        let waiter = Task { await asyncError { try await reader.$slow.get() } }
        waiter.cancel()
        let error = try #require(await AsyncHangGuard.run("a cancelled reader") { await waiter.value })
        expectCancellation(error, key: "@Inject(.lazy) slow")
        #expect(!factory.gated.gate.isOpen)
        factory.gated.gate.open()
        let made = try await first.value
        #expect(try await reader.$slow.get() === made)
        #expect(factory.gated.runs.value == 1)
    }

    @Test func lookupInACancelledTaskOfAMadeSingletonReturnsIt() async throws {
        let factory = GatedFactory()
        factory.gate.open()
        let context = try await ApplicationContext(factory)
        let made: CancelObject = try await context.object("slow")
        let cancelled = Task { () async throws -> CancelObject in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await context.object("slow")
        }
        #expect(try await cancelled.value === made)
    }
}
