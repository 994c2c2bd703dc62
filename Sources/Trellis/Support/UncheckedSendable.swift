/// Hands an object to the one piece of code that uses it next: a task or a main-actor call.
struct UncheckedSendable<Value>: @unchecked Sendable {
    // Safe: every use hands over an object that no other code can use meanwhile: objects the
    // context is dropping or disposing (a failed start, a closed context's singletons, one made
    // after close began), whose task or main-actor call is their last user; or an object being
    // injected, not yet published, whose `didInject` the sender awaits on the main actor before it
    // touches the object again.
    let value: Value
    init(_ value: Value) { self.value = value }
}
