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
/// threads and tasks ask at once; no lock is held while a definition's closure runs. The objects
/// handed out are the caller's to use safely (see Docs/Concurrency.md).
public final class ApplicationContext: Sendable {
    /// The context's name: the factory's `contextName`, by default its type name.
    // Read from the configuration, not stored again: a second copy was a retain when the context
    // was made and a release when it went, for every context made per request.
    public var name: String { configuration.contextName }
    /// The context asked when a name is not defined here.
    public var parent: ApplicationContext? { heldParent }
    /// The parent, kept alive for as long as this context.
    ///
    /// A variable that `deinit` empties itself, rather than a constant: the release of a stored
    /// reference to the same class would be the compiler's loop for a chain of objects (a retain
    /// of the parent, a uniqueness check and two releases, each the runtime's slow path once lazy
    /// properties refer to the parent weakly), for every context made per request. `deinit`
    /// releases it through the thread's `ParentRelease`, which frees a chain one context after
    /// the other.
    // Safe: written in `init`, and emptied only by this context's own `deinit`, when nothing can
    // reach it any more (a weak reference reads `nil` once `deinit` began).
    nonisolated(unsafe) private var heldParent: ApplicationContext?
    /// `parent`, unretained, for walking the chain without retaining every context on it (two
    /// threads retaining one parent would write to its reference count on every lookup).
    let parentRef: Unretained<ApplicationContext>?
    /// The checked definitions this context was built from.
    public let configuration: ConfiguratorFromFactory
    /// Per definition, its record and its creation state.
    // Safe: made in init, freed in deinit; the records' fields read without the lock are
    // immutable or atomics, the others are guarded by `Coordinator.lock` (see
    // `DefinitionRecord`), and every access to a creation state holds that lock.
    nonisolated(unsafe) let tables: RecordBuffer
    /// One record per definition, in declaration order.
    @inline(__always)
    var records: HeapBuffer<DefinitionRecord> { tables.records }
    /// Per definition: its creation state.
    @inline(__always)
    var states: HeapBuffer<CreationState> { tables.states }
    let count: Int
    /// The `LifecyclePhase`, the one record of it: once `close()` began (anything but `open`),
    /// every lookup on the context, and through it, throws `contextClosed`.
    let lifecycle = Atomic<UInt8>(LifecyclePhase.open.rawValue)
    /// The journal, the type cache and the close's waiters, once one of them was written
    /// (`LockedState`); guarded by `Coordinator.lock`. Unchecked exclusivity: the lock already
    /// serialises every access, and the runtime's dynamic check costs more than the write it
    /// guards on a creation path.
    // Safe: read and written only with `Coordinator.lock` held (`withLockedState` and the
    // readers in `JournalAccess`, `TypeLookupCacheAccess` and `ContextClosing`).
    @exclusivity(unchecked) nonisolated(unsafe) var lockedStorage: LockedState?
    /// The dependency edges this context records without the lock (its slots are in `tables`).
    let edgeLog = EdgeLog()
    /// The journal's operations.
    var journal: JournalAccess { JournalAccess(unretained: Unretained(self)) }
    /// The type cache's operations.
    var typeCache: TypeLookupCacheAccess { TypeLookupCacheAccess(unretained: Unretained(self)) }
    /// The scratch context `validate()` runs in: it is not started, and problems injecting its
    /// objects are collected rather than thrown.
    let isValidation: Bool
    /// The injection routes of this context's children (`ChildRoutes`), retained; made when a
    /// child first injects an object, released with the context.
    let childRoutesStorage = Atomic<Unretained<ChildRoutes>?>(nil)
    /// `reference`, once made (held retained, released by `deinit`).
    let referenceStorage = Atomic<Unretained<ContextReference>?>(nil)
    /// Set while a close decides what to dispose: singletons claimed without the lock are then
    /// published under it (`SingletonSlot.publishWithoutLock`).
    let holdsPublications = Atomic<Bool>(false)
    /// The number its close's disposals are scoped by (`ClosingScope`), unique in the process;
    /// 0 until they begin.
    let closingScopeNumber = Atomic<UInt64>(0)

    /// Builds a context from `factory` and starts it: checks every naming rule, then makes the
    /// eager singletons in declaration order.
    ///
    /// - Throws: ``ContextError`` for a broken naming rule, or for the first eager singleton that
    ///   cannot be made (what was made before it is disposed and released: no half-started
    ///   context remains); ``ContextError/requiresAwait(key:path:)`` before making anything if an
    ///   eager singleton is async (start the context with `try await` instead).
    public convenience init(_ factory: some ObjectFactory, parent: ApplicationContext? = nil) throws(ContextError) {
        try self.init(configurator: ConfiguratorFromFactory(factory), parent: consume parent)
    }

    /// Builds a context from `factory` with the definitions of `overriding` replacing the closure
    /// and scope of the definitions with the same keys (test doubles); names stay `factory`'s.
    ///
    /// - Throws: ``ContextError/overrideOfUnknownKey(key:context:aliasOf:)`` when `overriding` defines a
    ///   key that `factory` does not, and every error of ``init(_:parent:)-9usuw``.
    public convenience init(_ factory: some ObjectFactory, overriding: some ObjectFactory, parent: ApplicationContext? = nil) throws(ContextError) {
        try self.init(configurator: ConfiguratorFromFactory(factory, overriding: overriding), parent: consume parent)
    }

    /// Builds a context from an already checked configuration and starts it.
    ///
    /// - Throws: what ``init(_:parent:)-9usuw`` throws once the configuration is checked.
    public convenience init(configurator: consuming ConfiguratorFromFactory, parent: ApplicationContext? = nil) throws(ContextError) {
        self.init(configurator: configurator, parent: consume parent, isValidation: false)
        try start()
    }

    /// Builds a context from `factory` and starts it, making the async eager singletons
    /// concurrently, each in a child task, then the synchronous ones in declaration order.
    ///
    /// ```swift
    /// let app = try await ApplicationContext(AppFactory())
    /// ```
    ///
    /// - Throws: ``ContextError`` for a broken naming rule, or the failure of the
    ///   earliest-declared eager singleton that failed (the others are cancelled, and what was
    ///   made is disposed and released).
    nonisolated(nonsending)
    public convenience init(_ factory: some ObjectFactory, parent: ApplicationContext? = nil) async throws(ContextError) {
        try await self.init(configurator: ConfiguratorFromFactory(factory), parent: parent)
    }

    /// Builds a context with test doubles from `overriding`, as ``init(_:overriding:parent:)-6sxah``,
    /// and starts it as ``init(_:parent:)-5gfg3`` does.
    nonisolated(nonsending)
    public convenience init(_ factory: some ObjectFactory, overriding: some ObjectFactory, parent: ApplicationContext? = nil) async throws(ContextError) {
        try await self.init(configurator: ConfiguratorFromFactory(factory, overriding: overriding), parent: parent)
    }

    /// Builds a context from an already checked configuration and starts it concurrently.
    ///
    /// - Throws: what ``init(_:parent:)-5gfg3`` throws once the configuration is checked.
    nonisolated(nonsending)
    public convenience init(configurator: consuming ConfiguratorFromFactory, parent: ApplicationContext? = nil) async throws(ContextError) {
        self.init(configurator: configurator, parent: parent, isValidation: false)
        try await startConcurrently()
    }

    @inline(__always)
    init(configurator: consuming ConfiguratorFromFactory, parent: consuming ApplicationContext?, isValidation: Bool) {
        parentRef = parent.map { Unretained($0) }
        heldParent = parent
        self.isValidation = isValidation
        count = configurator.definitions.count
        tables = Self.records(of: configurator)
        // Moved in, last (`consume`: without it the optimizer borrowed the parameter, copied the
        // whole configuration into the context, a retain of each of its arrays, and had the
        // caller release its own).
        configuration = consume configurator
    }

    /// A record per definition of `configuration`, and an idle state each.
    @inline(__always)
    private static func records(of configuration: borrowing ConfiguratorFromFactory) -> RecordBuffer {
        let anyPrerequisites = !configuration.definitionsWithPrerequisites.isEmpty
        // By index, and field by field: iterating, or passing a definition's maker, would copy
        // the definition or its closure (a retain and a release each).
        return RecordBuffer(count: configuration.definitions.count) { index in
            DefinitionRecord(
                objectType: configuration.definitions[index].maker.objectType,
                scope: configuration.definitions[index].scope,
                isAsync: configuration.definitions[index].maker.isAsync,
                isClassType: configuration.definitions[index].maker.isClassType,
                runsOnMainActor: configuration.definitions[index].maker.runsOnMainActor,
                hasPrerequisites: anyPrerequisites && configuration.definitions[index].hasPrerequisites)
        }
    }

    deinit {
        childRoutesStorage.load(ordering: .acquiring)?.release()
        referenceStorage.load(ordering: .acquiring)?.release()
        tables.free()
        // The thread's state borrowed: through `ThreadState.current` its `parentRelease` was
        // retained and released around the call, for every context freed.
        if heldParent != nil { ThreadState.currentUnretained.with { $0.parentRelease.release(heldParent.take()!) } }
    }

    /// The keys of this context's own definitions, in declaration order.
    public var keys: [String] { Array(configuration.table.keys) }

    /// The key of definition `index`.
    func key(at index: Int) -> String { configuration.table.keys[index] }

    /// Runs `body` on the context's `LockedState`, made first if nothing was written yet;
    /// `Coordinator.lock` must be held.
    @inline(__always)
    func withLockedState<R>(_ body: (inout LockedState) -> R) -> R {
        if lockedStorage == nil { lockedStorage = LockedState() }
        return body(&lockedStorage!)
    }

    /// Whether the singleton of definition `index` is made.
    func isMade(_ index: Int) -> Bool { records[index].published.load(ordering: .acquiring) != nil }

    /// Whether `close()` has begun.
    @inline(__always)
    var isClosed: Bool { lifecycle.load(ordering: .relaxed) != LifecyclePhase.open.rawValue }

    /// The lifecycle phase; read with `Coordinator.lock` held to act on it.
    var phase: LifecyclePhase { LifecyclePhase(rawValue: lifecycle.load(ordering: .relaxed))! }

    /// Moves to `phase`; `Coordinator.lock` must be held.
    func enter(_ phase: LifecyclePhase) { lifecycle.store(phase.rawValue, ordering: .releasing) }

    /// This context, then its parent, grandparent, … .
    var chain: UnfoldSequence<ApplicationContext, (ApplicationContext?, Bool)> {
        sequence(first: self) { $0.parent }
    }
}
