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

    /// What the context reads without knowing `Value`: see `InjectHeader`.
    @usableFromInline var header: InjectHeader
    @usableFromInline var storage: Storage

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
        // Inlined into the owner's initialiser, which is specialised for `Value`: `Self.fill`
        // then names the specialised filler, so injecting this property later runs concrete
        // code instead of generic code that looks up type metadata for every property.
        header = InjectHeader(key: key, isLazy: isLazy, file: file, line: line, fill: Self.fill)
        storage = .pending(fallback: fallback)
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
        set {
            storage = .value(newValue)
            header.isPending = false
        }
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
        let name = header.key.map { "'\($0)'" } ?? "of type \(Value.self)"
        return "@Inject property \(name) declared at \(header.file):\(header.line) was read before it was injected. Make its owner with an ApplicationContext, in a definition's closure, or call `try context.inject(into: owner)` first."
    }

    /// Fills the wrapper at `address` for `request`: the per-property work of injection.
    @inlinable
    static func fill(_ address: UnsafeMutableRawPointer, _ request: InjectRequest) throws(ContextError) {
        let field = address.assumingMemoryBound(to: Self.self)
        field.pointee.header.isPending = false
        guard case let .pending(fallback) = field.pointee.storage else { return }
        let key = field.pointee.header.key ?? request.property
        if field.pointee.header.isLazy {
            guard request.context.contains(key) else {
                return try fillMissing(field, fallback, key, request)
            }
            field.pointee.storage = .lazy(LazyInjection(context: request.context, key: key, fallback: fallback ?? OptionalNone.value(of: Value.self), property: request.property))
            return
        }
        let value = try withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer throws(ContextError) -> Value? in
            let result = buffer.baseAddress!
            switch try request.context._object(named: key, type: ObjectIdentifier(Value.self), into: UnsafeMutableRawPointer(result), requester: request.requester, label: request.property) {
            case let .made(made): return made.assumingMemoryBound(to: Value.self).pointee
            case .madeInto: return result.move()
            case .notFound: return nil
            case .needsConversion: return try request.context._object(named: key, as: Value.self, requester: nil)
            }
        }
        guard let value else { return try fillMissing(field, fallback, key, request) }
        field.pointee.storage = .value(value)
    }

    /// No object answers to `key`: keep the default, read `nil`, or fail.
    @usableFromInline
    static func fillMissing(_ field: UnsafeMutablePointer<Self>, _ fallback: Value?, _ key: String, _ request: InjectRequest) throws(ContextError) {
        if fallback != nil { return }
        guard let none = OptionalNone.value(of: Value.self) else {
            throw .unresolvedInjection(type: request.ownerName, property: request.property, key: key)
        }
        field.pointee.storage = .value(none)
    }
}

/// The part of an `Inject` the context reads and writes without knowing `Value`, through the
/// offset recorded in the owner type's injection plan.
@usableFromInline
struct InjectHeader: Sendable {
    @usableFromInline let key: String?
    @usableFromInline let isLazy: Bool
    /// `true` until the wrapper is injected or assigned: the plan skips it otherwise.
    @usableFromInline var isPending: Bool
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt
    /// `Inject<Value>.fill`, for this wrapper's `Value`.
    @usableFromInline let fill: @Sendable (UnsafeMutableRawPointer, InjectRequest) throws(ContextError) -> Void

    @inlinable
    init(key: String?, isLazy: Bool, file: StaticString, line: UInt, fill: @escaping @Sendable (UnsafeMutableRawPointer, InjectRequest) throws(ContextError) -> Void) {
        self.key = key
        self.isLazy = isLazy
        self.isPending = true
        self.file = file
        self.line = line
        self.fill = fill
    }
}

/// Who asks a wrapper to fill itself.
@usableFromInline
struct InjectRequest {
    @usableFromInline let context: ApplicationContext
    /// The definition whose object is injected, for the dependency graph; `nil` for
    /// `inject(into:)`.
    @usableFromInline let requester: Int?
    /// The property's name, the key unless the wrapper names one.
    @usableFromInline let property: String
    @usableFromInline let ownerName: String
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
@usableFromInline
enum OptionalNone {
    @usableFromInline
    static func value<Value>(of type: Value.Type) -> Value? {
        (type as? any OptionalProtocol.Type)?.none as? Value
    }
}

protocol OptionalProtocol {
    static var none: Self { get }
}

extension Optional: OptionalProtocol {}
