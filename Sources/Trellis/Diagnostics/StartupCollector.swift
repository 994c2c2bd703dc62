/// Collects, on one thread, what an eager singleton pulls in while the context starts.
final class StartupCollector {
    private(set) var pulledIn: [String] = []
    /// The stack depth at which the eager singleton itself is made.
    private let depth: Int

    init(depth: Int) { self.depth = depth }

    /// What was pulled in since the last call; the collector starts over.
    func takePulledIn() -> [String] {
        defer { pulledIn = [] }
        return pulledIn
    }

    func madeWhileStarting(_ key: String, in context: ApplicationContext, depth: Int) {
        // The eager singleton itself is not "pulled in"; what was made above it is.
        if depth > self.depth { pulledIn.append("\(context.name).\(key)") }
    }
}
