/// The contexts this task (or thread) is closing right now: a `close()` of one of them from
/// inside its own disposals returns at once instead of waiting for itself.
enum ClosingScope {
    @TaskLocal static var contexts: [ObjectIdentifier] = []

    static func contains(_ context: ApplicationContext) -> Bool {
        contexts.contains(ObjectIdentifier(context))
    }
}
