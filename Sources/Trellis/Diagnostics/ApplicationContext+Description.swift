extension ApplicationContext: CustomStringConvertible {
    /// A table of every definition of this context and its parents: key, scope, aliases (explicit
    /// first, then generated), declared type, whether it is made, and the owning context.
    public var description: String {
        var rows = [["key", "scope", "aliases", "type", "made", "context"]]
        for context in chain {
            let aliases = context.configuration.table.allAliases()
            for (index, definition) in context.configuration.definitions.enumerated() {
                let mine = aliases.filter { $0.definition == index }
                let names = mine.filter { $0.kind == .explicitAlias }.map(\.name) + mine.filter { $0.kind == .generatedAlias }.map(\.name)
                let made: String
                switch definition.scope {
                case .prototype: made = "-"
                default: made = context.isMade(index) ? "yes" : "no"
                }
                rows.append([definition.key, definition.scope.description, names.joined(separator: ", "),
                             String(describing: definition.objectType), made, context.name])
            }
        }
        return TextTable.render(rows)
    }
}
