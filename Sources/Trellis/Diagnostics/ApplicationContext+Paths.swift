extension ApplicationContext {
    /// How many of `path`'s first steps are surely this context's own definitions. A lookup
    /// from one of its definitions finds this context's definition of a name it has, and once a
    /// step is a parent's, so is every later one (a parent never looks into its children).
    func ownSteps(of path: [String]) -> Int {
        path.firstIndex { ownIndex(of: $0) == nil } ?? path.count
    }

    /// The index of this context's definition `key` (a key on a path), if a step of that key
    /// after one of this context's own is surely it. A path names each definition by its key,
    /// not by the name it was looked up by, so a parent's definition of the same key is another
    /// candidate when a lookup could reach it: by one of its names this context does not answer
    /// to (an alias of the parent's own). Where this context answers to every name of it, every
    /// lookup from here finds this context's.
    func ownIndex(of key: String) -> Int? {
        guard let index = configuration.table.definition(named: key) else { return nil }
        for ancestor in chain.dropFirst() where ancestor.configuration.table.definition(withKey: key) != nil {
            let names = [key] + ancestor.configuration.aliases(of: key)
            if names.contains(where: { configuration.table.definition(named: $0) == nil }) { return nil }
        }
        return index
    }
}
