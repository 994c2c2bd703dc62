@_spi(Reflection) import Swift
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every use of the Swift runtime's underscored or unexported API, in one place: why each is
/// needed, and what breaks if it changes. Nothing else in the library calls such API, but for
/// the guaranteed-reference call of `Unretained.with(_:)`, kept beside the type it serves.
///
/// - `_forEachField(of:options:body:)` (`forEachStoredField`, SPI `Reflection` of the standard library): the stored properties of a type, with
///   offsets. `@Inject` finds its properties by them (the language has no other reflection that
///   gives offsets). If it stopped reporting a type's fields, no property of that type would be
///   injected and every `@Inject` test fails.
/// - `_typeByName(_:)` (`type(named:)`): the type that declares a property, to learn the
///   property's name for an error message. If it stopped resolving names, messages name the
///   property by file and line only (`InjectReflectionTests` shows it).
/// - `_getSuperclass(_:)` (`superclass(of:)`): tells a class's own `@Inject` properties from
///   inherited ones, for the same messages.
/// - `_typeName(_:qualified:)` (`unqualifiedName(of:)`): a type's name as `String(describing:)`
///   writes it, at a fraction of the cost (every context made per request names itself after
///   its factory). If its spelling changed, context names in messages would change
///   (`TypeNameTests`).
/// - `String._nfcCodeUnits` (`nfcCodeUnits(of:)`): Unicode normalisation form C, so names that
///   are equal as Swift strings are one key. If it went away, non-ASCII keys would compare by
///   their bytes (`NameEquivalenceTests`).
/// - `swift_conformsToProtocolWithExecutionContext`, `swift_isInConformanceExecutionContext`,
///   `swift_ConformanceExecutionContextSize` (`conformance(of:to:readingIsolation:)`), exported by
///   the Swift 6.2 runtime and looked up by name at run time: a runtime without them (older than
///   isolated conformances, where every cast succeeds everywhere) answers `.none`, and only the
///   diagnosis of isolated conformances is lost (`TrellisMainActorTests` show it).
/// - The layout of an existential type's metadata (kind `0x303`; `TargetExistentialTypeMetadata`:
///   kind word, 32-bit flags with bit 30 for a superclass constraint, 32-bit protocol count, the
///   superclass if any, one pointer per protocol, the low bit marking an Objective-C protocol).
///   If it changed, the kind check fails first and the answer is `.none`.
/// - The layout of a small string on a 64-bit little-endian platform (`smallASCII(_:)`): two
///   words, the UTF-8 bytes in order from the first, the last byte the discriminator (high nibble
///   `0xE` for a small ASCII string) and the count. A name's hash reads them instead of the
///   string's storage (which cost a quarter of a made singleton's lookup by name). The layout
///   is the standard library's ABI on Apple platforms and the same code on Linux; if it changed,
///   the discriminator would no longer match (the general path is taken), or the hashes would
///   differ from the general path's and a key would not be found by a name held in another
///   form, which `FoldedHashTests` checks name by name.
@usableFromInline
enum Runtime {
    /// Calls `body` with the name, offset and type of every stored property of `type` (a class's
    /// inherited ones included); `false` for a kind of type without fields (enum, tuple, …).
    static func forEachStoredField(of type: Any.Type, _ body: (UnsafePointer<CChar>, Int, Any.Type) -> Void) -> Bool {
        // `_EachFieldOptions.classType` (raw value 1) visits class instances, superclass fields
        // included (the static property itself is not concurrency-safe to reference).
        let options = _EachFieldOptions(rawValue: type is AnyObject.Type ? 1 : 0)
        return _forEachField(of: type, options: options) { name, offset, fieldType, _ in
            body(name, offset, fieldType)
            return true
        }
    }

    /// The type the runtime knows by `name` (qualified, or mangled).
    static func type(named name: String) -> Any.Type? { _typeByName(name) }

    /// The superclass of `someClass`, if any.
    static func superclass(of someClass: AnyClass) -> AnyClass? { _getSuperclass(someClass) }

    /// `T`'s name as `String(describing:)` writes it, except that a private type's name carries
    /// its discriminator (`TypeName` removes it). Inlinable: where `T` is known, the compiler
    /// folds it into a constant.
    @inlinable
    @inline(__always)
    static func unqualifiedName<T>(of _: T.Type) -> String { _typeName(T.self, qualified: false) }

    /// The count and the two words of `name` if it is a small ASCII string held inline (at most
    /// 15 bytes), the discriminator byte cleared; `nil` for any other string or platform.
    @inline(__always)
    static func smallASCII(_ name: String) -> (count: Int, low: UInt64, high: UInt64)? {
        #if _pointerBitWidth(_64) && _endian(little)
        let (low, high) = unsafeBitCast(name, to: (UInt64, UInt64).self)
        let discriminator = high &>> 56
        guard discriminator & 0xF0 == 0xE0 else { return nil }
        return (Int(discriminator & 0x0F), low, high & 0x00FF_FFFF_FFFF_FFFF)
        #else
        return nil
        #endif
    }

    /// `name`'s UTF-8 code units in Unicode normalisation form C.
    static func nfcCodeUnits(of name: String) -> [UInt8] { Array(name._nfcCodeUnits) }

    // MARK: Isolated conformances

    /// How a type conforms to every protocol of an existential.
    enum Conformance: Equatable {
        case none
        case usableHere
        case isolatedElsewhere
    }

    /// The global actor a type's conformances to an existential's protocols are isolated to.
    enum ConformanceIsolation: Equatable {
        /// No conformance, or one usable on any actor.
        case none
        case mainActor
        /// A global actor other than the main actor (a conformance the context cannot use).
        case otherGlobalActor
    }

    /// How `type` conforms to every protocol of `Existential`; with `readingIsolation`, a
    /// conformance isolated to a global actor counts as `isolatedElsewhere` even where it is
    /// usable.
    static func conformance<Existential>(of type: Any.Type, to _: Existential.Type, readingIsolation: Bool = false) -> Conformance {
        var result = Conformance.usableHere
        let conforms = forEachConformance(of: type, to: Existential.self) { isolatingActor, isUsableHere in
            if readingIsolation ? isolatingActor != 0 : !isUsableHere() { result = .isolatedElsewhere }
        }
        return conforms ? result : .none
    }

    /// Which global actor `type`'s conformances to `Existential`'s protocols are isolated to,
    /// wherever the caller runs; `.none` when `type` does not conform, no conformance is
    /// isolated, or the runtime cannot say.
    static func isolation<Existential>(of type: Any.Type, to _: Existential.Type) -> ConformanceIsolation {
        let mainActor = UInt(bitPattern: ObjectIdentifier(MainActor.self))
        var result = ConformanceIsolation.none
        let conforms = forEachConformance(of: type, to: Existential.self) { isolatingActor, _ in
            if isolatingActor == 0 { return }
            if isolatingActor != mainActor { result = .otherGlobalActor } else if result == .none { result = .mainActor }
        }
        return conforms ? result : .none
    }

    /// Calls `body` for `type`'s conformance to each protocol of `Existential` with the first
    /// word of the runtime's conformance execution context (the global actor's type, set only
    /// for an isolated conformance; `0` otherwise) and whether the conformance is usable where
    /// the caller runs; `false` (after calling it for fewer) when one protocol is not conformed
    /// to, or the runtime's functions are missing.
    private static func forEachConformance<Existential>(of type: Any.Type, to _: Existential.Type, _ body: (_ isolatingActor: UInt, _ isUsableHere: () -> Bool) -> Void) -> Bool {
        guard let functions = conformanceFunctions else { return false }
        let protocols = protocolDescriptors(of: Existential.self)
        guard !protocols.isEmpty else { return false }
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let size = max(functions.contextSize, MemoryLayout<UInt>.size * 2)
        let context = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<UInt>.alignment)
        defer { context.deallocate() }
        for descriptor in protocols {
            context.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            guard functions.conforms(metadata, descriptor, context) != nil else { return false }
            body(context.load(as: UInt.self), { functions.isInContext(metadata, context) })
        }
        return true
    }

    private typealias ConformsWithContext = @convention(c) (UnsafeRawPointer, UnsafeRawPointer, UnsafeMutableRawPointer) -> UnsafeRawPointer?
    private typealias IsInContext = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> Bool

    private struct ConformanceFunctions: @unchecked Sendable {
        // Safe: function pointers into the runtime and a size, written once by the initialiser
        // of a `static let` (which the language runs once, thread-safely) and only read after.
        let conforms: ConformsWithContext
        let isInContext: IsInContext
        let contextSize: Int
    }

    private static let conformanceFunctions: ConformanceFunctions? = {
        guard let handle = dlopen(nil, RTLD_NOW),
              let conforms = dlsym(handle, "swift_conformsToProtocolWithExecutionContext"),
              let isInContext = dlsym(handle, "swift_isInConformanceExecutionContext"),
              let size = dlsym(handle, "swift_ConformanceExecutionContextSize") else { return nil }
        return ConformanceFunctions(
            conforms: unsafeBitCast(conforms, to: ConformsWithContext.self),
            isInContext: unsafeBitCast(isInContext, to: IsInContext.self),
            contextSize: size.load(as: Int.self)
        )
    }()

    /// Whether `type` is an existential (`any P`, `any P & Q`, `any Base & P`, `Any`): kind
    /// `0x303`.
    static func isExistential(_ type: Any.Type) -> Bool {
        metadataKind(of: type) == 0x303
    }

    /// Whether `type` is a struct or an enum (an optional included): kinds `0x200`–`0x202`. A value
    /// of such a type has that type as its dynamic type, where the dynamic type of a value of an
    /// existential type (`any P`, `Any`, `any Collection<Int>`) is whatever it holds.
    static func isStructOrEnum(_ type: Any.Type) -> Bool {
        (0x200...0x202).contains(metadataKind(of: type))
    }

    /// Whether `type` is an `Optional`: kind `0x202`. Cheap where a cast of the metatype to a
    /// protocol asks the runtime's conformance cache (a configuration checks every definition).
    static func isOptional(_ type: Any.Type) -> Bool {
        metadataKind(of: type) == 0x202
    }

    /// The first word of `type`'s metadata: its kind (`MetadataKind.def` in the Swift runtime), or
    /// for a class its isa pointer, larger than any kind.
    private static func metadataKind(of type: Any.Type) -> UInt {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self)
    }

    /// The Swift protocols of an existential type, empty for any other type.
    private static func protocolDescriptors(of existential: Any.Type) -> [UnsafeRawPointer] {
        guard isExistential(existential) else { return [] }
        let metadata = unsafeBitCast(existential, to: UnsafeRawPointer.self)
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
