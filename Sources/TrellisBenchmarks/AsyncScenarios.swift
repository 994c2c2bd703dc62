#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Trellis

// The async scenarios (Docs/Performance.md, Docs/Async.md). The executable's top level is synchronous, so each sample
// runs its async work in a task and blocks the main thread (not a thread of the cooperative
// pool) on a pthread latch until the task is done.

/// A one-shot latch on a pthread mutex and condition variable: `wait()` returns once `open()`
/// was called.
private final class BlockingLatch: @unchecked Sendable {
    // Safe: `isOpen` is only read or written with `mutex` held; the pointers are written once in
    // `init` and the pointees are only touched through pthread calls.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var isOpen = false

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func open() {
        pthread_mutex_lock(mutex)
        isOpen = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    func wait() {
        pthread_mutex_lock(mutex)
        while !isOpen { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }
}

/// Runs `body` in a task on the cooperative pool and blocks the calling (synchronous) thread
/// until it returns. Costs one task and one wake-up, a few microseconds: the scenarios amortise
/// it over many operations or a 20 ms start.
func blockingOn(_ body: @escaping @Sendable () async -> Void) {
    let done = BlockingLatch()
    Task {
        await body()
        done.open()
    }
    done.wait()
}

/// `asyncSingleton`: a made singleton looked up with `try await context.object(…)` from an
/// async function, against the synchronous lookup of the same singleton in the same rounds
/// (`sync`, the `singleton project` row's loop). The async form of a made singleton should not
/// suspend: one peek at the published object, as the synchronous form does. `async-call` is
/// the floor of one non-inlined call of an async function that does not suspend.
func asyncSingletonLookup(_ report: Report) {
    let context = makeProjectContext()
    let config: Config = try! context.object("config")
    let n = lookupOps
    report.measure("asyncSingleton", unit: "ns/op", [
        .nsPerOp("sync", ops: n) { n in for _ in 0..<n { blackHole(try! context.object("config", as: Config.self)) } },
        .nsPerOp("project", ops: n) { n in
            blockingOn {
                for _ in 0..<n { blackHole(try! await context.object("config", as: Config.self)) }
            }
        },
        .nsPerOp("async-call", ops: n) { n in
            blockingOn {
                for _ in 0..<n { blackHole(await asyncCallFloor(config)) }
            }
        },
    ])
}

/// The floor of any async lookup that is not inlined into its caller: one call of an async
/// function that does not suspend (its frame comes from the task's allocator).
@inline(never)
func asyncCallFloor(_ config: Config) async -> Config {
    blackHole(config)
    return config
}

/// Ten independent eager singletons, each sleeping 20 ms in its async closure.
private struct SleepersFactory: ObjectFactory {
    var definitions: Definitions {
        for i in 0..<10 {
            createEagerSingleton("sleeper\(i)") { () async throws -> Leaf in
                try await Task.sleep(for: .milliseconds(20))
                return Leaf(i)
            }
        }
    }
}

/// `asyncStart`: the async start of ten independent eager singletons that each sleep 20 ms
/// (`try await ApplicationContext(…)`), against the 20 ms a perfectly concurrent start takes
/// (`target`, a constant) and against one 20 ms `Task.sleep` run the same way (`one-sleep`,
/// what the timer and the blocking wait cost by themselves). A sequential start takes 200 ms.
func asyncStart(_ report: Report) {
    report.measure("asyncStart", unit: "ms", decimals: 2, rounds: 11, [
        .msPerRun("one-sleep") {
            blockingOn { try? await Task.sleep(for: .milliseconds(20)) }
        },
        .msPerRun("project") {
            blockingOn { blackHole(try! await ApplicationContext(SleepersFactory())) }
        },
    ])
    report.row("asyncStart", "target", 20, "ms", decimals: 2)
}
