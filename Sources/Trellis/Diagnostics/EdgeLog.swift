import Synchronization

/// Where a context records its dependency edges without a lock: up to 64 entries in slots made
/// with the context's records, each taken with an atomic increment, written, and marked ready
/// with one bit; entries past the slots go to the journal's array, under the lock.
///
/// Every context made per request records the edges of everything it makes: through the lock,
/// each edge cost a round of it, and the first one an allocation of the array. A slot costs an
/// increment, a store and a bit.
///
/// A reader (the graph, a close that disposes, a start-up report, all rare) takes the entries
/// whose bit is set: an entry being written at that moment is not there yet, as it would not
/// have been appended yet under the lock.
struct EdgeLog: ~Copyable {
    /// How many slots were taken (may exceed the slots: the rest went to the array).
    private let taken = Atomic<Int>(0)
    /// Bit `s`: slot `s` is written.
    private let ready = Atomic<UInt64>(0)

    /// The number of slots for a context of `definitions` definitions.
    static func capacity(forDefinitions definitions: Int) -> Int { min(UInt64.bitWidth, max(8, definitions)) }

    /// Records `entry` in a free slot of `slots`, or returns it when there is none left (the
    /// caller appends it to the journal under the lock).
    @inline(__always)
    func record(_ entry: RecordedEdges, in slots: HeapBuffer<RecordedEdges>) -> RecordedEdges? {
        let slot = taken.wrappingAdd(1, ordering: .relaxed).oldValue
        guard slot < slots.count else { return entry }
        slots.initialize(slot, to: entry)
        ready.bitwiseOr(1 << UInt64(slot), ordering: .releasing)
        return nil
    }

    /// The entries written in `slots`, in the order their slots were taken.
    func entries(in slots: HeapBuffer<RecordedEdges>) -> [RecordedEdges] {
        let written = ready.load(ordering: .acquiring)
        var entries: [RecordedEdges] = []
        for slot in 0..<slots.count where written & (1 << UInt64(slot)) != 0 { entries.append(slots[slot]) }
        return entries
    }
}
