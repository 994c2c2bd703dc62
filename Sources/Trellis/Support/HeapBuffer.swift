/// A fixed number of elements in one heap allocation that its owner frees by hand: the tables a
/// type builds once and reads on hot paths in place, without the bounds checks and reference
/// counting of an array, or the exclusivity checks of a class's stored `var`.
///
/// The owner initialises every element before reading it and frees the buffer once
/// (`deinitialize(count:)`, `deallocate()`), after which no copy of it may be used; copies
/// share the elements. A buffer kept for the life of the process (an injection plan's fields,
/// the process-wide caches) is never freed, and only such a buffer hands out `Pinned`
/// references to its elements.
struct HeapBuffer<Element: ~Copyable> {
    // The allocation, valid until the owner frees it; every access below is within `count`
    // (indices are the owner's, unchecked: the point of the type).
    private let start: UnsafeMutablePointer<Element>
    /// The number of elements the buffer has room for.
    let count: Int

    /// Room for `count` elements, none initialised.
    init(count: Int) {
        start = .allocate(capacity: Swift.max(count, 1))
        self.count = count
    }

    /// The `count` elements at `start`, part of an allocation the caller made (`RecordBuffer`);
    /// `deallocate()` frees it only if `start` is its beginning.
    init(uninitialized start: UnsafeMutablePointer<Element>, count: Int) {
        self.start = start
        self.count = count
    }

    /// Element `index`, in place: read without a copy, written without a retain of a buffer.
    subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(start + index) }
        @inline(__always) nonmutating unsafeMutableAddress { start + index }
    }

    /// Moves `element` into slot `index`, which holds none.
    @inline(__always)
    func initialize(_ index: Int, to element: consuming Element) { (start + index).initialize(to: element) }

    /// Moves element `index` out; the slot holds none afterwards.
    @inline(__always)
    func move(_ index: Int) -> Element { (start + index).move() }

    /// Moves the first `count` elements of `source` into this buffer's first slots, which hold
    /// none; `source`'s hold none afterwards.
    func moveInitialize(from source: HeapBuffer, count: Int) { start.moveInitialize(from: source.start, count: count) }

    /// Element `index`'s memory as a slot, valid until the buffer is freed: where a context
    /// publishes a made singleton that is its own cell (`RecordBuffer.cells`).
    @inline(__always)
    func slot(at index: Int) -> ValueSlot { ValueSlot(rawValue: UnsafeMutableRawPointer(start + index)) }

    /// Destroys the first `count` elements.
    func deinitialize(count: Int) { start.deinitialize(count: count) }

    /// Frees the allocation; its elements must be destroyed (or trivial).
    func deallocate() { start.deallocate() }
}

extension HeapBuffer where Element: Copyable {
    /// A buffer holding a copy of each of `elements`.
    init(copying elements: some Collection<Element>) {
        self.init(count: elements.count)
        for (index, element) in elements.enumerated() { initialize(index, to: element) }
    }

    /// A reference to element `index`, for as long as the process runs: this buffer must never
    /// be freed.
    func pinned(at index: Int) -> Pinned<Element> { Pinned(address: start + index) }
}

/// The elements, in order, once every one is initialised. A `Sequence` only: as a `Collection`,
/// its subscript's overloads keep the type checker from opening an element's existential
/// metatype (`records[index].objectType`).
extension HeapBuffer: Sequence where Element: Copyable {
    /// Copies of the elements, in order.
    struct Iterator: IteratorProtocol {
        fileprivate let buffer: HeapBuffer
        fileprivate var index = 0

        /// The next element, or `nil` after the last.
        mutating func next() -> Element? {
            guard index < buffer.count else { return nil }
            defer { index += 1 }
            return buffer[index]
        }
    }

    /// The elements from the first.
    func makeIterator() -> Iterator { Iterator(buffer: self) }

    /// All of them: the buffer is full.
    var underestimatedCount: Int { count }
}

extension HeapBuffer where Element: ~Copyable {
    /// The positions of the elements.
    var indices: Range<Int> { 0..<count }

    /// The buffer has room for no element.
    var isEmpty: Bool { count == 0 }
}
