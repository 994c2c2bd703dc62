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
/// An object made with its plain `init` while a context is current (``ApplicationContext/current``:
/// a `withCurrent` binding of the task, or the default set with `setDefault`) has its properties
/// resolved from that context on first read, as `.lazy` ones are (Docs/Injection.md says how the
/// property's name is found). Reading a required property that was never injected and has no
/// current context stops the program with a message naming the property and how to inject it;
/// `$property.get()` throws instead.
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
        /// Looked up on first read: a `.lazy` property, or one noted with the current context.
        case lazy(LazyInjection<Value>)
    }

    /// What the context reads without knowing `Value`: see `InjectHeader`.
    @usableFromInline var header: InjectHeader
    @usableFromInline var storage: Storage

    /// Injects the object named like the property.
    @inlinable public init(file: StaticString = #fileID, line: UInt = #line, owner: StaticString = #function) {
        self.init(key: nil, isLazy: false, fallback: nil, file: file, line: line, owner: owner)
    }

    /// Injects the object named `key`.
    @inlinable public init(_ key: String, file: StaticString = #fileID, line: UInt = #line, owner: StaticString = #function) {
        self.init(key: key, isLazy: false, fallback: nil, file: file, line: line, owner: owner)
    }

    /// Injects the object named like the property, as `option` says.
    @inlinable public init(_ option: InjectOption, file: StaticString = #fileID, line: UInt = #line, owner: StaticString = #function) {
        self.init(key: nil, isLazy: option == .lazy, fallback: nil, file: file, line: line, owner: owner)
    }

    /// Injects the object named `key`, as `option` says.
    @inlinable public init(_ key: String, _ option: InjectOption, file: StaticString = #fileID, line: UInt = #line, owner: StaticString = #function) {
        self.init(key: key, isLazy: option == .lazy, fallback: nil, file: file, line: line, owner: owner)
    }

    /// Injects the object named like the property, or keeps `wrappedValue` when there is none.
    @inlinable public init(wrappedValue: Value, file: StaticString = #fileID, line: UInt = #line, owner: StaticString = #function) {
        self.init(key: nil, isLazy: false, fallback: wrappedValue, file: file, line: line, owner: owner)
    }

    /// Injects the object named `key`, or keeps `wrappedValue` when there is none.
    @inlinable public init(wrappedValue: Value, _ key: String, file: StaticString = #fileID, line: UInt = #line, owner: StaticString = #function) {
        self.init(key: key, isLazy: false, fallback: wrappedValue, file: file, line: line, owner: owner)
    }

    /// Injects the object named like the property as `option` says, or keeps `wrappedValue`.
    @inlinable public init(wrappedValue: Value, _ option: InjectOption, file: StaticString = #fileID, line: UInt = #line, owner: StaticString = #function) {
        self.init(key: nil, isLazy: option == .lazy, fallback: wrappedValue, file: file, line: line, owner: owner)
    }

    /// Injects the object named `key` as `option` says, or keeps `wrappedValue`.
    @inlinable public init(wrappedValue: Value, _ key: String, _ option: InjectOption, file: StaticString = #fileID, line: UInt = #line, owner: StaticString = #function) {
        self.init(key: key, isLazy: option == .lazy, fallback: wrappedValue, file: file, line: line, owner: owner)
    }

    @inlinable
    init(key: String?, isLazy: Bool, fallback: Value?, file: StaticString, line: UInt, owner: StaticString) {
        // Inlined into the owner's initialiser, which is specialised for `Value`: `Self.fill`
        // then names the specialised filler, so injecting this property later runs concrete
        // code instead of generic code that looks up type metadata for every property.
        header = InjectHeader(key: key, isLazy: isLazy, file: file, line: line, fill: Self.fill)
        if let current = _noteInjectInitialised() {
            storage = .lazy(LazyInjection(current: current, key: key, fallback: fallback.map { ValueSlot.holding($0) }, declaration: PropertyDeclaration(file: file, line: line, owner: owner, wrapper: Self.self)))
        } else {
            storage = .pending(fallback: fallback)
        }
    }

    /// The injected object (made on first read for `.lazy` and current-context properties), the
    /// default value, or `nil` for an optional that found nothing.
    @inlinable
    public var wrappedValue: Value {
        get {
            switch storage {
            case let .value(value): value
            case let .lazy(lazy): lazy.madeValue ?? lazy.firstRead(naming: nil)
            case let .pending(fallback?): fallback
            case .pending: unresolvedValue(naming: nil)
            }
        }
        set {
            storage = .value(newValue)
            header.isPending = false
        }
    }

    /// The property of a class instance: as `wrappedValue`, and on a first read that must
    /// resolve the object from the current context, the property's name comes from its key path.
    @inlinable @inline(__always)
    public static subscript<Owner: AnyObject>(
        _enclosingInstance owner: Owner,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
    ) -> Value {
        get {
            // Each case in this code, specialised for `Value`: in the library's unspecialised
            // code, taking the wrapper's storage apart fetches its metadata, a hash-table lookup
            // on every read.
            //
            // No path below hands the key paths on as objects: the compiler then reads the
            // storage as a stored property, without making the key path (`PropertyNaming`).
            switch owner[keyPath: storageKeyPath].storage {
            case let .value(value): return value
            case let .lazy(lazy):
                if let made = lazy.madeValue { return made }
                return firstRead(lazy, of: owner)
            case let .pending(fallback?): return fallback
            case .pending: return owner[keyPath: storageKeyPath].unresolvedValue(of: owner)
            }
        }
        set {
            // A read, a local change and a whole-value write: the compiler turns the key-path
            // read into a field access, where an in-place modify through the key path would go
            // through the runtime's generic projection (25 times slower).
            var wrapper = owner[keyPath: storageKeyPath]
            wrapper.storage = .value(newValue)
            wrapper.header.isPending = false
            owner[keyPath: storageKeyPath] = wrapper
        }
    }

    /// `$property`: reads the property without stopping the program.
    @inlinable
    public var projectedValue: InjectedProperty<Value> {
        InjectedProperty(storage: storage, header: header, naming: nil)
    }

    /// `$property` of a class instance, which knows the property's name.
    @inlinable
    public static subscript<Owner: AnyObject>(
        _enclosingInstance owner: Owner,
        projected projectedKeyPath: KeyPath<Owner, InjectedProperty<Value>>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
    ) -> InjectedProperty<Value> {
        let wrapper = owner[keyPath: storageKeyPath]
        return InjectedProperty(storage: wrapper.storage, header: wrapper.header, naming: PropertyNaming(owner, storageKeyPath))
    }

    /// The first read of `lazy`, the state of a property of `owner` looked up on first read; its
    /// name, when needed, is the field whose wrapper holds `lazy`.
    @inlinable @inline(never)
    static func firstRead(_ lazy: LazyInjection<Value>, of owner: AnyObject) -> Value {
        lazy.firstRead(naming: PropertyNaming(owner: owner, wrapper: Self.self) { wrapper in
            if case let .lazy(held) = wrapper[as: Self.self].storage { return held === lazy }
            return false
        })
    }

    /// A read of this property of `owner`, never injected; its name, when needed, is the field
    /// declared where this one was (on one line with another of its type: none).
    @inlinable @inline(never)
    func unresolvedValue(of owner: AnyObject) -> Value {
        let header = header
        return unresolvedValue(naming: PropertyNaming(owner: owner, wrapper: Self.self) { other in
            let declared = other[as: Self.self].header
            return declared.line == header.line && declared.isPending && "\(declared.file)" == "\(header.file)"
        })
    }

    @usableFromInline
    func unresolvedValue(naming: PropertyNaming?) -> Value {
        do throws(ContextError) {
            return try InjectedProperty(storage: storage, header: header, naming: naming).get()
        } catch let error {
            fatalError(InjectHeader.stopMessage(for: error, file: header.file, line: header.line))
        }
    }

    /// Fills the wrapper in `field` for `request`: the per-property work of injection.
    ///
    /// With `provided` (a slot holding the `Any` an async lookup returned), stores it. Otherwise a field whose route
    /// leads to a made singleton is copied straight from it, and one whose route leads to a
    /// synchronous definition to make has it made without a lookup; anything else is looked up by name,
    /// synchronously, except that an async injection (`request.isAsync`) takes only a made
    /// singleton that way and returns `false` when the object must be made by an async lookup.
    /// A property that already holds a value is left alone; one whose lookup throws stays pending.
    @inlinable
    static func fill(_ field: ValueSlot, _ request: InjectRequest, _ provided: ValueSlot?) throws(ContextError) -> Bool {
        switch field[as: Self.self].storage {
        case .pending:
            break
        case let .lazy(lazy) where lazy.isFromCurrent && lazy.madeValue == nil:
            // Noted from the current context and not read yet: an injection wins. Once read, it
            // keeps its object, as any property holding a value.
            break
        default:
            field[as: Self.self].header.isPending = false
            return true
        }
        if provided == nil && !field[as: Self.self].header.isLazy {
            switch request.routed(ObjectIdentifier(Value.self)) {
            case let .made(made):
                field[as: Self.self].store(made.value(as: Value.self))
                return true
            case let .convertible(made, context):
                let converted = ValueSlot.withTemporary(for: Value.self) { result -> Bool in
                    // An optional of the target's declared type is wrapped, not cast.
                    guard result.initializeOptional(as: Value.self, wrapping: made, declared: request.declaredType(in: context))
                            || request.convert(made, in: context, as: Value.self, into: result) else { return false }
                    field[as: Self.self].store(result.move(as: Value.self))
                    return true
                }
                if converted { return true }
            case .toMake:
                field[as: Self.self].store(try ValueSlot.making(Value.self) { result throws(ContextError) in try request.makeTarget(into: result) })
                return true
            case .toMakeAny:
                if Value.self is any _OptionalOfDeclaredType.Type, try fillWrapping(field, request) { return true }
                field[as: Self.self].store(try ValueSlot.making(Value.self) { result throws(ContextError) in try request.makeTarget(as: Value.self, into: result) })
                return true
            case .missing:
                return try fillMissing(field, request)
            case .toAwait:
                return false
            case .lookUp:
                break
            }
        }
        return try fillByName(field, request, provided)
    }

    /// `fill` of a field of optional type whose target, declared as another type, must be made:
    /// the object made and wrapped when the field is an optional of its declared type (without
    /// the dynamic cast to an optional, about 1,100 instructions), else cast; `false`, making
    /// nothing, when the target is not of a class type.
    @inlinable
    static func fillWrapping(_ field: ValueSlot, _ request: InjectRequest) throws(ContextError) -> Bool {
        try ValueSlot.withTemporary(for: AnyObject.self) { made throws(ContextError) -> Bool in
            guard let declared = try request.makeTargetObject(into: made) else { return false }
            defer { _ = made.move(as: AnyObject.self) }
            let value = try ValueSlot.making(Value.self) { result throws(ContextError) in
                if result.initializeOptional(as: Value.self, wrapping: made, declared: declared) { return }
                try request.cast(made.value(as: AnyObject.self), as: Value.self, into: result)
            }
            field[as: Self.self].store(value)
            return true
        }
    }

    @inlinable
    mutating func store(_ value: Value) {
        storage = .value(value)
        header.isPending = false
    }

    /// `fill` by the property's key: the rules of a lookup, applied in full.
    @inlinable
    static func fillByName(_ field: ValueSlot, _ request: InjectRequest, _ provided: ValueSlot?) throws(ContextError) -> Bool {
        let key = field[as: Self.self].header.key ?? request.property
        if let provided {
            guard let value = provided[as: Any.self] as? Value else { throw request.typeMismatch(key, expected: Value.self, actual: provided[as: Any.self]) }
            field[as: Self.self].store(value)
            return true
        }
        if field[as: Self.self].header.isLazy {
            guard request.answers(key) else { return try fillMissing(field, request) }
            field[as: Self.self].storage = .lazy(LazyInjection(context: request.context, key: key, fallback: declaredFallback(of: field), field: request.field, requester: request.requesterIndex, file: field[as: Self.self].header.file, line: field[as: Self.self].header.line))
            field[as: Self.self].header.isPending = false
            // Read back rather than kept: keeping it would cost every lazy property a retain.
            if request.isValidating, case let .lazy(lazy) = field[as: Self.self].storage { request.checkLater(lazy) }
            return true
        }
        let context = request.context.object
        if request.isAsync {
            switch try context._peek(named: key, type: ObjectIdentifier(Value.self), from: request.requester) {
            case let .made(made):
                field[as: Self.self].store(made.value(as: Value.self))
                return true
            case .notFound:
                return try fillMissing(field, request)
            case .convertible, .needsConversion, .madeInto:
                return false
            }
        }
        let found = try ValueSlot.withTemporary(for: Value.self) { result throws(ContextError) -> Bool in
            let outcome = try context._object(named: key, type: ObjectIdentifier(Value.self), into: result, from: request.requester)
            // A missing name is not an error here: the field may have a default.
            if case .notFound = outcome { return false }
            try context._complete(outcome, named: key, as: Value.self, into: result, from: request.requester, wrapsInline: false)
            field[as: Self.self].store(result.move(as: Value.self))
            return true
        }
        if found { return true }
        return try fillMissing(field, request)
    }

    /// The default declared for a field not injected yet, if any, for a `LazyInjection` (which
    /// owns the slot).
    @inlinable
    static func declaredFallback(of field: ValueSlot) -> ValueSlot? {
        switch field[as: Self.self].storage {
        case let .pending(fallback): fallback.map { ValueSlot.holding($0) }
        case let .lazy(lazy): lazy.declaredFallback.map { ValueSlot.holding($0.value(as: Value.self)) }
        case .value: nil
        }
    }

    /// The declared default of a field not injected yet (or `nil` of an optional).
    @inlinable
    static func fallback(of field: ValueSlot) -> Value? {
        switch field[as: Self.self].storage {
        case let .pending(fallback): fallback ?? OptionalNone.value(of: Value.self)
        case let .lazy(lazy): lazy.fallback
        case .value: nil
        }
    }

    /// No object answers to the key: take the default, read `nil`, or fail (leaving the property
    /// pending, so a later `inject(into:)` can still fill it).
    ///
    /// The default becomes the property's value: left pending, every read of the property went
    /// through `unresolvedValue`, the library's unspecialised code (about 2,000 instructions a
    /// read, two generic metadata lookups among them).
    @inlinable
    static func fillMissing(_ field: ValueSlot, _ request: InjectRequest) throws(ContextError) -> Bool {
        if case let .pending(fallback?) = field[as: Self.self].storage {
            field[as: Self.self].store(fallback)
            return true
        }
        guard let value = fallback(of: field) else {
            let key = field[as: Self.self].header.key ?? request.property
            throw .unresolvedInjection(type: request.ownerName, property: request.property, key: key)
        }
        field[as: Self.self].store(value)
        return true
    }
}

extension Inject: Sendable where Value: Sendable {}
extension Inject.Storage: Sendable where Value: Sendable {}
