import Synchronization

/// The storage behind `ApplicationContext.current`.
enum CurrentContext {
    @TaskLocal static var bound: CurrentBinding?
    static let defaultContext = Locked<ApplicationContext?>(nil)
    /// Whether a default is set: `@Inject` initialisers read it before anything else.
    static let hasDefault = Atomic<Bool>(false)
    /// `withCurrent` scopes running anywhere in the process.
    static let bindings = Atomic<Int>(0)
    /// Counts `setDefault` calls, so a thread may cache the default it read (`ThreadState`).
    /// Starts at 1, which no thread's cache starts at.
    static let generation = Atomic<Int>(1)

    /// Whether a current context can exist at all: one relaxed load each, so a process that never
    /// binds one pays (almost) nothing when `@Inject` wrappers are made.
    @inline(__always)
    static var mayBeSet: Bool {
        hasDefault.load(ordering: .relaxed) || bindings.load(ordering: .relaxed) != 0
    }
}
