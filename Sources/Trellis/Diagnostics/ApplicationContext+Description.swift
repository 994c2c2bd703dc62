extension ApplicationContext: CustomStringConvertible {
    /// A table of this context's own definitions (key, scope, aliases — explicit first, then
    /// generated —, declared type, whether it is made; for a weak singleton, whether it is alive), then one line per ancestor context with
    /// its name and number of definitions. ``description(includingParents:)`` lists the whole
    /// chain.
    public var description: String { description(includingParents: false) }

    /// The description table; with `includingParents`, every ancestor's definitions are rows too.
    public func description(includingParents: Bool) -> String {
        var rows = [["key", "scope", "aliases", "type", "made", "context"]]
        for context in includingParents ? Array(chain) : [self] {
            context.appendRows(to: &rows)
        }
        var text = TextTable.render(rows)
        if !includingParents {
            for ancestor in chain.dropFirst() {
                text += "\nparent '\(ancestor.name)': \(ancestor.count) definition\(ancestor.count == 1 ? "" : "s") (description(includingParents: true) lists them)"
            }
        }
        return text
    }

    /// One row per definition, in one pass over the aliases (linear in the context's size).
    private func appendRows(to rows: inout [[String]]) {
        var explicit = Array(repeating: [String](), count: count)
        var generated = Array(repeating: [String](), count: count)
        for alias in configuration.table.allAliases() {
            if alias.kind == .generatedAlias {
                generated[alias.definition].append(alias.name)
            } else {
                explicit[alias.definition].append(alias.name)
            }
        }
        for (index, definition) in configuration.definitions.enumerated() {
            let made = switch definition.scope {
            case .prototype: "-"
            case .weak: SingletonSlot(self, index).isAlive() ? "alive" : "not alive"
            default: isMade(index) ? "yes" : "no"
            }
            rows.append([definition.key, definition.scope.description, (explicit[index] + generated[index]).joined(separator: ", "),
                         String(describing: definition.objectType), made, name])
        }
    }
}
