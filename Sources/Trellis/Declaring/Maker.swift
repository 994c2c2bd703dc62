/// The type-erased creation closure of one definition.
///
/// A class rather than a closure so that the context can make an object into memory of the
/// caller's type without boxing it in an `Any`: `TypedMaker<Object>` knows `Object`, the caller
/// knows `T`, and one identity comparison of the two types joins them.
@usableFromInline
class AnyMaker: @unchecked Sendable {
    // Safe: every stored property, here and in the subclass, is an immutable `let` of a
    // `Sendable` type; the class is non-final only so that `TypedMaker<Object>` can specialise it.
    let objectType: Any.Type
    let objectTypeID: ObjectIdentifier
    /// The declared type is a class: an object is a single reference.
    let isClassType: Bool
    /// The closure must be awaited.
    let isAsync: Bool
    /// Why the definition can never make a usable object (a closure returning `Void`), if so.
    let invalidity: String?
    /// The closure is `@MainActor`.
    var runsOnMainActor: Bool { false }

    init(objectType: Any.Type, isClassType: Bool, isAsync: Bool, invalidity: String?) {
        self.objectType = objectType
        self.objectTypeID = ObjectIdentifier(objectType)
        self.isClassType = isClassType
        self.isAsync = isAsync
        self.invalidity = invalidity
    }

    /// Makes and injects an object of definition `index` of `context`, and moves it into
    /// `result`, which must be uninitialised memory for an `Object`.
    func make(into result: UnsafeMutableRawPointer, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) {
        fatalError("Trellis internal error: AnyMaker.make(into:) must be overridden")
    }

    /// Makes an object (not injected yet) and boxes it for caching as a singleton.
    func makeBox(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> AnyBox {
        fatalError("Trellis internal error: AnyMaker.makeBox must be overridden")
    }

    /// Injects the singleton in `box`, made by this maker, in place.
    func injectBox(_ box: AnyBox, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) {
        fatalError("Trellis internal error: AnyMaker.injectBox must be overridden")
    }

    /// Makes and injects an object, returned as `Any` (lookups whose type is not `Object`).
    func makeAny(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
        fatalError("Trellis internal error: AnyMaker.makeAny must be overridden")
    }

    /// Runs the closure only, to learn the dynamic type of what it makes (lookup by type): the
    /// object is not injected, so its `didInject` never runs for a probe that is thrown away.
    func probe(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
        fatalError("Trellis internal error: AnyMaker.probe must be overridden")
    }

    /// `makeBox` for an async lookup: awaits an async closure, hops to the main actor for a
    /// main-actor one.
    func makeBoxAsync(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> AnyBox {
        fatalError("Trellis internal error: AnyMaker.makeBoxAsync must be overridden")
    }

    /// `injectBox` for an async lookup: properties are filled by async lookups.
    func injectBoxAsync(_ box: AnyBox, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) {
        fatalError("Trellis internal error: AnyMaker.injectBoxAsync must be overridden")
    }

    /// `makeAny` for an async lookup.
    func makeAnyAsync(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> Any {
        fatalError("Trellis internal error: AnyMaker.makeAnyAsync must be overridden")
    }

    /// `probe` for an async lookup.
    func probeAsync(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> Any {
        fatalError("Trellis internal error: AnyMaker.probeAsync must be overridden")
    }

    /// Whether the declared type alone proves that every object made is a `T`.
    func declaresKind<T>(of type: T.Type) -> Bool {
        fatalError("Trellis internal error: AnyMaker.declaresKind must be overridden")
    }

    /// Whether the declared type alone proves that no object made is a `T`, so a lookup by type
    /// need not make it to find out.
    func declaresNoKind<T>(of type: T.Type) -> Bool {
        fatalError("Trellis internal error: AnyMaker.declaresNoKind must be overridden")
    }
}

/// The creation closure of a definition whose objects are `Object`s.
@usableFromInline
final class TypedMaker<Object>: AnyMaker, @unchecked Sendable {
    // Safe: see `AnyMaker`; the closure is immutable and `@Sendable`.
    @usableFromInline
    enum Closure: Sendable {
        /// Looks up other objects through the resolver.
        case synchronous(@Sendable (Resolver) throws -> Object)
        /// Needs no other object: called without building a `Resolver`, the common case for
        /// leaves of the graph.
        case independent(@Sendable () throws -> Object)
        case asynchronous(@Sendable (Resolver) async throws -> Object)
        case asyncIndependent(@Sendable () async throws -> Object)
        /// Runs on the main actor: synchronously when the caller is on it, by hopping to it from
        /// an async lookup.
        case mainActor(@MainActor @Sendable (Resolver) throws -> Object)
    }

    let closure: Closure

    @usableFromInline
    init(_ closure: Closure) {
        self.closure = closure
        // A closure returning nothing defines an object of type `()`: the compiler only warns
        // (see ObjectFactory+VoidDefinitions), the configurator rejects it.
        let invalidity: String? = Object.self == Void.self
            ? "its closure returns nothing, so it would make `()`: a closure whose last statement is a `print`, or an `if` without `else`, returns nothing. Return the object, e.g. `createSingleton(\"clock\") { print(\"making the clock\"); return SystemClock() }`."
            : nil
        let isAsync: Bool
        switch closure {
        case .asynchronous, .asyncIndependent: isAsync = true
        default: isAsync = false
        }
        super.init(objectType: Object.self, isClassType: Object.self is AnyClass, isAsync: isAsync, invalidity: invalidity)
    }

    override var runsOnMainActor: Bool {
        if case .mainActor = closure { return true }
        return false
    }

    // MARK: Running the closure

    /// Runs a synchronous closure. A `ContextError` from one of its own lookups passes through
    /// unchanged (its path already says where it came from); anything else it throws becomes
    /// `creationFailed` with the path.
    @inline(__always)
    private func run(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Object {
        do {
            switch closure {
            case let .independent(make):
                return try make()
            case let .synchronous(make):
                return try make(Resolver(context, index, resolution))
            case let .mainActor(make):
                return try runOnMainActor(make, context, index, resolution)
            case .asynchronous, .asyncIndependent:
                throw context.requiresAwait(index, resolution)
            }
        } catch let error as ContextError {
            throw error
        } catch {
            throw .creationFailed(key: context.table.keys[index], path: resolution.path, underlying: error)
        }
    }

    /// Kept out of `run`: the optional result would make every call of this generic code ask the
    /// runtime for `Optional<Object>`'s metadata.
    @inline(never)
    private func runOnMainActor(_ make: @escaping @MainActor @Sendable (Resolver) throws -> Object, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws -> Object {
        let resolver = Resolver(context, index, resolution)
        guard let made = try MainActorCall.ifOnMainActor({ try make(resolver) }) else {
            throw MainActorRequired(key: context.table.keys[index])
        }
        return made
    }

    /// Runs the closure for an async lookup: an async closure is awaited with `resolution` as
    /// the task's active lookup; a synchronous one runs bound to the current thread; a
    /// main-actor one hops to the main actor.
    private func runAsync(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> Object {
        do {
            switch closure {
            case let .asyncIndependent(make):
                return try await Resolution.withAsyncActive(resolution) { try await make() }
            case let .asynchronous(make):
                let resolver = Resolver(context, index, resolution)
                return try await Resolution.withAsyncActive(resolution) { try await make(resolver) }
            case .independent, .synchronous:
                return try ThreadState.current.runningSynchronously(resolution) { () throws(ContextError) in try run(context, index, resolution) }
            case let .mainActor(make):
                // A hop to the main actor is work on another executor, not on the task pool: a
                // synchronous caller off the main actor may wait for it; one on the main actor
                // may not (the hop is queued behind it), which `awaitsMainActor` tells it.
                resolution.setAwaitsMainActor(true)
                defer { resolution.setAwaitsMainActor(false) }
                let resolver = Resolver(context, index, resolution)
                let result = UncheckedResult<Object>()
                try await MainActor.run { () throws -> Void in
                    try ThreadState.current.runningSynchronously(resolution) { () throws(ContextError) in
                        do throws(any Error) { result.value = try make(resolver) } catch let error as ContextError { throw error } catch {
                            throw .creationFailed(key: context.table.keys[index], path: resolution.path, underlying: error)
                        }
                    }
                }
                return result.value!
            }
        } catch let error as ContextError {
            throw error
        } catch {
            throw .creationFailed(key: context.table.keys[index], path: resolution.path, underlying: error)
        }
    }

    // MARK: Synchronous

    override func make(into result: UnsafeMutableRawPointer, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) {
        let object = result.initializeMemory(as: Object.self, to: try run(context, index, resolution))
        do {
            try context.injectMade(at: object, isClass: isClassType, index, resolution)
        } catch {
            object.deinitialize(count: 1)
            throw error
        }
    }

    override func makeBox(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> AnyBox {
        AnyBox.holding(try run(context, index, resolution), isClassType: isClassType)
    }

    override func injectBox(_ box: AnyBox, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) {
        try context.injectMade(at: box.pointer.assumingMemoryBound(to: Object.self), isClass: isClassType, index, resolution)
    }

    override func makeAny(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
        let object = UnsafeMutablePointer<Object>.allocate(capacity: 1)
        defer { object.deallocate() }
        object.initialize(to: try run(context, index, resolution))
        do {
            try context.injectMade(at: object, isClass: isClassType, index, resolution)
        } catch {
            object.deinitialize(count: 1)
            throw error
        }
        return object.move()
    }

    override func probe(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) throws(ContextError) -> Any {
        try run(context, index, resolution)
    }

    // MARK: Asynchronous

    override func makeBoxAsync(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> AnyBox {
        AnyBox.holding(try await runAsync(context, index, resolution), isClassType: isClassType)
    }

    override func injectBoxAsync(_ box: AnyBox, _ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) {
        try await context.injectMadeAsync(at: box.pointer.assumingMemoryBound(to: Object.self), isClass: isClassType, index, resolution)
    }

    override func makeAnyAsync(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> Any {
        let object = UnsafeMutablePointer<Object>.allocate(capacity: 1)
        defer { object.deallocate() }
        object.initialize(to: try await runAsync(context, index, resolution))
        do {
            try await context.injectMadeAsync(at: object, isClass: isClassType, index, resolution)
        } catch {
            object.deinitialize(count: 1)
            throw error
        }
        return object.move()
    }

    override func probeAsync(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution) async throws(ContextError) -> Any {
        try await runAsync(context, index, resolution)
    }

    override func declaresKind<T>(of type: T.Type) -> Bool { Object.self is T.Type }

    override func declaresNoKind<T>(of type: T.Type) -> Bool {
        // Two classes neither of which derives from the other share no subclass (single
        // inheritance), so no object of `Object` or a subclass is a `T`. Protocols, `AnyObject`
        // and value types are left to the made object: a subclass may conform, a value may be
        // bridged or unwrapped by the cast.
        Object.self is AnyClass && T.self is AnyClass && !(Object.self is T.Type) && !(T.self is Object.Type)
    }
}

/// Carries a main-actor closure's result back to the async lookup that hopped there.
private final class UncheckedResult<Value>: @unchecked Sendable {
    // Safe: written on the main actor inside `MainActor.run`, read by the caller after that
    // call returned, which orders the two.
    var value: Value?
}

/// A made singleton, type-erased: its value lives at `pointer`, as the type `objectType`.
///
/// One allocation holds the box's fields and, in its tail, the value, aligned to a cache line
/// and alone on it: threads copying the value out never share a line with a reference count
/// another thread is writing (the object's own, allocated just before the box, would otherwise
/// often sit next to it). Not generic: a generic box class would ask the runtime for its
/// metadata (a hash-table lookup) every time a singleton is made, which a context made per
/// request pays for each of its singletons; the value's type is opened from `objectType` where
/// it is needed instead.
final class AnyBox: ManagedBuffer<AnyBox.Header, UInt8> {
    // Not `Sendable` (`ManagedBuffer` is not), though safe to share: the header is written once,
    // while the box is made, and immutable after; the value is only copied out. The boxed
    // object itself is the user's: the context only hands out copies of the reference and
    // never reads or writes the object after injecting it. `SendableBox` carries a box across
    // tasks.
    struct Header {
        let objectType: Any.Type
        /// The value, valid for the box's lifetime.
        let pointer: UnsafeMutableRawPointer
        /// The value is a class instance (also when declared as an existential): an early
        /// reference to it is the object itself, not a copy.
        let isReference: Bool
        /// `objectType` is a class type: the value is exactly one strong reference.
        let isClassType: Bool
    }

    /// Moves `value` into a new box.
    static func holding<Object>(_ value: consuming Object, isClassType: Bool) -> AnyBox {
        let lines = (max(MemoryLayout<Object>.size, 1) + 63) & ~63
        let isReference = isClassType || type(of: copy value as Any) is AnyClass
        let buffer = AnyBox.create(minimumCapacity: lines + 63) { buffer in
            let tail = buffer.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }
            let storage = UnsafeMutableRawPointer(bitPattern: (UInt(bitPattern: tail) + 63) & ~UInt(63))!
            return Header(objectType: Object.self, pointer: storage, isReference: isReference, isClassType: isClassType)
        }
        let box = unsafeDowncast(buffer, to: AnyBox.self)
        box.header.pointer.initializeMemory(as: Object.self, to: value)
        return box
    }

    deinit {
        let header = withUnsafeMutablePointerToHeader { $0.pointee }
        if header.isClassType {
            // One reference: released directly, where the generic path would open the type and
            // destroy through its value witness table (a context per request frees every box).
            Unmanaged<AnyObject>.fromOpaque(header.pointer.load(as: UnsafeRawPointer.self)).release()
            return
        }
        func destroy<Object>(_: Object.Type, at pointer: UnsafeMutableRawPointer) {
            pointer.assumingMemoryBound(to: Object.self).deinitialize(count: 1)
        }
        destroy(header.objectType, at: header.pointer)
    }

    var typeID: ObjectIdentifier { ObjectIdentifier(header.objectType) }
    var pointer: UnsafeMutableRawPointer { header.pointer }
    var isReference: Bool { header.isReference }

    var anyValue: Any {
        func value<Object>(_: Object.Type, at pointer: UnsafeMutableRawPointer) -> Any {
            pointer.assumingMemoryBound(to: Object.self).pointee
        }
        return value(header.objectType, at: header.pointer)
    }

    /// The value's dynamic type.
    var dynamicType: Any.Type {
        // A class reference: read its isa without copying the value out.
        if header.isReference, header.objectType is AnyObject.Type {
            return Unmanaged<AnyObject>.fromOpaque(header.pointer.load(as: UnsafeRawPointer.self))._withUnsafeGuaranteedRef { type(of: $0) }
        }
        return type(of: anyValue)
    }

    /// Copies the value into `result`, uninitialised memory of the box's type.
    func copy(into result: UnsafeMutableRawPointer) {
        func copy<Object>(_: Object.Type, from pointer: UnsafeMutableRawPointer, into result: UnsafeMutableRawPointer) {
            result.initializeMemory(as: Object.self, to: pointer.assumingMemoryBound(to: Object.self).pointee)
        }
        copy(header.objectType, from: header.pointer, into: result)
    }
}

/// An `AnyBox` handed from one task to another.
struct SendableBox: @unchecked Sendable {
    // Safe: a box is immutable once made (its header is written before anyone else sees it, and
    // its value is only copied out); `ManagedBuffer` is not `Sendable` only because buffers in
    // general are mutable.
    let box: AnyBox
    init(_ box: AnyBox) { self.box = box }
}
