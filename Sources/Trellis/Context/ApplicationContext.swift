import Synchronization

/// Holds a factory's definitions, makes and caches their objects, and looks them up by key or
/// alias, falling back to its parent context.
///
/// ```swift
/// let app = try ApplicationContext(AppFactory())             // collect, check, warm eager singletons
/// let screen = try ApplicationContext(ScreenFactory(), parent: app)
/// let mailer: Mailer = try screen.object("mailService")      // key or alias, then the parent chain
/// ```
///
/// Thread safety: `Sendable`; every method may be called from any thread or task. A made
/// singleton is returned without taking a lock. A singleton is made exactly once, also when many
/// threads ask at once; no lock is held while a definition's closure runs. The objects handed out
/// are the caller's to use safely (see Docs/Concurrency.md).
public final class ApplicationContext: Sendable {
    /// The context's name: the factory's `contextName`, by default its type name.
    public let name: String
    /// The context asked when a name is not defined here.
    public let parent: ApplicationContext?
    /// The checked definitions this context was built from.
    public let configuration: ConfiguratorFromFactory
    let table: NameTable
    let typeIDs: ContiguousArray<ObjectIdentifier>
    /// Per definition: its maker, unretained, so the creation path reads it without reference
    /// counting.
    // Safe: allocated in init and freed in deinit; `configuration.definitions` keeps the makers
    // alive for as long as the context.
    nonisolated(unsafe) let makerRefs: UnsafeMutablePointer<Unmanaged<AnyMaker>>
    let scopes: ContiguousArray<Scope>
    /// Per definition: its creation state, made on first need (most definitions of a large
    /// context are never made, and a made singleton is read through `published`).
    // Safe: as `published`; a slot, once stored, stays until deinit, which releases it.
    nonisolated(unsafe) let slotRefs: UnsafeMutablePointer<Atomic<Unmanaged<Slot>?>>
    /// Per definition: the made singleton's value (as its declared type), published once with
    /// release ordering and read with acquire ordering: the lock-free hot path.
    // Safe: the buffer is allocated in init, freed in deinit, and only ever accessed through the
    // `Atomic` elements it holds.
    nonisolated(unsafe) let published: UnsafeMutablePointer<Atomic<UnsafeRawPointer?>>
    /// Per definition: the injection plan of the type it made last (plans are immortal).
    // Safe: as `published`.
    nonisolated(unsafe) let plans: UnsafeMutablePointer<Atomic<Unmanaged<InjectionPlan>?>>
    /// Per definition: set once it was made successfully, so its dependency edges are recorded.
    // Safe: as `published`.
    nonisolated(unsafe) let edgesRecorded: UnsafeMutablePointer<Atomic<Bool>>
    let records = ContextRecords()
    /// The scratch context `validate()` runs in is not started.
    let isValidation: Bool

    /// Builds a context from `factory` and starts it: checks every naming rule, then makes the
    /// eager singletons in declaration order.
    ///
    /// - Throws: ``ContextError`` for a broken naming rule, or for the first eager singleton that
    ///   cannot be made; no half-started context remains.
    public convenience init(_ factory: some ObjectFactory, parent: ApplicationContext? = nil) throws(ContextError) {
        try self.init(configurator: ConfiguratorFromFactory(factory), parent: parent)
    }

    /// Builds a context from `factory` with the definitions of `overriding` replacing the closure
    /// and scope of the definitions with the same keys (test doubles); names stay `factory`'s.
    ///
    /// - Throws: ``ContextError/overrideOfUnknownKey(key:context:)`` when `overriding` defines a
    ///   key that `factory` does not, and every error of ``init(_:parent:)``.
    public convenience init(_ factory: some ObjectFactory, overriding: some ObjectFactory, parent: ApplicationContext? = nil) throws(ContextError) {
        try self.init(configurator: ConfiguratorFromFactory(factory, overriding: overriding), parent: parent)
    }

    /// Builds a context from an already checked configuration and starts it.
    ///
    /// - Throws: ``ContextError`` for the first eager singleton that cannot be made.
    public convenience init(configurator: ConfiguratorFromFactory, parent: ApplicationContext? = nil) throws(ContextError) {
        try self.init(configurator: configurator, parent: parent, isValidation: false)
    }

    init(configurator: ConfiguratorFromFactory, parent: ApplicationContext?, isValidation: Bool) throws(ContextError) {
        name = configurator.contextName
        self.parent = parent
        configuration = configurator
        table = configurator.table
        typeIDs = configurator.objectTypeIDs
        makerRefs = .allocate(capacity: max(configurator.definitions.count, 1))
        for (index, definition) in configurator.definitions.enumerated() {
            (makerRefs + index).initialize(to: Unmanaged.passUnretained(definition.maker))
        }
        scopes = ContiguousArray(configurator.definitions.map(\.scope))
        let count = configurator.definitions.count
        published = .allocate(capacity: max(count, 1))
        edgesRecorded = .allocate(capacity: max(count, 1))
        plans = .allocate(capacity: max(count, 1))
        slotRefs = .allocate(capacity: max(count, 1))
        for index in 0..<count {
            (slotRefs + index).initialize(to: Atomic(nil))
            (plans + index).initialize(to: Atomic(nil))
            (published + index).initialize(to: Atomic(nil))
            (edgesRecorded + index).initialize(to: Atomic(false))
        }
        self.isValidation = isValidation
        if !isValidation { try start() }
    }

    deinit {
        makerRefs.deallocate()
        let count = configuration.definitions.count
        published.deinitialize(count: count)
        published.deallocate()
        edgesRecorded.deinitialize(count: count)
        edgesRecorded.deallocate()
        plans.deinitialize(count: count)
        plans.deallocate()
        for index in 0..<count { slotRefs[index].load(ordering: .acquiring)?.release() }
        slotRefs.deinitialize(count: count)
        slotRefs.deallocate()
    }

    /// The keys of this context's own definitions, in declaration order.
    public var keys: [String] { Array(table.keys) }

    /// The creation state of definition `index`, made on first use.
    func slot(_ index: Int) -> Slot {
        if let slot = slotRefs[index].load(ordering: .acquiring) { return slot.takeUnretainedValue() }
        let made = Unmanaged.passRetained(Slot(key: table.keys[index]))
        let (exchanged, original) = slotRefs[index].compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if exchanged { return made.takeUnretainedValue() }
        made.release()
        return original!.takeUnretainedValue()
    }

    /// The maker of definition `index`.
    @inline(__always)
    func maker(_ index: Int) -> AnyMaker { makerRefs[index].takeUnretainedValue() }

    /// Whether the singleton of definition `index` is made.
    func isMade(_ index: Int) -> Bool { published[index].load(ordering: .acquiring) != nil }

    /// This context, then its parent, grandparent, … .
    var chain: UnfoldSequence<ApplicationContext, (ApplicationContext?, Bool)> {
        sequence(first: self) { $0.parent }
    }

    /// Makes the eager singletons in declaration order, timing each for `startupReport`.
    private func start() throws(ContextError) {
        guard !configuration.eagerDefinitions.isEmpty else { return }
        let stack = ThreadLocal.creationStack
        let outer = stack.startup
        defer { stack.startup = outer }
        let collector = StartupCollector(depth: stack.depth + 1)
        stack.startup = collector
        var entries: [StartupReport.Entry] = []
        entries.reserveCapacity(configuration.eagerDefinitions.count)
        let clock = ContinuousClock()
        var began = clock.now
        for index in configuration.eagerDefinitions where !isMade(index) {
            _ = try singletonBox(index, stack)
            let finished = clock.now
            entries.append(StartupReport.Entry(key: table.keys[index], duration: finished - began, pulledIn: collector.takePulledIn()))
            began = finished
        }
        records.appendStartup(entries)
    }
}
