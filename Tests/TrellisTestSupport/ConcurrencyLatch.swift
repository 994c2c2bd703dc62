/// A one-shot latch: `wait()` returns once `countDown()` was called `count` times.
///
/// With `count: 1` it is a gate the test opens (`countDown()`) to release a held closure.
public final class ConcurrencyLatch: @unchecked Sendable {
    // Safe: `remaining` is only read or written with `monitor` held.
    private let monitor = ConcurrencyMonitor()
    private var remaining: Int

    public init(count: Int) { remaining = count }

    public func countDown() {
        monitor.withLock {
            remaining -= 1
            if remaining == 0 { monitor.broadcastLocked() }
        }
    }

    /// Waits until the latch is open; `false` if the hang guard ran out first.
    @discardableResult
    public func wait() -> Bool {
        monitor.withLock { monitor.waitLocked { remaining <= 0 } }
    }

    public var isOpen: Bool { monitor.withLock { remaining <= 0 } }
}

/// A reusable barrier: every party's `arriveAndWait()` returns once all `parties` have arrived,
/// so threads start a round at the same moment.
public final class ConcurrencyBarrier: @unchecked Sendable {
    // Safe: `arrived` and `generation` are only read or written with `monitor` held.
    private let monitor = ConcurrencyMonitor()
    private let parties: Int
    private var arrived = 0
    private var generation = 0

    public init(parties: Int) { self.parties = parties }

    /// Waits for the other parties; `false` if the hang guard ran out first.
    @discardableResult
    public func arriveAndWait() -> Bool {
        monitor.withLock {
            let round = generation
            arrived += 1
            if arrived == parties {
                arrived = 0
                generation += 1
                monitor.broadcastLocked()
                return true
            }
            return monitor.waitLocked { generation != round }
        }
    }
}
