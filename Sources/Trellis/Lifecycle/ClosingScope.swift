import Synchronization

/// The contexts this task (or thread) is closing right now: a `close()` of one of them from
/// inside its own disposals returns at once instead of waiting for itself.
enum ClosingScope {
    @TaskLocal private static var contexts: [ObjectIdentifier] = []

    /// How many closing scopes are open in the process. While none is, no task or thread can be
    /// inside one, and `contains` answers without reading the task-local (a read costs more than
    /// the rest of closing a context that disposes nothing).
    private static let open = Atomic<Int>(0)

    static func contains(_ context: ApplicationContext) -> Bool {
        guard open.load(ordering: .relaxed) > 0 else { return false }
        return contexts.contains(ObjectIdentifier(context))
    }

    /// Runs `body` with `context` added to the contexts being closed.
    static func closing<R>(_ context: ApplicationContext, _ body: () -> R) -> R {
        let scope = adding(context)
        open.add(1, ordering: .relaxed)
        defer { open.subtract(1, ordering: .relaxed) }
        return $contexts.withValue(scope, operation: body)
    }

    /// `closing` for async disposals.
    nonisolated(nonsending)
    static func closing<R>(_ context: ApplicationContext, _ body: () async -> R) async -> R {
        let scope = adding(context)
        open.add(1, ordering: .relaxed)
        defer { open.subtract(1, ordering: .relaxed) }
        return await $contexts.withValue(scope, operation: body)
    }

    /// The contexts being closed with `context` added: while no scope is open anywhere, `context`
    /// alone, without reading the task-local or joining two arrays.
    private static func adding(_ context: ApplicationContext) -> [ObjectIdentifier] {
        guard open.load(ordering: .relaxed) > 0 else { return [ObjectIdentifier(context)] }
        return contexts + [ObjectIdentifier(context)]
    }
}
