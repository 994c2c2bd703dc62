/// A context's per-definition state: a `DefinitionRecord` and a `CreationState` for each
/// definition, in one allocation (a context made per request pays for every `malloc`), made
/// and freed with the context.
///
/// Two buffers rather than one of pairs: the creation state, written under the coordinator's
/// lock, must not share a record with the fields lock-free lookups read (`CreationState`).
struct RecordBuffer {
    /// One record per definition, in declaration order.
    let records: HeapBuffer<DefinitionRecord>
    /// Per definition: its creation state.
    let states: HeapBuffer<CreationState>

    /// Records for `count` definitions, each made by `record`, and as many idle states.
    @inline(__always)
    init(count: Int, record: (Int) -> DefinitionRecord) {
        let capacity = max(count, 1)
        let alignment = max(MemoryLayout<DefinitionRecord>.alignment, MemoryLayout<CreationState>.alignment)
        let recordBytes = (MemoryLayout<DefinitionRecord>.stride * capacity + alignment - 1) & ~(alignment - 1)
        // One block: the records, then the states from the first aligned offset after them.
        let block = UnsafeMutableRawPointer.allocate(byteCount: recordBytes + MemoryLayout<CreationState>.stride * capacity, alignment: alignment)
        records = HeapBuffer(uninitialized: block.bindMemory(to: DefinitionRecord.self, capacity: capacity), count: count)
        states = HeapBuffer(uninitialized: (block + recordBytes).bindMemory(to: CreationState.self, capacity: capacity), count: count)
        for index in 0..<count {
            records.initialize(index, to: record(index))
            states.initialize(index, to: CreationState())
        }
    }

    /// Destroys every record and state and frees the block; nothing may use them afterwards.
    func free() {
        records.deinitialize(count: records.count)
        states.deinitialize(count: states.count)
        // The records start the block.
        records.deallocate()
    }
}
