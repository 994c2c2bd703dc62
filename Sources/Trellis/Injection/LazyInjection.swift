/// The state of one `@Inject(.lazy)` property after injection: what to look up, and the object
/// once looked up.
@usableFromInline
final class LazyInjection<Value>: @unchecked Sendable {
    // Safe: `made` is read and written only while holding `lock`; the rest is immutable, and the
    // context reference is weak.
    private weak var context: ApplicationContext?
    private let contextName: String
    private let key: String
    private let fallback: Value?
    private let property: String
    private let lock = Lock()
    private var made: Value?

    init(context: ApplicationContext, key: String, fallback: Value?, property: String) {
        self.context = context
        self.contextName = context.name
        self.key = key
        self.fallback = fallback
        self.property = property
    }

    /// The object, looked up on first access and kept; the lock makes it once when several
    /// threads read first at the same moment.
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        guard let context else {
            fatalError("@Inject(.lazy) property '\(property)' (key '\(key)') was first read after its context '\(contextName)' was released. Keep the context alive as long as the objects it injected, or inject eagerly.")
        }
        let value: Value
        if context.contains(key) {
            do {
                value = try context.object(key, as: Value.self)
            } catch {
                fatalError("@Inject(.lazy) property '\(property)' could not be made on first access: \(error)")
            }
        } else if let fallback {
            value = fallback
        } else if let none = OptionalNone.value(of: Value.self) {
            value = none
        } else {
            fatalError("@Inject(.lazy) property '\(property)': context '\(contextName)' no longer answers to '\(key)'.")
        }
        made = value
        return value
    }
}
