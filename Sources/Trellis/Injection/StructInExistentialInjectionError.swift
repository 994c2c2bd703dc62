/// The underlying error of `creationFailed` when a definition declared with an existential type
/// (`any P`, `Any`) makes a struct that has `@Inject` properties.
public struct StructInExistentialInjectionError: Error, CustomStringConvertible, Sendable {
    /// The struct's type name.
    public let type: String

    /// What happened and what to do.
    public var description: String {
        "\(type) has @Inject properties but its definition returns it as an existential, so it cannot be injected in place. Declare the definition with the struct's own type (`createPrototype(\"key\") { \(type.split(separator: ".").last ?? "")() }`), or make it a class."
    }
}
