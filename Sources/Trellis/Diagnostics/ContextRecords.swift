/// A dependency recorded while an object was made: definition `from` of a context looked up
/// definition `to` of the context `depth` levels up its parent chain (0: itself).
struct Edge: Hashable, Sendable {
    let from: Int
    let depth: Int
    let to: Int
    /// The injected property's name, or `nil` for a closure lookup.
    let label: String?
}

/// What a context records about itself for diagnostics: dependency edges and the start-up log.
/// Written on creation paths only (never on the lookup of a made object).
final class ContextRecords: Sendable {
    private struct State {
        var edges: [Edge] = []
        var seen: Set<Edge> = []
        var startup: [StartupReport.Entry] = []
        /// Whether a prototype's objects are of a queried type (lookup by type).
        var kinds: [KindKey: Bool] = [:]
    }

    private struct KindKey: Hashable {
        let definition: Int
        let type: ObjectIdentifier
    }

    private let state = Locked(State())

    func record(_ edge: Edge) {
        state.withLock { state in
            if state.seen.insert(edge).inserted { state.edges.append(edge) }
        }
    }

    func appendStartup(_ entries: [StartupReport.Entry]) {
        state.withLock { $0.startup.append(contentsOf: entries) }
    }

    func kind(of definition: Int, is type: ObjectIdentifier) -> Bool? {
        state.withLock { $0.kinds[KindKey(definition: definition, type: type)] }
    }

    func rememberKind(of definition: Int, is type: ObjectIdentifier, _ matches: Bool) {
        state.withLock { $0.kinds[KindKey(definition: definition, type: type)] = matches }
    }

    var edges: [Edge] { state.withLock { $0.edges } }
    var startup: [StartupReport.Entry] { state.withLock { $0.startup } }
}

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

/// Collects the problems `validate()` finds instead of stopping at the first.
final class ProblemCollector {
    private(set) var findings: [ValidationReport.Finding] = []
    private var seen: Set<String> = []

    /// Keeps the first report of each root cause: a missing key reached through three
    /// definitions is one problem, reported where it was first found.
    func add(_ problem: ContextError, foundIn definition: String) {
        if seen.insert(problem.rootCause).inserted {
            findings.append(ValidationReport.Finding(definition: definition, problem: problem))
        }
    }
}
