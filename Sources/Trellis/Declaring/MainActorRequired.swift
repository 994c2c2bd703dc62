/// The underlying error of `creationFailed` when a main-actor definition is asked to make its
/// object on another thread.
public struct MainActorRequired: Error, CustomStringConvertible, Sendable {
    /// The key of the main-actor definition.
    public let key: String

    /// What happened and what to do.
    public var description: String {
        "'\(key)' is a main-actor definition and was asked for off the main actor. Look it up (or start the context, if it is eager) from main-actor code first; once made, a singleton is returned to any thread"
    }

    /// Wraps a main-actor closure in one that runs it synchronously when called on the main
    /// actor and throws `MainActorRequired` otherwise.
    static func guarding<Object>(_ key: String, _ make: @escaping @MainActor @Sendable (Resolver) throws -> Object) -> @Sendable (Resolver) throws -> Object {
        return { resolver in
            guard let made = try MainActorCall.ifOnMainActor({ try make(resolver) }) else {
                throw MainActorRequired(key: key)
            }
            return made
        }
    }
}
