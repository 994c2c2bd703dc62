extension ApplicationContext {
    /// The made singleton of definition `index`, making it on this thread if no thread has.
    ///
    /// Exactly once: the first thread marks the slot `creating` under `Coordinator.lock`, runs
    /// the closure without the lock, caches the object for itself (`injecting`), injects it, then
    /// publishes it and wakes the waiters. A thread that finds the slot busy waits, unless waiting
    /// would close a cycle of threads waiting on each other: then it takes the early object of a
    /// slot being injected (singletons may reference each other through properties) or throws
    /// `circularDependency` (a cycle through creation closures).
    func singletonBox(_ index: Int, _ stack: CreationStack) throws(ContextError) -> AnyBox {
        let slot = slot(index)
        let lock = Coordinator.lock
        lock.lock()
        while true {
            if let box = slot.madeBox {
                lock.unlock()
                return box
            }
            switch slot.phase {
            case .idle:
                slot.phase = .creating(owner: stack)
            case let .creating(owner), let .injecting(owner, _):
                if let cycle = Coordinator.waitCycle(from: slot, owner: owner, stack) {
                    if case let .injecting(_, early) = slot.phase {
                        lock.unlock()
                        return early
                    }
                    lock.unlock()
                    throw .circularDependency(path: cycle)
                }
                stack.waitingFor = slot
                lock.wait()
                stack.waitingFor = nil
                continue
            }
            break
        }
        lock.unlock()
        return try createSingleton(index, slot, stack)
    }

    /// Makes, injects and publishes the singleton of definition `index`.
    ///
    /// The singleton is cached for this thread before its properties are injected, so singletons
    /// may reference each other through properties. Singletons made while another one on this
    /// thread is still being injected may hold its unfinished object, so they are published only
    /// when the outermost one is done, all together; if it fails, none of them is kept.
    private func createSingleton(_ index: Int, _ slot: Slot, _ stack: CreationStack) throws(ContextError) -> AnyBox {
        let lock = Coordinator.lock
        stack.push(self, index)
        defer { stack.pop() }
        let box: AnyBox
        do {
            box = try maker(index).makeBox(self, index, stack)
        } catch {
            lock.withLock {
                slot.phase = .idle
                lock.broadcast()
            }
            throw error
        }
        lock.withLock { slot.phase = .injecting(owner: stack, box: box) }
        stack.state.pointee.injectingSingletons += 1
        do {
            try maker(index).injectBox(box, self, index, stack)
        } catch {
            stack.state.pointee.injectingSingletons -= 1
            lock.withLock {
                slot.phase = .idle
                if stack.state.pointee.injectingSingletons == 0 {
                    for pending in stack.state.pointee.unpublished { pending.context.slot(pending.index).phase = .idle }
                    stack.state.pointee.unpublished.removeAll()
                }
                lock.broadcast()
            }
            throw error
        }
        stack.state.pointee.injectingSingletons -= 1
        stack.state.pointee.unpublished.append((self, index, box))
        if stack.state.pointee.injectingSingletons == 0 {
            lock.withLock {
                for pending in stack.state.pointee.unpublished { pending.context.publish(pending.index, pending.box) }
                stack.state.pointee.unpublished.removeAll()
                lock.broadcast()
            }
        }
        edgesRecorded[index].store(true, ordering: .relaxed)
        stack.startup?.madeWhileStarting(table.keys[index], in: self, depth: stack.depth)
        return box
    }

    /// Makes `box` the made singleton of definition `index`. Called with `Coordinator.lock` held.
    private func publish(_ index: Int, _ box: AnyBox) {
        let slot = slot(index)
        slot.instance.store(Unmanaged.passRetained(box), ordering: .releasing)
        published[index].store(UnsafeRawPointer(box.pointer), ordering: .releasing)
        slot.phase = .idle
    }

    /// Runs `body`, which makes a prototype of definition `index`, with the definition on the
    /// resolution path; a prototype already on the path is a cycle.
    @inline(__always)
    func withPrototypeFrame<R>(_ index: Int, _ stack: CreationStack, _ body: () throws(ContextError) -> R) throws(ContextError) -> R {
        if stack.contains(self, index) {
            throw .circularDependency(path: stack.path + [table.keys[index]])
        }
        stack.push(self, index)
        defer { stack.pop() }
        let made = try body()
        prototypeMade(index, stack)
        return made
    }

    /// Bookkeeping after a prototype of definition `index` was made, its frame still pushed.
    @inline(__always)
    private func prototypeMade(_ index: Int, _ stack: CreationStack) {
        if !edgesRecorded[index].load(ordering: .relaxed) { edgesRecorded[index].store(true, ordering: .relaxed) }
        if stack.state.pointee.isStarting { stack.startup?.madeWhileStarting(table.keys[index], in: self, depth: stack.depth) }
    }
}
