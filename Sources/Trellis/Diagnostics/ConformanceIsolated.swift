/// The underlying error when a context needed an object's conformance to one of its protocols
/// (``InjectionAware``, ``Disposable``, ``AsyncDisposable``) where that conformance cannot be used:
/// it is isolated to a global actor (SE-0470) and the context ran elsewhere.
///
/// In a module built with default main-actor isolation, `final class Editor: InjectionAware`
/// conforms on the main actor only. The context calls `didInject` and `dispose()` there when it can
/// hop (an async lookup, an awaited `close`); a synchronous call off the main actor cannot, and
/// throws this instead of skipping the call. A conformance isolated to a global actor other than
/// the main actor cannot be reached at all.
public struct ConformanceIsolated: Error, CustomStringConvertible, Sendable, Equatable {
    /// The object's type.
    public let type: String
    /// The protocol whose conformance is isolated.
    public let protocolName: String
    /// The conformance is isolated to a global actor other than the main actor, which the
    /// context never runs on (it hops to the main actor only).
    let isOnAnotherActor: Bool

    init(type: String, protocolName: String, isOnAnotherActor: Bool = false) {
        self.type = type
        self.protocolName = protocolName
        self.isOnAnotherActor = isOnAnotherActor
    }

    /// What happened and what to do.
    public var description: String {
        if isOnAnotherActor {
            return "\(type) conforms to \(protocolName) only on a global actor other than the main actor, which the context cannot reach: it calls `dispose()` and `didInject` where it runs, or on the main actor by hopping there, never on another actor. Mark the conformance `nonisolated` (`extension \(type): nonisolated \(protocolName)`) and hop to the actor inside the method, or isolate the conformance to the main actor"
        }
        return "\(type) conforms to \(protocolName) only on the main actor: its conformance is isolated, as every conformance of a module built with default main-actor isolation is, and the context reached it elsewhere. Make the object with a main-actor definition (createMainActorSingleton …) from main-actor code, use the async form (`try await`), which hops to the main actor, or mark the conformance `nonisolated` (`extension \(type): nonisolated \(protocolName)`) if it needs no main-actor state"
    }
}
