/// A context's per-definition state: a `DefinitionRecord`, a `CreationState` and a cell for each
/// definition, in one allocation (a context made per request pays for every `malloc`), made
/// and freed with the context.
///
/// Side by side rather than interleaved: the creation state, written under the coordinator's
/// lock, must not share a record with the fields lock-free lookups read (`CreationState`).
struct RecordBuffer {
    /// One record per definition, in declaration order.
    let records: HeapBuffer<DefinitionRecord>
    /// Per definition: its creation state.
    let states: HeapBuffer<CreationState>
    /// Per definition: where a made singleton of a class type is published, the object itself
    /// (`MadeValue`), unretained: the definition's state holds it for the context's life. Written
    /// once, when published, and read only after (uninitialised until then, and trivial: nothing
    /// to make or destroy with the context). Apart from the states for the same reason as the
    /// records: lock-free lookups read a published cell.
    let cells: HeapBuffer<Unretained<AnyObject>>
    /// The slots of the context's `EdgeLog`: uninitialised until taken, and trivial, so nothing
    /// to make or destroy with the context.
    let edges: HeapBuffer<RecordedEdges>

    /// Records for `count` definitions, each made by `record`, and as many idle states.
    @inline(__always)
    init(count: Int, record: (Int) -> DefinitionRecord) {
        let capacity = max(count, 1)
        let edgeSlots = EdgeLog.capacity(forDefinitions: count)
        let alignment = max(MemoryLayout<DefinitionRecord>.alignment, MemoryLayout<CreationState>.alignment, MemoryLayout<Unretained<AnyObject>>.alignment, MemoryLayout<RecordedEdges>.alignment)
        let recordBytes = (MemoryLayout<DefinitionRecord>.stride * capacity + alignment - 1) & ~(alignment - 1)
        let stateBytes = (MemoryLayout<CreationState>.stride * capacity + alignment - 1) & ~(alignment - 1)
        let cellBytes = (MemoryLayout<Unretained<AnyObject>>.stride * capacity + alignment - 1) & ~(alignment - 1)
        // One block: the records, the states, the cells, then the edge slots, each from an
        // aligned offset.
        let block = UnsafeMutableRawPointer.allocate(byteCount: recordBytes + stateBytes + cellBytes + MemoryLayout<RecordedEdges>.stride * edgeSlots, alignment: alignment)
        records = HeapBuffer(uninitialized: block.bindMemory(to: DefinitionRecord.self, capacity: capacity), count: count)
        states = HeapBuffer(uninitialized: (block + recordBytes).bindMemory(to: CreationState.self, capacity: capacity), count: count)
        cells = HeapBuffer(uninitialized: (block + recordBytes + stateBytes).bindMemory(to: Unretained<AnyObject>.self, capacity: capacity), count: count)
        edges = HeapBuffer(uninitialized: (block + recordBytes + stateBytes + cellBytes).bindMemory(to: RecordedEdges.self, capacity: edgeSlots), count: edgeSlots)
        for index in 0..<count {
            records.initialize(index, to: record(index))
            states.initialize(index, to: CreationState())
        }
    }

    /// Destroys every record and state and frees the block; nothing may use them afterwards.
    func free() {
        // One element at a time, moved out and dropped: destroyed by code specialised for the
        // type, where `deinitialize(count:)` goes through the runtime's array destroy and a
        // call of the type's value witness per element.
        for index in 0..<records.count {
            _ = records.move(index)
            _ = states.move(index)
        }
        // The records start the block.
        records.deallocate()
    }
}
