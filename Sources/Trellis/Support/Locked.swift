/// A value guarded by its own `Lock`.
final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is only read or written inside `lock.withLock`, which also makes the
    // runtime's dynamic exclusivity check redundant.
    @exclusivity(unchecked) private var value: Value
    private let lock = Lock.make()

    init(_ value: Value) { self.value = value }

    deinit { lock.destroy() }

    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(&value) }
    }
}
