extension ApplicationContext {
    /// How many of `path`'s first steps are this context's own definitions (by key or alias).
    /// A lookup from one of its definitions finds this context's definition of a name it has;
    /// once a step is a parent's, so is every later one (a parent never looks into its
    /// children). A path's names are bare, so this is how a key on it is told from a parent's
    /// definition of the same name.
    func ownSteps(of path: [String]) -> Int {
        path.firstIndex { configuration.table.definition(named: $0) == nil } ?? path.count
    }

    /// The key of this context's definition answering to `name`, if it has one.
    func ownKey(of name: String) -> String? {
        configuration.table.definition(named: name).map { key(at: $0) }
    }
}
