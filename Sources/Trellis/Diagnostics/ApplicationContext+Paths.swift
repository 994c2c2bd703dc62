extension ApplicationContext {
    /// How many of `path`'s first steps are surely this context's own definitions. A lookup
    /// from one of its definitions finds this context's definition of a name it has, and once a
    /// step is a parent's, so is every later one (a parent never looks into its children). But
    /// a path's names are bare: a name this context and a parent both answer to may be either
    /// (a parent's definition, reached by an alias, is named on the path by its key), so the
    /// count stops there too.
    func ownSteps(of path: [String]) -> Int {
        path.firstIndex { ownIndex(of: $0) == nil } ?? path.count
    }

    /// The index of this context's definition answering to `name`, if only this context of
    /// its chain answers to it.
    func ownIndex(of name: String) -> Int? {
        guard let index = configuration.table.definition(named: name), parent?.contains(name) != true else { return nil }
        return index
    }
}
