import Synchronization

/// The contexts this task (or thread) is closing right now: a `close()` of one of them from
/// inside its own disposals returns at once instead of waiting for itself.
///
/// Synchronous disposals run on the closing thread, so their scope is the thread's
/// (`ThreadState.closing`: an append and a remove, where a task-local's push and pop, and the
/// array it holds, cost a close with one disposable object about 700 instructions). Awaited
/// disposals may resume on any thread; their scope is a task-local, which child tasks inherit.
enum ClosingScope {
    @TaskLocal private static var contexts: [ObjectIdentifier] = []

    /// How many closing scopes are open in the process. While none is, no task or thread can be
    /// inside one, and `contains` answers without reading the task-local (a read costs more than
    /// the rest of closing a context that disposes nothing).
    private static let open = Atomic<Int>(0)

    static func contains(_ context: ApplicationContext) -> Bool {
        guard open.load(ordering: .relaxed) > 0 else { return false }
        let id = ObjectIdentifier(context)
        return ThreadState.current.closing.contains(id) || contexts.contains(id)
    }

    /// Runs `body`, which disposes synchronously, with `context` added to the contexts this
    /// thread is closing.
    static func closing<R>(_ context: ApplicationContext, _ body: () -> R) -> R {
        let thread = ThreadState.current
        thread.closing.append(ObjectIdentifier(context))
        open.add(1, ordering: .relaxed)
        defer {
            open.subtract(1, ordering: .relaxed)
            thread.closing.removeLast()
        }
        return body()
    }

    /// `closing` for awaited disposals: `context` added to the contexts this task is closing.
    nonisolated(nonsending)
    static func closing<R>(_ context: ApplicationContext, _ body: () async -> R) async -> R {
        // While no scope is open anywhere, `context` alone, without reading the task-local.
        let scope = open.load(ordering: .relaxed) > 0 ? contexts + [ObjectIdentifier(context)] : [ObjectIdentifier(context)]
        open.add(1, ordering: .relaxed)
        defer { open.subtract(1, ordering: .relaxed) }
        return await $contexts.withValue(scope, operation: body)
    }
}
