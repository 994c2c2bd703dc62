/// The state of one `@Inject(.lazy)` property after injection: what to look up, and the object
/// once looked up.
@usableFromInline
final class LazyInjection<Value>: @unchecked Sendable {
    // Safe: `made` and `slot.phase` are read and written only while holding `Coordinator.lock`;
    // the rest is immutable, and the context reference is weak.
    private weak var context: ApplicationContext?
    private let contextName: String
    private let key: String
    private let fallback: Value?
    private let property: String
    /// Who is looking the object up: first access takes part in the context's exactly-once and
    /// cycle detection like a singleton, so a lookup that comes back to this property is reported
    /// instead of hanging.
    private let slot: Slot
    private var made: Value?

    @usableFromInline
    init(context: ApplicationContext, key: String, fallback: Value?, property: String) {
        self.context = context
        self.contextName = context.name
        self.key = key
        self.fallback = fallback
        self.property = property
        self.slot = Slot(key: "@Inject(.lazy) \(property)")
    }

    /// The object, looked up on first access and kept; made once when several threads read
    /// first at the same moment. No lock is held while it is looked up.
    var value: Value {
        let lock = Coordinator.lock
        let stack = ThreadLocal.creationStack
        lock.lock()
        while true {
            if let made {
                lock.unlock()
                return made
            }
            guard case let .creating(owner) = slot.phase else {
                slot.phase = .creating(owner: stack)
                break
            }
            if let cycle = Coordinator.waitCycle(from: slot, owner: owner, stack) {
                lock.unlock()
                fatalError("@Inject(.lazy) property '\(property)' was read again while its own first read was looking it up: \(cycle.joined(separator: " → ")). Break the cycle, or inject the property eagerly.")
            }
            stack.waitingFor = slot
            lock.wait()
            stack.waitingFor = nil
        }
        lock.unlock()
        let result = lookUp()
        lock.withLock {
            if case let .success(value) = result { made = value }
            slot.phase = .idle
            lock.broadcast()
        }
        switch result {
        case let .success(value): return value
        case let .failure(message): fatalError(message.text)
        }
    }

    private struct Message: Error { let text: String }

    private func lookUp() -> Result<Value, Message> {
        guard let context else {
            return .failure(Message(text: "@Inject(.lazy) property '\(property)' (key '\(key)') was first read after its context '\(contextName)' was released. Keep the context alive as long as the objects it injected, or inject eagerly."))
        }
        if context.contains(key) {
            do throws(ContextError) {
                return .success(try context.object(key, as: Value.self))
            } catch {
                return .failure(Message(text: "@Inject(.lazy) property '\(property)' could not be made on first access: \(error)"))
            }
        }
        if let fallback { return .success(fallback) }
        if let none = OptionalNone.value(of: Value.self) { return .success(none) }
        return .failure(Message(text: "@Inject(.lazy) property '\(property)': context '\(contextName)' no longer answers to '\(key)'."))
    }
}
