/// A property the context fills by key after it makes the owning object.
///
/// ```swift
/// final class CheckoutController {
///     @Inject var mailer: Mailer                    // key = property name, or any alias of it
///     @Inject("paymentGateway") var payments: Payments
///     @Inject var analytics: Analytics?             // optional: stays nil when no such key exists
///     @Inject(.lazy) var report: ReportBuilder      // looked up on first access
///     @Inject var clock: Clock = SystemClock()      // default used when the context has no "clock"
/// }
/// ```
///
/// The key is the property's name (the wrapper's storage label `_mailer` gives `mailer`) unless
/// given; it is matched against keys and aliases through the parent chain. A property that already
/// holds a value when the object is injected is left alone.
///
/// Reading a required property that was never injected stops the program with a message naming
/// the property and how to inject it: make the object with an ``ApplicationContext``, or call
/// ``ApplicationContext/inject(into:)``.
///
/// > Note: The wrapper's storage is mutable, so a class using it is not checked-`Sendable`. To
/// > share such an object across threads, inject it first, then treat it as immutable
/// > (Docs/Injection.md shows the pattern).
@propertyWrapper
public struct Inject<Value> {
    @usableFromInline
    enum Storage {
        /// Not injected yet; `fallback` is the declared default value, if any.
        case pending(fallback: Value?)
        case value(Value)
        case lazy(LazyInjection<Value>)
    }

    @usableFromInline let key: String?
    @usableFromInline let isLazy: Bool
    @usableFromInline var storage: Storage
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt

    /// Injects the object named like the property.
    @inlinable public init(file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: nil, isLazy: false, fallback: nil, file: file, line: line)
    }

    /// Injects the object named `key`.
    @inlinable public init(_ key: String, file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: key, isLazy: false, fallback: nil, file: file, line: line)
    }

    /// Injects the object named like the property, as `option` says.
    @inlinable public init(_ option: InjectOption, file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: nil, isLazy: option == .lazy, fallback: nil, file: file, line: line)
    }

    /// Injects the object named `key`, as `option` says.
    @inlinable public init(_ key: String, _ option: InjectOption, file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: key, isLazy: option == .lazy, fallback: nil, file: file, line: line)
    }

    /// Injects the object named like the property, or keeps `wrappedValue` when there is none.
    @inlinable public init(wrappedValue: Value, file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: nil, isLazy: false, fallback: wrappedValue, file: file, line: line)
    }

    /// Injects the object named `key`, or keeps `wrappedValue` when there is none.
    @inlinable public init(wrappedValue: Value, _ key: String, file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: key, isLazy: false, fallback: wrappedValue, file: file, line: line)
    }

    /// Injects the object named like the property as `option` says, or keeps `wrappedValue`.
    @inlinable public init(wrappedValue: Value, _ option: InjectOption, file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: nil, isLazy: option == .lazy, fallback: wrappedValue, file: file, line: line)
    }

    /// Injects the object named `key` as `option` says, or keeps `wrappedValue`.
    @inlinable public init(wrappedValue: Value, _ key: String, _ option: InjectOption, file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: key, isLazy: option == .lazy, fallback: wrappedValue, file: file, line: line)
    }

    @inlinable
    init(key: String?, isLazy: Bool, fallback: Value?, file: StaticString, line: UInt) {
        // Inlined so the owner's initialiser builds the wrapper without generic metadata calls.
        self.key = key
        self.isLazy = isLazy
        self.storage = .pending(fallback: fallback)
        self.file = file
        self.line = line
        _noteInjectInitialised()
    }

    /// The injected object (made on first access for `.lazy`), the default value, or `nil` for
    /// an optional that found nothing.
    @inlinable
    public var wrappedValue: Value {
        get {
            if case let .value(value) = storage { return value }
            return unresolvedValue()
        }
        set { storage = .value(newValue) }
    }

    @usableFromInline
    func unresolvedValue() -> Value {
        switch storage {
        case let .value(value): return value
        case let .lazy(lazy): return lazy.value
        case let .pending(fallback):
            if let fallback { return fallback }
            if let none = OptionalNone.value(of: Value.self) { return none }
            fatalError(neverInjectedMessage)
        }
    }

    var neverInjectedMessage: String {
        let name = key.map { "'\($0)'" } ?? "of type \(Value.self)"
        return "@Inject property \(name) declared at \(file):\(line) was read before it was injected. Make its owner with an ApplicationContext (a definition's closure), or call `try context.inject(into: owner)` first."
    }
}

extension Inject: Sendable where Value: Sendable {}
extension Inject.Storage: Sendable where Value: Sendable {}

/// Counts `@Inject` wrappers made while an object is being made, so the context can tell a class
/// with no stored properties from one whose reflection metadata was stripped.
@usableFromInline
func _noteInjectInitialised() {
    ThreadLocal.creationStack.state.pointee.injectInits &+= 1
}

/// `nil` as a `Value`, when `Value` is an `Optional`.
enum OptionalNone {
    static func value<Value>(of type: Value.Type) -> Value? {
        (type as? any OptionalProtocol.Type)?.none as? Value
    }
}

protocol OptionalProtocol {
    static var none: Self { get }
}

extension Optional: OptionalProtocol {}
