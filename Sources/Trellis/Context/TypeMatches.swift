/// The matches of a lookup by type that one context of the chain found (with its parents'), and
/// whether that context may cache them (`TypeLookup.chainMatches`).
///
/// Not generic over the type asked for (its few methods are): the runtime looked the metadata of
/// a generic one up on every use, in the library's unspecialised code.
struct TypeMatches {
    /// How far the context is from the asker (0: the asker).
    let level: Int
    var found: [TypeMatch] = []
    /// Every definition asked answered, and every singleton's answer final: made, or known from
    /// its declared type (a lazy singleton asked about a class it is declared as).
    var settled = true
    /// The lowest level of a context closer to the asker that hid a definition from these
    /// matches (the highest of those declaring its name). Cached by a context only if none below
    /// it did: its own matches must not miss what only the asker hides.
    var hiddenBelow = Int.max

    init(level: Int) { self.level = level }

    /// Whether definition `index` of `context` is asked whether it makes `T`s: not hidden by a
    /// definition with the same name closer to the asker (whatever its type), and not declared
    /// as a class unrelated to `T`'s. The second is the common case when looking for one class,
    /// and is answered without `DefinitionKind<T>`, whose generic code the runtime would look
    /// metadata up for, for every definition.
    mutating func asks<T>(_ index: Int, of context: ApplicationContext, below: [ApplicationContext], for _: T.Type) -> Bool {
        if isHidden(context.key(at: index), by: below) { return false }
        return !Creation(of: index, in: context).declaresNoKind(of: T.self)
    }

    mutating func add<T>(_ kind: KindAnswer, _ context: ApplicationContext, _ index: Int, for _: T.Type) {
        switch kind {
        case .no: break
        case .unknown: settled = false
        case let .yes(value): found.append(TypeMatch(context: context, index: index, value: value))
        }
        // A singleton the answer did not make (its declared type told) stays final only if the
        // declared type is a `T` (one declared as an unrelated class is never asked).
        if settled, context.records[index].scope.isSingleton, !context.isMade(index), !Creation(of: index, in: context).declaresKind(of: T.self) {
            settled = false
        }
    }

    /// Appends a parent's matches as its lookup found them.
    mutating func add(_ parent: TypeMatches) {
        found.append(contentsOf: parent.found)
        settled = settled && parent.settled
        hiddenBelow = min(hiddenBelow, parent.hiddenBelow)
    }

    /// Appends a parent's cached matches, less those hidden by `below` (the contexts from the
    /// asker up to the parent's child).
    mutating func add(_ cached: [TypeMatch], below: [ApplicationContext]) {
        for match in cached where !isHidden(match.context.key(at: match.index), by: below) {
            found.append(match)
        }
    }

    /// Whether the definition whose key is `key` is hidden by one of `below` (a definition with
    /// that key: an alias hides nothing), noting the highest that hides it.
    private mutating func isHidden(_ key: String, by below: [ApplicationContext]) -> Bool {
        guard let hider = below.lastIndex(where: { $0.configuration.table.definition(withKey: key) != nil }) else { return false }
        hiddenBelow = min(hiddenBelow, hider)
        return true
    }

    /// The matches, given to `cache` if they are settled and nothing below the context hid any.
    consuming func finished(caching cache: ([TypeMatch]) -> Void) -> TypeMatches {
        if settled && hiddenBelow >= level { cache(found) }
        return self
    }
}
