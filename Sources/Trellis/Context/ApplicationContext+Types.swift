extension ApplicationContext {
    /// The one object, in this context or its parents, whose definition makes a `T` (a protocol,
    /// a superclass, or the type itself).
    ///
    /// Definitions declared to return a `T` (or a subclass) are matched without being made; made
    /// singletons are checked as they are; the others are made once to look: lazy singletons as
    /// on first lookup, prototypes as one discarded instance per queried type (the answer is kept).
    /// A child's definition shadows a parent's with the same key.
    ///
    /// - Throws: ``ContextError/noSuchObject(key:searched:path:)`` when none matches,
    ///   ``ContextError/ambiguousType(type:candidates:)`` naming every candidate when several do,
    ///   and any error of making the objects it had to make to find out.
    public func object<T>(of type: T.Type) throws(ContextError) -> T {
        let found = try typeMatches(T.self)
        guard let only = found.first else {
            throw .noSuchObject(key: "of type \(String(reflecting: T.self))", searched: chain.map(\.name), path: [])
        }
        guard found.count == 1 else {
            throw .ambiguousType(type: String(reflecting: T.self), candidates: found.map { $0.context.qualifiedKey($0.index, from: self) })
        }
        if let value = only.value { return value }
        return try only.context.resolve(only.index, as: T.self)
    }

    /// Every object, in this context then its parents, whose definition makes a `T` (protocols
    /// and superclasses match), own definitions in declaration order first.
    ///
    /// Makes what ``object(of:)`` makes to find out; prototypes in the result are new instances.
    ///
    /// - Throws: any error of making the objects it had to make.
    public func objects<T>(of type: T.Type) throws(ContextError) -> [T] {
        var result: [T] = []
        for match in try typeMatches(T.self) {
            if let value = match.value {
                result.append(value)
            } else {
                result.append(try match.context.resolve(match.index, as: T.self))
            }
        }
        return result
    }

    private func typeMatches<T>(_ type: T.Type) throws(ContextError) -> [(context: ApplicationContext, index: Int, value: T?)] {
        var result: [(ApplicationContext, Int, T?)] = []
        var visited: [ApplicationContext] = []
        let typeID = ObjectIdentifier(T.self)
        for context in chain {
            defer { visited.append(context) }
            for (index, definition) in context.configuration.definitions.enumerated() {
                if visited.contains(where: { $0.configuration.table.definition(named: definition.key) != nil }) { continue }
                if definition.maker.declaresKind(of: T.self) {
                    result.append((context, index, nil))
                } else if definition.scope.isSingleton {
                    let box = try context.singletonBox(index, ThreadLocal.creationStack)
                    if let value = box.anyValue as? T { result.append((context, index, value)) }
                } else if let known = context.records.kind(of: index, is: typeID) {
                    if known { result.append((context, index, nil)) }
                } else {
                    let made = try context.resolve(index, as: Any.self)
                    let matches = made is T
                    context.records.rememberKind(of: index, is: typeID, matches)
                    if matches { result.append((context, index, made as? T)) }
                }
            }
        }
        return result
    }

    /// `key`, or `Context.key` when the definition belongs to another context than `asker`.
    func qualifiedKey(_ index: Int, from asker: ApplicationContext) -> String {
        let key = configuration.table.keys[index]
        return self === asker ? key : "\(name).\(key)"
    }
}
