#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a cast that failed because a conformance is isolated to a global actor (SE-0470) from
/// one that failed because there is no conformance.
///
/// In a module built with default main-actor isolation (a new app target), `final class Undo:
/// Disposable` conforms on the main actor only: `undo as? any Disposable` succeeds there and
/// returns `nil` anywhere else. A context that casts off the main actor would take such an object
/// for one that does not conform at all, and skip its `dispose()` without a word (it did, until
/// this check). Where a cast fails, the context asks here whether the conformance exists with an
/// isolation the caller lacks, and then hops to the main actor (an awaited `close`, an async
/// injection's `didInject`) or throws an error that names the key and the fix; never skips.
///
/// The language has no API for the question, so the runtime's is used. What it relies on, and
/// what breaks if it changes:
/// - `swift_conformsToProtocolWithExecutionContext(type, protocol, context)` (exported by the
///   Swift 6.2 runtime) finds a conformance whatever its isolation and records the isolation in
///   `context`; `swift_isInConformanceExecutionContext(type, context)` says whether the caller
///   may use it (what a cast checks). Both are looked up by name at run time, so a runtime
///   without them (one older than isolated conformances, where every cast succeeds everywhere)
///   simply answers `false`. `swift_ConformanceExecutionContextSize` gives the context's size.
/// - An existential type's metadata (kind `0x303`) lists its protocols: the layout of
///   `TargetExistentialTypeMetadata` (kind word; 32-bit flags with bit 30 for a superclass
///   constraint; 32-bit protocol count; the superclass if any; one pointer per protocol, the
///   low bit marking an Objective-C protocol, which cannot be isolated). If the layout changed,
///   the kind check fails first and the answer is `false`: casts then behave as the language
///   defines them, and only the isolated case loses its diagnosis (the tests in
///   `TrellisMainActorTests` would show it).
enum IsolatedConformance {
    private typealias ConformsWithContext = @convention(c) (UnsafeRawPointer, UnsafeRawPointer, UnsafeMutableRawPointer) -> UnsafeRawPointer?
    private typealias IsInContext = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> Bool

    private struct Runtime: @unchecked Sendable {
        // Safe: function pointers into the runtime and a size, written once by the initialiser
        // of a `static let` (which the language runs once, thread-safely) and only read after.
        let conforms: ConformsWithContext
        let isInContext: IsInContext
        let contextSize: Int
    }

    private static let runtime: Runtime? = {
        guard let handle = dlopen(nil, RTLD_NOW),
              let conforms = dlsym(handle, "swift_conformsToProtocolWithExecutionContext"),
              let isInContext = dlsym(handle, "swift_isInConformanceExecutionContext"),
              let size = dlsym(handle, "swift_ConformanceExecutionContextSize") else { return nil }
        return Runtime(
            conforms: unsafeBitCast(conforms, to: ConformsWithContext.self),
            isInContext: unsafeBitCast(isInContext, to: IsInContext.self),
            contextSize: size.load(as: Int.self)
        )
    }()

    /// Whether `value` would be an `Existential` (for example `any Disposable`) if the caller ran
    /// on the actor its conformances are isolated to: every protocol of `Existential` is
    /// conformed to, and at least one conformance is isolated to an actor the caller is not on.
    /// `false` when the cast would succeed here, or could succeed nowhere.
    static func isolates<Existential>(_ value: Any, from _: Existential.Type) -> Bool {
        isolates(type(of: value), from: Existential.self)
    }

    /// `isolates(_:from:)` for a type rather than a value.
    static func isolates<Existential>(_ type: Any.Type, from _: Existential.Type) -> Bool {
        conformance(of: type, to: Existential.self) == .isolatedElsewhere
    }

    /// Whether `type` conforms to every protocol of `Existential` with a conformance isolated to a
    /// global actor, wherever the caller runs.
    ///
    /// Needed for class-bound protocols (`InjectionAware: AnyObject`): the runtime's cast to a
    /// class-bound existential does not check isolation (seen with Swift 6.3), so it succeeds off
    /// the main actor and would let the context call a main-actor method there. The first word
    /// of the runtime's conformance execution context is the global actor's type, set only for
    /// an isolated conformance.
    static func isIsolated<Existential>(_ type: Any.Type, to _: Existential.Type) -> Bool {
        conformance(of: type, to: Existential.self, readingIsolation: true) == .isolatedElsewhere
    }

    private enum Conformance: Equatable {
        case none
        case usableHere
        case isolatedElsewhere
    }

    /// How `type` conforms to every protocol of `Existential`; with `readingIsolation`, a
    /// conformance isolated to a global actor counts as `isolatedElsewhere` even where it is
    /// usable.
    private static func conformance<Existential>(of type: Any.Type, to _: Existential.Type, readingIsolation: Bool = false) -> Conformance {
        guard let runtime else { return .none }
        let protocols = protocolDescriptors(of: Existential.self)
        guard !protocols.isEmpty else { return .none }
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let size = max(runtime.contextSize, MemoryLayout<UInt>.size * 2)
        let context = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<UInt>.alignment)
        defer { context.deallocate() }
        var result = Conformance.usableHere
        for descriptor in protocols {
            context.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            guard runtime.conforms(metadata, descriptor, context) != nil else { return .none }
            let isolated = readingIsolation ? context.load(as: UInt.self) != 0 : !runtime.isInContext(metadata, context)
            if isolated { result = .isolatedElsewhere }
        }
        return result
    }

    /// The Swift protocols of an existential type, empty for any other type.
    private static func protocolDescriptors(of existential: Any.Type) -> [UnsafeRawPointer] {
        let metadata = unsafeBitCast(existential, to: UnsafeRawPointer.self)
        guard metadata.load(as: UInt.self) == 0x303 else { return [] }
        let word = MemoryLayout<UInt>.size
        let flags = metadata.load(fromByteOffset: word, as: UInt32.self)
        let count = Int(metadata.load(fromByteOffset: word + 4, as: UInt32.self))
        let first = word + 8 + (flags & 0x4000_0000 != 0 ? word : 0)
        return (0..<count).compactMap { position in
            let reference = metadata.load(fromByteOffset: first + position * word, as: UInt.self)
            // An Objective-C protocol (low bit set) has no isolated conformances.
            return reference & 1 == 0 ? UnsafeRawPointer(bitPattern: reference) : nil
        }
    }
}
