/// A context's definitions and recorded dependencies, laid out for rendering.
///
/// Nodes are `c<depth>_<index>` (depth 0 is the context asked, 1 its parent, …), so ids stay
/// valid in both formats whatever the keys contain; keys appear as labels.
struct Graph {
    struct Node {
        let id: String
        let key: String
        let scope: Scope
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
    }

    let name: String
    let clusters: [Cluster]
    let links: [Link]

    init(_ context: ApplicationContext) {
        let contexts = Array(context.chain)
        name = context.name
        clusters = contexts.enumerated().map { depth, context in
            Cluster(id: "c\(depth)", name: context.name, nodes: context.configuration.definitions.enumerated().map { index, definition in
                Node(id: "c\(depth)_\(index)", key: definition.key, scope: definition.scope)
            })
        }
        var links: [Link] = []
        var seen = Set<Link>()
        for (depth, context) in contexts.enumerated() {
            for edge in context.journal.edges {
                let link = Link(from: "c\(depth)_\(edge.from)", to: "c\(depth + edge.levels)_\(edge.to)", label: edge.labelName)
                if seen.insert(link).inserted { links.append(link) }
            }
        }
        self.links = links
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
                lines.append("    \(node.id) [label=\(Self.dotQuoted(node.key)), \(Self.dotStyle(node.scope))];")
            }
            lines.append("  }")
        }
        for link in links {
            let label = link.label.map { " [label=\(Self.dotQuoted($0))]" } ?? ""
            lines.append("  \(link.from) -> \(link.to)\(label);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func mermaid() -> String {
        var lines = ["flowchart LR"]
        for cluster in clusters {
            lines.append("  subgraph \(cluster.id)[\(Self.mermaidQuoted(cluster.name))]")
            for node in cluster.nodes {
                let label = Self.mermaidQuoted(node.key)
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
            if let label = link.label {
                lines.append("  \(link.from) -->|\(Self.mermaidQuoted(label))| \(link.to)")
            } else {
                lines.append("  \(link.from) --> \(link.to)")
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

extension ApplicationContext {
    /// The definitions of this context and its parents, and every dependency recorded when
    /// objects were made (closure lookups; injected properties, labelled with the property).
    ///
    /// Nodes are styled by scope, parent contexts are clusters (DOT) or subgraphs (Mermaid).
    /// Only edges of objects made so far are known: after ``validate()`` the report's
    /// ``ValidationReport/graph(_:)`` is complete.
    public func graph(_ format: GraphFormat = .dot) -> String {
        Graph(self).render(format)
    }
}
