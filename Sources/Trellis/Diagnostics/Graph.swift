/// A context's definitions and recorded dependencies, laid out for rendering.
///
/// Nodes are `c<depth>_<index>` (depth 0 is the context asked, 1 its parent, …), so ids stay
/// valid in both formats whatever the keys contain; keys appear as labels.
struct Graph {
    struct Node {
        let id: String
        let key: String
        let scope: Scope
        /// How long its making took when its context started (eager singletons of a started
        /// context).
        var duration: Duration?

        /// The key, and the duration when known: `server (12.345 ms)`.
        var label: String {
            guard let duration else { return key }
            return "\(key) (\(StartupReport.milliseconds(duration)) ms)"
        }
    }

    struct Cluster {
        let id: String
        let name: String
        let nodes: [Node]
    }

    struct Link: Hashable {
        let from: String
        let to: String
        let label: String?
        /// On the critical path of its context's start.
        var isCritical = false
    }

    let name: String
    let clusters: [Cluster]
    let links: [Link]

    init(_ context: ApplicationContext) {
        let contexts = Array(context.chain)
        name = context.name
        let reports = contexts.map(\.startupReport)
        clusters = contexts.enumerated().map { depth, context in
            let durations = Dictionary(reports[depth].entries.map { ($0.key, $0.duration) }, uniquingKeysWith: { first, _ in first })
            return Cluster(id: "c\(depth)", name: context.name, nodes: context.configuration.definitions.enumerated().map { index, definition in
                Node(id: "c\(depth)_\(index)", key: definition.key, scope: definition.scope, duration: durations[definition.key])
            })
        }
        // Each start's critical path, as the pairs (dependent, dependency) of its edges.
        var critical = Set<[String]>()
        for (depth, report) in reports.enumerated() {
            let ids = report.criticalPath.compactMap { Self.nodeID(of: $0, from: depth, in: contexts) }
            guard ids.count == report.criticalPath.count, ids.count > 1 else { continue }
            for position in 1..<ids.count { critical.insert([ids[position], ids[position - 1]]) }
        }
        var links: [Link] = []
        var seen = Set<Link>()
        for (depth, context) in contexts.enumerated() {
            for edge in context.journal.edges {
                var link = Link(from: "c\(depth)_\(edge.from)", to: "c\(depth + edge.levels)_\(edge.to)", label: edge.labelName)
                link.isCritical = critical.contains([link.from, link.to])
                if seen.insert(link).inserted { links.append(link) }
            }
        }
        self.links = links
    }

    /// The node of a critical-path entry of the context at `depth`: one of its keys, or
    /// `Context.key` of an ancestor.
    private static func nodeID(of name: String, from depth: Int, in contexts: [ApplicationContext]) -> String? {
        if let index = contexts[depth].configuration.table.definition(withKey: name) { return "c\(depth)_\(index)" }
        for ancestor in contexts.indices.dropFirst(depth + 1) {
            let prefix = contexts[ancestor].name + "."
            guard name.hasPrefix(prefix), let index = contexts[ancestor].configuration.table.definition(withKey: String(name.dropFirst(prefix.count))) else { continue }
            return "c\(ancestor)_\(index)"
        }
        return nil
    }

    func render(_ format: GraphFormat) -> String {
        switch format {
        case .dot: dot()
        case .mermaid: mermaid()
        }
    }

    private func dot() -> String {
        var lines = ["digraph \(Self.dotQuoted(name)) {", "  rankdir=LR;", "  node [fontname=\"Helvetica\"];", "  edge [fontname=\"Helvetica\", fontsize=10];"]
        for cluster in clusters {
            lines.append("  subgraph cluster_\(cluster.id) {")
            lines.append("    label=\(Self.dotQuoted(cluster.name));")
            for node in cluster.nodes {
                lines.append("    \(node.id) [label=\(Self.dotQuoted(node.label)), \(Self.dotStyle(node.scope))];")
            }
            lines.append("  }")
        }
        for link in links {
            // The critical path of a start: bold and thicker.
            let attributes = (link.label.map { ["label=\(Self.dotQuoted($0))"] } ?? []) + (link.isCritical ? ["style=bold", "penwidth=2.5"] : [])
            let list = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
            lines.append("  \(link.from) -> \(link.to)\(list);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func mermaid() -> String {
        var lines = ["flowchart LR"]
        for cluster in clusters {
            lines.append("  subgraph \(cluster.id)[\(Self.mermaidQuoted(cluster.name))]")
            for node in cluster.nodes {
                let label = Self.mermaidQuoted(node.label)
                switch node.scope {
                case .eagerSingleton: lines.append("    \(node.id)[[\(label)]]")
                case .singleton: lines.append("    \(node.id)[\(label)]")
                case .prototype: lines.append("    \(node.id)(\(label))")
                case .weak: lines.append("    \(node.id)[/\(label)/]")
                }
            }
            lines.append("  end")
        }
        for link in links {
            // The critical path of a start: a thick link.
            let arrow = link.isCritical ? "==>" : "-->"
            if let label = link.label {
                lines.append("  \(link.from) \(arrow)|\(Self.mermaidQuoted(label))| \(link.to)")
            } else {
                lines.append("  \(link.from) \(arrow) \(link.to)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Scope as shape: singletons boxes (eager ones bold and filled, weak ones dotted), prototypes
    /// dashed ellipses.
    private static func dotStyle(_ scope: Scope) -> String {
        switch scope {
        case .eagerSingleton: "shape=box, style=\"bold,filled\", fillcolor=\"#dbe9f6\""
        case .singleton: "shape=box"
        case .prototype: "shape=ellipse, style=dashed"
        case .weak: "shape=box, style=dotted"
        }
    }

    private static func dotQuoted(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    private static func mermaidQuoted(_ text: String) -> String {
        "\"" + text.replacingAll("\"", with: "#quot;") + "\""
    }
}

extension String {
    /// Every occurrence of `target` replaced (the standard library has no such method without
    /// Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
