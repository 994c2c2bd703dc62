import Synchronization

/// The contexts this task (or thread) is closing right now: a `close()` of one of them from
/// inside its own disposals returns at once instead of waiting for itself.
///
/// Synchronous disposals run on the closing thread, so their scope is the thread's
/// (`ThreadState.closing`: an append and a remove, where a task-local's push and pop, and the
/// array it holds, cost a close with one disposable object about 700 instructions). Awaited
/// disposals may resume on any thread; their scope is a task-local, which child tasks inherit,
/// and so does every unstructured task a `dispose()` starts, which may outlive the close.
///
/// A scope holds each context's close by a number unique in the process, not by the context's
/// address: a task started inside a close can run after the context is freed and another is
/// made at its address, whose `close()` must not take itself for the old one's. Nor does a scope
/// keep the context alive (a disposal left running by a bounded close holds the scope).
enum ClosingScope {
    @TaskLocal private static var closes: [UInt64] = []

    /// How many closing scopes are open in the process. While none is, no task or thread can be
    /// inside one, and `contains` answers without reading the task-local (a read costs more than
    /// the rest of closing a context that disposes nothing).
    private static let open = Atomic<Int>(0)
    /// The last number given to a close.
    private static let numbered = Atomic<UInt64>(0)

    static func contains(_ context: ApplicationContext) -> Bool {
        guard open.load(ordering: .relaxed) > 0 else { return false }
        let number = context.closingScopeNumber.load(ordering: .relaxed)
        return number != 0 && (ThreadState.current.closing.contains(number) || closes.contains(number))
    }

    /// The number `context`'s close is scoped by, given on its first scope.
    static func number(of context: ApplicationContext) -> UInt64 {
        let given = context.closingScopeNumber.load(ordering: .relaxed)
        if given != 0 { return given }
        let number = numbered.wrappingAdd(1, ordering: .relaxed).newValue
        let (exchanged, original) = context.closingScopeNumber.compareExchange(expected: 0, desired: number, ordering: .relaxed)
        return exchanged ? number : original
    }

    /// Runs `body`, which disposes synchronously, in the scope of close `number` on this thread.
    static func closing<R>(_ number: UInt64, _ body: () -> R) -> R {
        let thread = ThreadState.current
        thread.closing.append(number)
        open.add(1, ordering: .relaxed)
        defer {
            open.subtract(1, ordering: .relaxed)
            thread.closing.removeLast()
        }
        return body()
    }

    /// Runs `body`, a synchronous disposal of an awaited close, in the scope of close `number`
    /// (if given) on this thread only: a `close()` from inside it returns at once, and a task it
    /// starts does not inherit the scope (that task's `close()` waits for the close under way,
    /// as Docs/Lifecycle.md says), where the awaited close's task-local would hand it on.
    static func disposingSynchronously<R>(_ number: UInt64?, _ body: () -> R) -> R {
        guard let number else { return body() }
        guard open.load(ordering: .relaxed) > 0, closes.contains(number) else { return closing(number, body) }
        return $closes.withValue(closes.filter { $0 != number }) { closing(number, body) }
    }

    /// `closing` for awaited disposals: in the scope of close `number` in this task.
    nonisolated(nonsending)
    static func closing<R>(_ number: UInt64, _ body: () async -> R) async -> R {
        // While no scope is open anywhere, `number` alone, without reading the task-local.
        let scope = open.load(ordering: .relaxed) > 0 ? closes + [number] : [number]
        open.add(1, ordering: .relaxed)
        defer { open.subtract(1, ordering: .relaxed) }
        return await $closes.withValue(scope, operation: body)
    }
}
