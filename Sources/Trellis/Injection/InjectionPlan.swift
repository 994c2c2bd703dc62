import Synchronization

/// What injecting an object of one type takes: the offsets of its `@Inject` fields (superclasses'
/// included) and whether it wants `didInject`. Built once per type from reflection metadata and
/// kept for the life of the process, so later objects of the type are injected without `Mirror`.
@usableFromInline
final class InjectionPlan: @unchecked Sendable {
    // Safe: immutable after init; `fields` is written only in init, and freed in deinit, which
    // only a plan that lost the race to be cached reaches (the cache keeps every other for the
    // process, so requests and edges may pin its elements).
    @usableFromInline
    struct Field: Sendable {
        let offset: Int
        /// Where the wrapper's `InjectHeader` lies inside the object.
        let headerOffset: Int
        /// The property's name: the storage label without its leading underscore.
        let property: String
        /// The field's type, `Inject<Value>`.
        let wrapper: ObjectIdentifier
    }

    let typeID: ObjectIdentifier
    let typeName: String
    /// The fields, in a buffer that lives as long as the process.
    let fields: HeapBuffer<Field>
    let isAware: Bool
    /// Its `InjectionAware` conformance is isolated to the main actor (a class of an app target),
    /// so `didInject` is called there, whatever a cast off that actor says.
    let isAwareOnMainActorOnly: Bool
    /// Its `InjectionAware` conformance is isolated to a global actor other than the main actor,
    /// which the context cannot reach: injecting it fails with ``ConformanceIsolated`` (a cast to
    /// the class-bound protocol does not check isolation, so it would call `didInject` anywhere).
    let isAwareOnAnotherActor: Bool
    /// How a value of the type must be disposed because of its conformances' isolation
    /// (`Disposal`): `.none` when it is not isolated (or not disposable).
    let disposalIsolation: Disposal.Isolation
    /// Objects of the type are class instances (else values: structs are injected in place).
    let isClass: Bool
    /// A type adopting neither `Disposable` nor `AsyncDisposable`, whatever the isolation, whose
    /// values no cast can see through to another type: its objects and values are not disposed
    /// (`Disposal`), and a close does not cast them.
    let isNeverDisposable: Bool
    /// For a class adopting `Disposable` with a conformance usable on any actor, and
    /// `AsyncDisposable` in no isolation: its objects as `any Disposable`, disposed synchronously
    /// wherever a close runs (`Disposal`). Found once here; for each object closed it saves the
    /// failing cast to `AsyncDisposable`, the isolation queries and the cast to `Disposable`, each
    /// a lookup in the runtime's conformance cache (about 3,400 instructions per object): it casts
    /// to the class itself, whose conformance it holds.
    // Not `@Sendable`: it captures the class's metatype, which the compiler cannot prove
    // sendable for a class opened from an existential. Safe to call from any thread all the
    // same (see the class's comment): it captures nothing else, and reads nothing mutable.
    let plainDisposer: ((AnyObject) -> any Disposable)?
    /// The type (a class or struct) reported no stored fields at all: it has none, or reflection
    /// metadata is stripped.
    let reportsNoFields: Bool
    /// Nothing to do for objects of this type: the common case, checked first.
    let isEmpty: Bool
    /// No `@Inject` field and no `didInject`: an object of the type is complete as made.
    var hasNothingToInject: Bool { fields.isEmpty && !isAware && !isOptional }
    /// The type is an optional: an object of it is injected as the value it wraps, if any
    /// (`ObjectInjection`), so it is never "nothing to do".
    let isOptional: Bool
    /// Nothing to do unless `@Inject` wrappers were made while the object was (then reflection is
    /// stripped): a class or struct without stored properties.
    let isEmptyUnlessStripped: Bool

    private init(_ type: Any.Type) {
        typeID = ObjectIdentifier(type)
        typeName = String(reflecting: type)
        var found: [Field] = []
        var count = 0
        isClass = type is AnyObject.Type
        // Other kinds of type (enums, tuples, …) have no field.
        let visited = Runtime.forEachStoredField(of: type) { name, offset, fieldType in
            count += 1
            if let injectable = fieldType as? any InjectableField.Type {
                let property = PropertyNames.property(ofStorageLabel: String(cString: name))
                found.append(Field(offset: offset, headerOffset: offset + injectable.headerOffset, property: property, wrapper: ObjectIdentifier(fieldType)))
            }
        }
        fields = HeapBuffer(copying: found)
        // An isolated conformance (a main-actor class of an app target) fails the cast off its
        // actor; the plan is kept for the process, so it must not depend on who asked first.
        isAware = type is any InjectionAware.Type || IsolatedConformance.isolates(type, from: (any InjectionAware).self)
        let awareIsolation = isAware ? Runtime.isolation(of: type, to: (any InjectionAware).self) : .none
        isAwareOnMainActorOnly = awareIsolation == .mainActor
        isAwareOnAnotherActor = awareIsolation == .otherGlobalActor
        // A type that conforms to neither disposal protocol, with any isolation, is never
        // disposed: a close asks the plan instead of casting each such object or value (casts of
        // an `Any` to an existential cost a few thousand instructions, four per value closed; a
        // request's struct cost its close 6,000). Except where a cast looks past the type itself
        // (Docs/Lifecycle.md): an optional is cast through its wrapped value, an `AnyHashable`
        // through its base, a type bridged to a class through that class.
        isNeverDisposable = !CastTransparency.looksPast(type) && !(type is any Disposable.Type) && !(type is any AsyncDisposable.Type)
            && !IsolatedConformance.isolates(type, from: (any Disposable).self)
            && !IsolatedConformance.isolates(type, from: (any AsyncDisposable).self)
        disposalIsolation = isNeverDisposable ? .none : Disposal.Isolation(of: type)
        // Isolation read from the conformance itself, so the answer does not depend on the actor
        // of whoever asked first (`.none` too when the runtime cannot say: then objects are cast).
        if isClass, !(type is any AsyncDisposable.Type),
           Runtime.conformance(of: type, to: (any Disposable).self, readingIsolation: true) == .usableHere,
           Runtime.conformance(of: type, to: (any AsyncDisposable).self, readingIsolation: true) == .none,
           let disposable = type as? any Disposable.Type {
            plainDisposer = Self.disposer(of: disposable)
        } else {
            plainDisposer = nil
        }
        reportsNoFields = visited && count == 0
        isOptional = type is any OptionalProtocol.Type
        isEmpty = found.isEmpty && !isAware && !reportsNoFields && !isOptional
        isEmptyUnlessStripped = found.isEmpty && !isAware && !isOptional
    }

    /// Only a plan built by a thread that lost the race to cache its type's plan is released
    /// (`lookUp`): nothing else ever saw it.
    deinit {
        fields.deinitialize(count: fields.count)
        fields.deallocate()
    }

    /// `plainDisposer` for `Object`: an object of the class, cast to the class, is a `Disposable`
    /// by the conformance this function was given.
    /// Takes the object as a reference: a cast from a reference to its class reads the isa, where
    /// one from an `Any` is the runtime's general cast (about 230 instructions a close).
    private static func disposer<Object: Disposable>(of _: Object.Type) -> (AnyObject) -> any Disposable {
        { object in object as! Object }
    }

    private static let cache = Locked<[ObjectIdentifier: InjectionPlan]>([:])

    /// The last plan looked up for each of 256 hash classes of types: a lookup without a lock
    /// for the types a program makes over and over (plans are immortal, so a slot may hold one
    /// unretained).
    // Safe: allocated once, never freed, and only ever accessed through the atomics it holds.
    nonisolated(unsafe) private static let recent: HeapBuffer<Atomic<Unretained<InjectionPlan>?>> = {
        let slots = HeapBuffer<Atomic<Unretained<InjectionPlan>?>>(count: 256)
        for slot in slots.indices { slots.initialize(slot, to: Atomic(nil)) }
        return slots
    }()

    /// The plan of `type`, built on first use. Plans are never released, so callers may keep
    /// unretained references to them and point into their fields.
    static func of(_ type: Any.Type) -> InjectionPlan {
        unretained(of: type).object
    }

    /// `of(_:)` without a retain and a release of the plan (plans are immortal): for the checks
    /// made on every singleton made.
    static func unretained(of type: Any.Type) -> Unretained<InjectionPlan> {
        let id = ObjectIdentifier(type)
        // Metadata is at least 16-byte aligned: the bits above the lowest four pick the slot.
        let bits = UInt(bitPattern: Int(bitPattern: id)) >> 4
        let slot = Int((bits ^ (bits >> 8)) & 255)
        if let plan = recent[slot].load(ordering: .acquiring), plan.with({ $0.typeID == id }) { return plan }
        let plan = Unretained(lookUp(type, id))
        recent[slot].store(plan, ordering: .releasing)
        return plan
    }

    private static func lookUp(_ type: Any.Type, _ id: ObjectIdentifier) -> InjectionPlan {
        if let plan = cache.withLock({ $0[id] }) { return plan }
        let plan = InjectionPlan(type)
        return cache.withLock { cache in
            if let raced = cache[id] { return raced }
            cache[id] = plan
            return plan
        }
    }

    /// The route of every definition making objects of this type when it has no fields: such a
    /// route has no targets, so one serves every context (made once, immortal like the plan).
    let sharedRoute = Atomic<Unretained<InjectionRoute>?>(nil)
    /// Whether `PropertyNames` has learned where this type's fields are declared.
    let namesLearned = Atomic<Bool>(false)

    /// The field whose wrapper lies `offset` bytes into an object of this type, if any.
    func field(atOffset offset: Int) -> Field? {
        fields.first { $0.offset == offset }
    }
}
