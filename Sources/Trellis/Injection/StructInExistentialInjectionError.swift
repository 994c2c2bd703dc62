/// The underlying error of `creationFailed` when a definition declared with an existential type
/// (`any P`, `Any`) or as an optional (`{ Optional(Form()) }`) makes a struct that has `@Inject`
/// properties.
public struct StructInExistentialInjectionError: Error, CustomStringConvertible, Sendable {
    /// The struct's type name.
    public let type: String
    /// The definition's key.
    let key: String
    /// The definition is declared as an optional of the struct, not as an existential.
    let isOptional: Bool

    /// What happened and what to do.
    public var description: String {
        let declared = isOptional ? "an optional (`Optional(\(shortTypeName)())`)" : "an existential"
        return "\(type) has @Inject properties but definition '\(key)' returns it as \(declared), so it cannot be injected in place. Return the struct itself from the definition's closure (`{ \(shortTypeName)() }`), so that it is declared with the struct's own type, or make it a class."
    }

    private var shortTypeName: Substring { type.split(separator: ".").last ?? "" }
}
