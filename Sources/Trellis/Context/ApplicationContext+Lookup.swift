extension ApplicationContext {
    /// The object named `keyOrAlias`, found in this context's keys and aliases, then in the
    /// parent chain; made first if it is a prototype or a singleton not made yet.
    ///
    /// ```swift
    /// let mailer: Mailer = try context.object("mailer")
    /// let same = try context.object("MAILER", as: Mailer.self)
    /// ```
    ///
    /// - Throws: ``ContextError/noSuchObject(key:searched:path:)`` when no context in the chain
    ///   answers to the name, ``ContextError/typeMismatch(key:expected:actual:path:)`` when the
    ///   object is not a `T`, and any error of making it (``ContextError/creationFailed(key:path:underlying:)``,
    ///   ``ContextError/circularDependency(path:)``, …).
    public func object<T>(_ keyOrAlias: String, as type: T.Type = T.self) throws(ContextError) -> T {
        var context = self
        while true {
            if let index = context.configuration.table.definition(named: keyOrAlias) {
                if let box = context.slots[index].madeBox, box.typeID == ObjectIdentifier(T.self) {
                    return unsafeDowncast(box, to: Box<T>.self).value
                }
                return try context.resolve(index, as: T.self)
            }
            guard let parent = context.parent else { break }
            context = parent
        }
        throw noSuchObject(keyOrAlias)
    }

    /// Whether this context or one of its parents answers to `keyOrAlias`.
    public func contains(_ keyOrAlias: String) -> Bool {
        locate(keyOrAlias) != nil
    }

    /// The context in the chain that answers to `name`, and the definition there.
    func locate(_ name: String) -> (context: ApplicationContext, index: Int)? {
        for context in chain {
            if let index = context.configuration.table.definition(named: name) { return (context, index) }
        }
        return nil
    }

    /// Looks up `name` for the definition `requester` of this context (a closure lookup or an
    /// injected property), recording the dependency edge for the graph.
    func object<T>(_ name: String, as type: T.Type, requester: Int?, label: String?) throws(ContextError) -> T {
        var context = self
        var depth = 0
        while true {
            if let index = context.configuration.table.definition(named: name) {
                if let requester, !slots[requester].edgesRecorded.load(ordering: .relaxed) {
                    records.record(Edge(from: requester, depth: depth, to: index, label: label))
                }
                if let box = context.slots[index].madeBox, box.typeID == ObjectIdentifier(T.self) {
                    return unsafeDowncast(box, to: Box<T>.self).value
                }
                return try context.resolve(index, as: T.self)
            }
            guard let parent = context.parent else { break }
            context = parent
            depth += 1
        }
        throw noSuchObject(name)
    }

    /// The object of definition `index`, made if needed (the slow path of a lookup).
    func resolve<T>(_ index: Int, as type: T.Type) throws(ContextError) -> T {
        let stack = ThreadLocal.creationStack
        if configuration.definitions[index].scope == .prototype {
            let maker = configuration.definitions[index].maker
            if maker.objectTypeID == ObjectIdentifier(T.self) {
                return try makePrototype(index, stack, unsafeDowncast(maker, to: TypedMaker<T>.self).make)
            }
            let made = try makePrototype(index, stack, maker.makeAny)
            return try cast(made, key: index, stack)
        }
        let box = try singletonBox(index, stack)
        if box.typeID == ObjectIdentifier(T.self) { return unsafeDowncast(box, to: Box<T>.self).value }
        return try cast(box.anyValue, key: index, stack)
    }

    /// `value` as a `T`, or the `typeMismatch` error for definition `index`.
    func cast<T>(_ value: Any, key index: Int, _ stack: CreationStack) throws(ContextError) -> T {
        if let typed = value as? T { return typed }
        throw .typeMismatch(
            key: configuration.table.keys[index], expected: String(reflecting: T.self),
            actual: String(reflecting: Swift.type(of: value)), path: stack.path + [configuration.table.keys[index]])
    }

    @inline(never)
    func noSuchObject(_ name: String) -> ContextError {
        .noSuchObject(key: name, searched: chain.map(\.name), path: ThreadLocal.creationStack.path + [name])
    }
}
