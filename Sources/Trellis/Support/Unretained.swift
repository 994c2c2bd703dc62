import Synchronization

/// A reference to an object that something else keeps alive, held without reference counting:
/// storing, copying and passing one retains nothing.
///
/// For references read on every lookup or every object made, where a retain and a release (an
/// atomic read-modify-write of a count that other threads write too) would cost more than the
/// work itself: a context's parent and the contexts of a walk up its chain, a requester's
/// context and resolution, a resolution's frames, the thread's state. Whoever stores one says,
/// where it is declared, what keeps the object alive for as long as it is used; using it after
/// the object is freed is undefined behaviour.
///
/// A few hold a retain of their own, taken with `retained(_:)` and given back with `release()`
/// (a record's injection route, a parent's child routes, a thread's state and job handed to
/// pthreads): a reference count managed by hand where an atomic or a C context pointer holds
/// it.
@usableFromInline
struct Unretained<Object: AnyObject>: BitwiseCopyable {
    // The one field: a reference the runtime does not count. Every operation below relies on
    // the holder's guarantee that the object is alive.
    @usableFromInline let rawValue: Unmanaged<Object>

    /// The reference `rawValue` holds (for the atomics' conformances, which store it).
    @inlinable @inline(__always)
    init(rawValue: Unmanaged<Object>) { self.rawValue = rawValue }

    /// `object`, unretained: the caller guarantees it outlives every use of this reference.
    @inlinable @inline(__always)
    init(_ object: Object) { rawValue = .passUnretained(object) }

    /// `object` with one retain taken for the holder, who gives it back with `release()` (or
    /// hands it on to whoever will).
    @inline(__always)
    static func retained(_ object: Object) -> Unretained { Unretained(rawValue: .passRetained(object)) }

    /// One more retain of the object, for another holder who gives it back with `release()`.
    @inline(__always)
    func retainedAgain() -> Unretained { Unretained(rawValue: rawValue.retain()) }

    /// Gives back a retain taken by `retained(_:)`; the object may be freed.
    @inline(__always)
    func release() { rawValue.release() }

    /// Runs `body` with the object at +0: no retain and release around it. The runtime's
    /// `_withUnsafeGuaranteedRef` tells the optimizer that the object stays alive for the
    /// call, which the holder guarantees; only its name is underscored, it is documented.
    @inlinable @inline(__always)
    func with<R, Failure: Error>(_ body: (Object) throws(Failure) -> R) throws(Failure) -> R {
        do {
            return try rawValue._withUnsafeGuaranteedRef(body)
        } catch {
            // It rethrows untyped; `body` throws nothing but `Failure`.
            throw error as! Failure
        }
    }

    /// The object, as a strong reference of the caller's own (a retain, unless the optimizer
    /// proves it needless): for uses that outlive one call, or that are not on a hot path.
    @inlinable @inline(__always)
    var object: Object { rawValue.takeUnretainedValue() }

    /// Whether this is a reference to `object`, compared by address (no retain).
    @inline(__always)
    func refers(to object: Object) -> Bool { rawValue.toOpaque() == Unretained(object).rawValue.toOpaque() }

    // MARK: As an address

    /// The object's address: the context pointer of a C callback (`pthread_create`, a pthread
    /// key's value), which `init(opaque:)` turns back, or where its stored fields start
    /// (`ObjectFields`).
    var opaque: UnsafeMutableRawPointer { rawValue.toOpaque() }

    /// The reference that `opaque` gave: `pointer` must be one, of an `Object`.
    init(opaque pointer: UnsafeRawPointer) { rawValue = .fromOpaque(pointer) }

    /// The object's address as a number: stored in a word with other bits
    /// (`SlotOwner.word`), turned back by `init(address:)`.
    var address: UInt { UInt(bitPattern: opaque) }

    /// The reference that `address` gave: `address` must be one, of an `Object`.
    init(address: UInt) { rawValue = .fromOpaque(UnsafeRawPointer(bitPattern: address)!) }

    /// The object, taking over the retain that `retained(_:)` took (the holder gives it up).
    func takeRetained() -> Object { rawValue.takeRetainedValue() }
}

// Stored in atomics (a record's injection route, a parent's child routes, the recent plans)
// through the standard library's conformances of the raw value.
extension Unretained: RawRepresentable, AtomicRepresentable, AtomicOptionalRepresentable {}

extension Unretained: Sendable where Object: Sendable {}
