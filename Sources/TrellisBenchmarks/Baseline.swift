import Synchronization

/// The least a keyed, thread-safe container can do: a `Mutex`-guarded dictionary of closures and
/// cached singletons, the floor Trellis is held against (as in /work/shared/bench).
///
/// Beyond the shared bench's baseline it knows aliases and a parent, so the `alias` and `parent`
/// scenarios have a floor of their own. A made singleton is cached under its key and every
/// alias, so a lookup by alias costs one hash lookup, as one by key; a name found nowhere here
/// is asked of the parent after the lock is released.
final class KeyedBaseline: Sendable {
    enum Entry: Sendable {
        case singleton(key: String, make: @Sendable (KeyedBaseline) -> any AnyObject & Sendable)
        case prototype(make: @Sendable (KeyedBaseline) -> AnyObject)
    }

    private struct State {
        /// Keys and aliases to their definitions.
        var entries: [String: Entry] = [:]
        /// Made singletons under their key and every alias.
        var instances: [String: any AnyObject & Sendable] = [:]
        var aliases: [String: [String]] = [:]
    }

    private enum Found: Sendable {
        case made(any AnyObject & Sendable)
        case entry(Entry)
        case missing
    }

    private let state = Mutex(State())
    let parent: KeyedBaseline?

    init(parent: KeyedBaseline? = nil) {
        self.parent = parent
    }

    func singleton(_ key: String, _ make: @escaping @Sendable (KeyedBaseline) -> any AnyObject & Sendable) {
        state.withLock { $0.entries[key] = .singleton(key: key, make: make) }
    }

    func prototype(_ key: String, _ make: @escaping @Sendable (KeyedBaseline) -> AnyObject) {
        state.withLock { $0.entries[key] = .prototype(make: make) }
    }

    /// Makes `alias` another name of the already registered `key`.
    func alias(_ alias: String, for key: String) {
        state.withLock { state in
            state.entries[alias] = state.entries[key]
            state.aliases[key, default: []].append(alias)
        }
    }

    func resolve<T>(_ name: String) -> T {
        let found = state.withLock { state -> Found in
            if let hit = state.instances[name] { return .made(hit) }
            if let entry = state.entries[name] { return .entry(entry) }
            return .missing
        }
        switch found {
        case let .made(object):
            return object as! T
        case let .entry(.prototype(make)):
            return make(self) as! T
        case let .entry(.singleton(key, make)):
            let made = make(self)
            return state.withLock { state in
                if let raced = state.instances[key] { return raced }
                state.instances[key] = made
                for alias in state.aliases[key] ?? [] { state.instances[alias] = made }
                return made
            } as! T
        case .missing:
            guard let parent else { fatalError("baseline: no object named '\(name)'") }
            return parent.resolve(name)
        }
    }
}

/// The bench model in the baseline: the same definitions as `BenchFactory`.
func makeBaseline() -> KeyedBaseline {
    let c = KeyedBaseline()
    c.singleton("config") { _ in Config() }
    c.alias("configuration", for: "config")
    c.singleton("database") { c in Database(config: c.resolve("config")) }
    c.prototype("repository") { c in Repository(db: c.resolve("database")) }
    c.prototype("logger") { _ in Logger() }
    c.prototype("service") { c in
        Service(config: c.resolve("config"), repo: c.resolve("repository"), logger: c.resolve("logger"))
    }
    c.prototype("injected") { c in
        // What a hand-written container does instead of @Inject: fill the properties itself.
        let object = Injected5()
        object.config = c.resolve("config")
        object.database = c.resolve("database")
        object.repository = c.resolve("repository")
        object.logger = c.resolve("logger")
        object.configuration = c.resolve("configuration")
        return object
    }
    return c
}

/// A child of the bench model's baseline with one unrelated definition, like `EmptyChild`.
func makeBaselineChild(of parent: KeyedBaseline) -> KeyedBaseline {
    let child = KeyedBaseline(parent: parent)
    child.singleton("unrelated") { _ in Leaf(0) }
    return child
}
