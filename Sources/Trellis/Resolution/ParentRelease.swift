/// Releases the parents of contexts being freed on one thread, one after the other: a context
/// whose `deinit` frees its parent, whose `deinit` frees its own parent, and so on, would go as
/// deep into the stack as the chain is long (ten thousand nested contexts dropped at once run
/// out of a 512 KiB stack).
///
/// The first release on a thread runs the loop; a release made from inside it (a parent's
/// `deinit`, run by the loop's release of the parent) is queued and returns, and the loop
/// releases it next. Nothing shared is changed: each context empties its own parent variable in
/// its own `deinit`, when nothing can reach it any more.
///
/// A class, one per thread (`ThreadState`): a release made from inside the loop changes the queue
/// while the loop runs, which a struct's mutating method would forbid (the runtime's exclusivity
/// check stops the program).
final class ParentRelease {
    // Unchecked exclusivity: only the thread that owns this object reads or writes them, and
    // every context freed would otherwise pay the runtime's access checks.
    @exclusivity(unchecked) private var isReleasing = false
    @exclusivity(unchecked) private var queued: [ApplicationContext] = []

    deinit {
        // A thread that exits releases its state after any loop of its own has ended.
        assert(queued.isEmpty)
    }

    /// Releases `parent`, now or, when called from inside a release on this thread, after it.
    func release(_ parent: consuming ApplicationContext) {
        guard !isReleasing else {
            queued.append(consume parent)
            return
        }
        isReleasing = true
        // Moved, not copied: a copy would leave the parameter's reference to be released when
        // this function returns, after the loop, and the chain would be freed recursively.
        var next: ApplicationContext? = consume parent
        while let context = next.take() {
            // The last reference, perhaps: the context's `deinit` runs here, and queues its
            // parent instead of releasing it.
            _ = consume context
            next = queued.popLast()
        }
        isReleasing = false
    }
}
