import Synchronization

/// The state of an `@Inject` property looked up on first read: a `.lazy` property after
/// injection, or a property of an object made while a context was current. What to look up, and
/// the object once looked up.
///
/// One allocation per property, made when the wrapper is (a current-context property) or
/// injected (a `.lazy` one): it is its own wait-for slot, and its name for messages is only
/// built when a message needs it.
@usableFromInline
final class LazyInjection<Value>: LazyInjectionSlot, @unchecked Sendable {
    // Safe: `made` is written once, under `Coordinator.lock`, before `isMade` is set with
    // release ordering; it is read only after `isMade` is seen set (acquire) or under the lock.
    // The slot's phase and waiters are guarded by the lock; the rest is immutable.
    /// The context, referred to weakly through the reference all its properties share.
    private let reference: ContextReference
    /// `nil` for a current-context property whose key is its name, learned on first read.
    private let key: String?
    /// The declared default value, if any: a `Value` in a slot of its own, freed with this
    /// object. Not a `Value?` field, which would make this generic class ask the runtime for
    /// `Optional<Value>`'s metadata (a hash-table lookup) each time one is made and destroyed,
    /// nor an `Any?`, whose destruction is a generic call, and one is made per property of every
    /// object made while a context is current.
    @usableFromInline let declaredFallback: ValueSlot?
    /// Noted from the current context when the wrapper was made: an injection by a context
    /// still replaces it.
    @usableFromInline let isFromCurrent: Bool
    /// Where the property is declared (current-context properties learn their name from it).
    private let declaration: PropertyDeclaration?
    private let file: StaticString
    private let line: UInt
    /// The definition whose object holds the property (`-1`: none, e.g. `inject(into:)`): its
    /// first read records the dependency edge, for the graph and the disposal order.
    private let requester: Int
    /// The property, labelling that edge (plans are never freed).
    private let field: Pinned<InjectionPlan.Field>?
    /// The property's name.
    private var property: String? { field?.value.property }
    /// The object once looked up, a `Value` on the heap (in a slot rather than a `Value?` field,
    /// for the same reason as `declaredFallback`).
    // Without the runtime's exclusivity check, which every read of a `.lazy` property would pay
    // (`madeValue`): written once, under the lock, before `isMade` publishes it, and never
    // written again, so no access can overlap a write.
    @usableFromInline @exclusivity(unchecked) private(set) var made: ValueSlot?
    /// `made` is set: reads need no lock from then on.
    @usableFromInline let isMade = Atomic<Bool>(false)

    /// The declared default value, or `nil` of an optional.
    ///
    /// Inlinable, so that a wrapper's filler, specialised for `Value`, asks whether `Value` is an
    /// optional where the compiler answers it: unspecialised, that is a dynamic cast of about
    /// 1,800 instructions for every optional property nobody answers to.
    @inlinable var fallback: Value? {
        if let declaredFallback { return declaredFallback.value(as: Value.self) }
        return OptionalNone.value(of: Value.self)
    }

    /// A `.lazy` property of an injected object, which `context` (unretained: the injection
    /// keeps it alive) injects. Unretained, not a strong parameter: a context that lazy
    /// properties refer to weakly has a side table, and each retain of it is the runtime's slow
    /// path.
    @usableFromInline
    init(context: Unretained<ApplicationContext>, key: String, fallback: ValueSlot?, field: Pinned<InjectionPlan.Field>, requester: Int, file: StaticString, line: UInt) {
        self.requester = requester
        self.field = field
        self.reference = context.with { $0.reference }
        self.key = key
        self.declaredFallback = fallback
        self.isFromCurrent = false
        self.declaration = nil
        self.file = file
        self.line = line
    }

    /// A property of an object made while the context `current` refers to was the current one.
    @usableFromInline
    init(current: ContextReference, key: String?, fallback: ValueSlot?, declaration: PropertyDeclaration) {
        self.reference = current
        self.key = key
        self.declaredFallback = fallback
        self.isFromCurrent = true
        self.requester = -1
        self.field = nil
        self.declaration = declaration
        self.file = declaration.file
        self.line = declaration.line
    }

    deinit {
        if let declaredFallback {
            declaredFallback.deinitialize(as: Value.self)
            declaredFallback.deallocate()
        }
        if let made {
            made.deinitialize(as: Value.self)
            made.deallocate()
        }
    }

    /// The property as the wait-for graph names it in a cycle's path.
    override var name: String {
        isFromCurrent ? "@Inject \(key ?? "property at \(file):\(line)")" : "@Inject(.lazy) \(property ?? "")"
    }

    override var ownerKey: String? {
        guard requester >= 0 else { return nil }
        return reference.context?.key(at: requester)
    }

    override func validateFirstRead() throws(ContextError) {
        _ = try value(naming: nil)
    }

    override func validateFirstReadAsync() async throws(ContextError) {
        _ = try await valueAsync(naming: nil)
    }

    /// The object once looked up, else `nil`: one atomic load, in the reader's own code
    /// (specialised for `Value`), for every read of a `.lazy` property after the first.
    @inlinable
    var madeValue: Value? {
        isMade.load(ordering: .acquiring) ? made.unsafelyUnwrapped.value(as: Value.self) : nil
    }

    /// The first read through the property's wrapper, which stops the program when it fails
    /// (`$property.get()` throws instead).
    @usableFromInline
    func firstRead(naming: PropertyNaming?) -> Value {
        do throws(ContextError) {
            return try value(naming: naming, isGetter: true)
        } catch {
            fatalError(InjectHeader.stopMessage(for: error, file: file, line: line))
        }
    }

    /// The object, looked up on first read and kept; made once when several threads read first
    /// at the same moment. No lock is held while it is looked up.
    ///
    /// The first read passes the object around in its slot (`made`), never as a generic type
    /// built on `Value` (a claim of `Value`, a `Result` of it, an optional of it): this code is
    /// not specialised, and the runtime would look each such type's metadata up on every first
    /// read, several hundred instructions each.
    ///
    /// `isGetter`: the plain read, which cannot throw and stops the program on an error, waits
    /// for another reader's first read that has suspended, in a task too, rather than stop the
    /// program by the timing of another task (`$property.get()` gets `requiresAwait`); only a
    /// wait that would hold the main actor from the read it waits for is refused.
    @usableFromInline
    func value(naming: PropertyNaming?, isGetter: Bool = false) throws(ContextError) -> Value {
        if isMade.load(ordering: .acquiring) { return made!.value(as: Value.self) }
        let made = try Resolution.run(from: nil) { resolution, _ throws(ContextError) -> ValueSlot in
            if let made = try WaitTarget.lazyProperty(self).acquireBlocking(resolution, { claim(resolution, waitsSynchronously: true, toleratesSuspendedWork: isGetter) }) {
                return made
            }
            return try finish(resolution, Result { () throws(ContextError) -> ValueSlot in try lookUp(naming, in: resolution) })
        }
        return made.value(as: Value.self)
    }

    /// `value(naming:)` for an async read: waits by suspending, and the lookup may make async
    /// definitions.
    @usableFromInline
    func valueAsync(naming: PropertyNaming?) async throws(ContextError) -> Value {
        if isMade.load(ordering: .acquiring) { return made!.value(as: Value.self) }
        // Nested in the async closure reading it, if any, and its lookup nested in it: the
        // wait-for graph then sees a read that comes back to this property (a cycle), and a
        // synchronous reader sees that this first read may suspend.
        let resolution = Resolution.forAsyncEntry(.plain, nestedIn: Resolution.asyncActive)
        defer { resolution.release() }
        if let made = try await WaitTarget.lazyProperty(self).acquireSuspending(resolution, { claim(resolution, waitsSynchronously: false, toleratesSuspendedWork: true) }) {
            return made.value(as: Value.self)
        }
        let result: Result<ValueSlot, ContextError>
        do throws(ContextError) {
            switch try target(naming, readSynchronouslyIn: nil) {
            case let .found(context, key):
                let value: Value
                do {
                    value = try await Resolution.withAsyncActive(resolution) { try await context.object(key, as: Value.self) }
                } catch {
                    // Safe: `object` throws `ContextError` only (the closure's untyped throws is
                    // `withAsyncActive`'s signature).
                    throw error as! ContextError
                }
                result = .success(ValueSlot.holding(value))
            case let .missing(key): result = .success(ValueSlot.holding(try missing(key, naming)))
            }
        } catch {
            result = .failure(error)
        }
        return try finish(resolution, result).value(as: Value.self)
    }

    /// The first read's step of the creation state machine: the rules of every wait of the
    /// engine (`CreationPhase.mayBeWaitedFor`) apply to a reader waiting for another's first
    /// read, but for a wait in a task for work that has suspended where the reader
    /// `toleratesSuspendedWork` (the getter). Called with the lock held.
    private func claim(_ resolution: Resolution, waitsSynchronously: Bool, toleratesSuspendedWork: Bool) -> SlotClaim<ValueSlot> {
        if let made { return .made(made) }
        guard case .making = phase else {
            phase = .making(owner: resolution, depth: resolution.depth)
            return .claimed
        }
        if let waited = Coordinator.cycle(through: phase, to: resolution) {
            return .failed(.circularDependency(path: resolution.cyclePrefix(closedBy: phase.blockers.first?.resolution) + [name] + waited))
        }
        let mayWait = toleratesSuspendedWork ? !(waitsSynchronously && phase.waitsForTheMainActor) : phase.mayBeWaitedFor(synchronously: waitsSynchronously)
        guard mayWait else { return .failed(.requiresAwait(key: name, path: resolution.path(appending: name))) }
        return .wait
    }

    /// Keeps the object the claimed first read looked up (a slot of its own, which becomes
    /// `made`) and wakes the readers waiting for it; returns `made`, or throws the lookup's error.
    private func finish(_ resolution: Resolution, _ result: Result<ValueSlot, ContextError>) throws(ContextError) -> ValueSlot {
        var woken: [Resumption<Void>] = []
        Coordinator.lock.withLock {
            if case let .success(looked) = result {
                made = looked
                isMade.store(true, ordering: .releasing)
            }
            phase = .idle
            woken = wakeWaiters()
            Coordinator.lock.broadcast()
        }
        for task in woken { task.resume() }
        return try result.get()
    }

    /// The key to look up: the wrapper's; else the property's name (a class instance's from its
    /// key path, a struct's from `PropertyNames`); else, for a current-context property whose
    /// name cannot be learned, the one definition in the chain declared with the property's type.
    private func resolvedKey(in context: ApplicationContext, _ naming: PropertyNaming?) throws(ContextError) -> String {
        if let key { return key }
        if let name = naming?.name() { return name }
        guard let declaration else { throw .neverInjected(property: "of type \(Value.self)", declaredAt: "\(file):\(line)") }
        if let name = PropertyNames.name(of: declaration) { return name }
        let wanted = ObjectIdentifier((Value.self as? any OptionalProtocol.Type)?.wrappedType ?? Value.self)
        let candidates = context.unshadowedKeys { $0 == wanted }
        guard candidates.count == 1 else {
            throw .unnamedProperty(type: String(reflecting: Value.self), declaredAt: declaration.site, context: context.name, candidates: candidates)
        }
        return candidates[0]
    }

    /// The context, while it lives; else the error naming the property by its key, else by its
    /// name (learned as a lookup would), else by where it is declared.
    private func liveContext(_ naming: PropertyNaming?) throws(ContextError) -> ApplicationContext {
        guard let context = reference.context else {
            let name = key ?? naming?.name() ?? declaration.flatMap(PropertyNames.name(of:)) ?? "property at \(file):\(line)"
            throw .contextReleased(context: reference.name, key: name)
        }
        return context
    }

    /// `resolution`: the synchronous read's, `nil` for an awaited one.
    private func target(_ naming: PropertyNaming?, readSynchronouslyIn resolution: Resolution?) throws(ContextError) -> LazyTarget {
        let context = try liveContext(naming)
        let key = try resolvedKey(in: context, naming)
        let lookupKey = NameTable.lookupKey(key)
        guard let found = context.definition(answering: lookupKey) else {
            // As a lookup by name: a closed context on the way answers for a name it does not
            // know, rather than the property's default or `nil`.
            if case let .closed(closed) = context.walk(to: lookupKey) { throw closed.object.closedError(looking: key) }
            return .missing(key: key)
        }
        recordEdge(to: found, in: context)
        // While validating: a synchronous first read (the getter, or `get()`) in the code
        // `resolution` is nested in makes what it names synchronously.
        if let resolution, context.isValidation, requester >= 0, found.levels == 0 {
            resolution.enclosingSession?.noteSynchronousLookup(from: requester, to: found.index)
        }
        return .found(context: context, key: key)
    }

    /// The object the first read, made in `resolution`, looks up, in a slot of its own.
    private func lookUp(_ naming: PropertyNaming?, in resolution: Resolution) throws(ContextError) -> ValueSlot {
        let slot = ValueSlot.allocate(for: Value.self)
        do throws(ContextError) {
            switch try target(naming, readSynchronouslyIn: resolution) {
            case let .found(context, key): try context._object(named: key, as: Value.self, into: slot)
            case let .missing(key): slot.initialize(as: Value.self, to: try missing(key, naming))
            }
            return slot
        } catch {
            slot.deallocate()
            throw error
        }
    }

    /// The owner's definition depends on what the property names, from its first read on.
    private func recordEdge(to found: (context: ApplicationContext, index: Int, levels: Int), in context: ApplicationContext) {
        guard requester >= 0 else { return }
        context.journal.record(Edge(from: requester, levels: found.levels, to: found.index, label: field))
    }

    /// Nothing answers to `key`: the default, or `nil` of an optional, or an error.
    private func missing(_ key: String, _ naming: PropertyNaming?) throws(ContextError) -> Value {
        if let fallback { return fallback }
        let owner = naming?.ownerName ?? declaration.map(PropertyNames.ownerName(of:)) ?? "the object declared at \(file):\(line)"
        throw .unresolvedInjection(type: owner, property: naming?.name() ?? key, key: key)
    }
}
