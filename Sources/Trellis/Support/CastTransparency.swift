/// Which types a dynamic cast looks past: a value of such a type can be cast to a type it is not
/// itself an instance of, so what it is cannot be told from its type alone.
enum CastTransparency {
    /// Whether a cast of a value of `type` may succeed through something it holds or bridges to:
    /// an optional through its wrapped value, an `AnyHashable` through its base, a type bridged
    /// to a class (`_ObjectiveCBridgeable`, `String` to `NSString` on Apple platforms) through
    /// that class.
    static func looksPast(_ type: Any.Type) -> Bool {
        type is any OptionalProtocol.Type || type == AnyHashable.self || type is any _ObjectiveCBridgeable.Type
    }

    /// Whether a cast of a value of `type` converts it element by element: an `Array`, a `Set`,
    /// a `Dictionary` (`[Dog]` is an `[any Animal]`). No other collection casts so.
    static func castsElements(_ type: Any.Type) -> Bool {
        let name = String(reflecting: type)
        guard let open = ["Swift.Array<", "Swift.Set<", "Swift.Dictionary<"].first(where: name.hasPrefix) else { return false }
        // The type itself, not one nested in it (`Dictionary<K, V>.Keys`, `Set<T>.Index`): its
        // generic arguments close the name.
        var depth = 0
        var previous: Character = " "
        for (offset, character) in name.dropFirst(open.count - 1).enumerated() {
            defer { previous = character }
            if character == "<" { depth += 1 }
            // A function type's arrow is not a bracket.
            if character == ">" && previous != "-" {
                depth -= 1
                if depth == 0 { return offset == name.count - open.count }
            }
        }
        return false
    }

    /// What a cast of `value` looks at: an optional's wrapped value (`nil` for an empty one:
    /// nothing to cast), an `AnyHashable`'s base, each unwrapped again; `value` itself otherwise.
    static func innermost(_ value: Any) -> Any? {
        let type = type(of: value)
        if type is any OptionalProtocol.Type, let optional = value as? any OptionalProtocol {
            return optional.wrappedAny.flatMap(innermost)
        }
        if type == AnyHashable.self, let hashable = value as? AnyHashable { return innermost(hashable.base) }
        return value
    }
}
