/// `Optional`, seen without its wrapped type: what an `@Inject` property of optional type needs
/// to read `nil` when nothing answers to its key.
protocol OptionalProtocol {
    static var none: Self { get }
    static var wrappedType: Any.Type { get }
}

extension OptionalProtocol {
    /// `none`, as `Value`, which must be this type.
    static func none<Value>(as type: Value.Type) -> Value {
        unsafeBitCast(Self.none, to: Value.self)
    }
}

extension Optional: OptionalProtocol {
    static var wrappedType: Any.Type { Wrapped.self }
}
