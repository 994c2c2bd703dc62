/// A dependency recorded while an object was made: definition `from` of a context looked up
/// definition `to` of the context `levels` up its parent chain (0: itself).
struct Edge: Hashable, Sendable {
    let from: Int
    let levels: Int
    let to: Int
    /// The injected property's name, or `nil` for a closure lookup.
    let label: String?
}

/// What a context records about itself: dependency edges (for the graph and the disposal
/// order), the start-up log, and what lookups by type found. Written on creation paths only
/// (never on the lookup of a made object); a short-lived context pays an append per edge.
final class ContextJournal: Sendable {
    private struct State {
        /// In the order recorded; duplicates are dropped when read.
        var edges: [Edge] = []
        var startup: [StartupReport.Entry] = []
        /// Whether a prototype's objects are of a queried type (lookup by type).
        var kinds: [KindKey: Bool] = [:]
        /// Per queried type: what `objects(of:)` found, once it can no longer change.
        var typeMatches: [ObjectIdentifier: Any] = [:]
    }

    private struct KindKey: Hashable {
        let definition: Int
        let type: ObjectIdentifier
    }

    private let state = Locked(State())

    func record(_ edge: Edge) {
        state.withLock { $0.edges.append(edge) }
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

    func typeMatches(for type: ObjectIdentifier) -> Any? {
        state.withLock { $0.typeMatches[type] }
    }

    func rememberTypeMatches(_ matches: Any, for type: ObjectIdentifier) {
        let replaced = state.withLock { state in
            defer { state.typeMatches[type] = matches }
            return state.typeMatches[type]
        }
        // Released after the lock: it may hold the last reference to nothing of the user's, but
        // nothing is released under a lock on principle.
        withExtendedLifetime(replaced) {}
    }

    /// Every distinct edge, in the order first recorded.
    var edges: [Edge] {
        let all = state.withLock { $0.edges }
        var seen = Set<Edge>()
        return all.filter { seen.insert($0).inserted }
    }

    var startup: [StartupReport.Entry] { state.withLock { $0.startup } }
}
