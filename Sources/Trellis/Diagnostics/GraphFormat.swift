/// The text format of ``ApplicationContext/graph(_:)``.
public enum GraphFormat: Sendable, Hashable {
    /// Graphviz DOT: render with `dot -Tpng graph.dot -o graph.png`.
    case dot
    /// A Mermaid `flowchart`, for Markdown that renders Mermaid blocks.
    case mermaid
}
