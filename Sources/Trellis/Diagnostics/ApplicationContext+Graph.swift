extension ApplicationContext {
    /// The definitions of this context and its parents, and every dependency recorded when
    /// objects were made (closure lookups, `dependsOn`; injected properties, labelled with the
    /// property).
    ///
    /// Nodes are styled by scope, parent contexts are clusters (DOT) or subgraphs (Mermaid). For
    /// a started context, each eager singleton's label carries how long its making took, and the
    /// edges of the start's ``StartupReport/criticalPath`` are drawn bold (DOT) or thick
    /// (Mermaid).
    /// Only edges of objects made so far are known: after ``validate()-3s3no`` the report's
    /// ``ValidationReport/graph(_:)`` is complete.
    public func graph(_ format: GraphFormat = .dot) -> String {
        Graph(self).render(format)
    }
}
