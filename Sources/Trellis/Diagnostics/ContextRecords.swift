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
