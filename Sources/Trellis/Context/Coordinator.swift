/// The one lock of the creation slow path, shared by every context because a resolution may
/// cross contexts (a child's singleton depends on its parent's). Held only to change a slot's
/// phase or to wait, never while a user's closure runs.
enum Coordinator {
    static let lock = Lock()

    /// The keys of the cycle that waiting for `slot` (held by `owner`) would close, or `nil` if
    /// waiting is safe. Called with `lock` held.
    static func waitCycle(from slot: Slot, owner: CreationStack, _ stack: CreationStack) -> [String]? {
        var chain = [slot.key]
        var current = owner
        // Each step moves to another thread blocked on a slot; there are finitely many threads.
        while current !== stack {
            guard let waited = current.waitingFor, let next = waited.owner else { return nil }
            chain.append(waited.key)
            current = next
        }
        return stack.path + chain
    }
}
