/// The underlying error of `creationFailed` when a main-actor definition is asked to make its
/// object on another thread.
public struct MainActorRequired: Error, CustomStringConvertible, Sendable {
    /// The key of the main-actor definition.
    public let key: String

    /// What happened and what to do.
    public var description: String {
        "'\(key)' is a main-actor definition and was asked for off the main actor. Look it up from main-actor code or with `try await` (which hops to the main actor), or start the context there or with `try await` if it is eager; once made, a singleton is returned to any thread"
    }
}
