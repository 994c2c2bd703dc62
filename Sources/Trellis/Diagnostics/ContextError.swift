/// The one error type of Trellis: every misuse of a factory or a context, with what it needs to
/// say where it happened.
///
/// A failure deep in a graph reads as one message with the whole resolution path: an error thrown
/// by a nested lookup passes through the closures above it unchanged, never wrapped.
///
/// Paths list keys from the outermost lookup to the failing one, e.g. `["service", "repository",
/// "database"]`.
public enum ContextError: Error, CustomStringConvertible, Sendable {
    /// A key is empty or has leading or trailing whitespace.
    case invalidKey(key: String, context: String)
    /// Two definitions of one factory share a key.
    case duplicateKey(key: String, context: String)
    /// One name is an alias twice: of two definitions, or of one definition both explicitly and
    /// as its generated default alias.
    case duplicateAlias(alias: String, uses: [AliasUse], context: String)
    /// An alias (explicit, or generated when `isGenerated`) of `aliasOf` equals another
    /// definition's key.
    case aliasShadowsKey(alias: String, aliasOf: String, isGenerated: Bool, context: String)
    /// `aliases(for:)` names a key the factory does not define.
    case aliasOfUnknownKey(alias: String, key: String, context: String)
    /// Nothing answers to `key` in any context searched (`searched`, nearest first). For
    /// ``ApplicationContext/object(of:)-8j4bq``, `key` is the type's name and `path` is empty.
    case noSuchObject(key: String, searched: [String], path: [String])
    /// The object found for `key` is not of the requested type.
    case typeMismatch(key: String, expected: String, actual: String, path: [String])
    /// Objects depend on each other through creation closures or prototypes; `path` starts and
    /// ends with the same key.
    case circularDependency(path: [String])
    /// The closure of `key` threw `underlying`; nothing was cached, so it is made again when next
    /// asked for.
    case creationFailed(key: String, path: [String], underlying: any Error)
    /// A required `@Inject` property of `type` found no object for `key`.
    case unresolvedInjection(type: String, property: String, key: String)
    /// An overriding factory defines a key the overridden factory does not; `aliasOf` is the key
    /// it names when it is an alias (overrides name keys).
    case overrideOfUnknownKey(key: String, context: String, aliasOf: String? = nil)
    /// `object(of:)` found several definitions whose objects are of `type`.
    case ambiguousType(type: String, candidates: [String])
    /// A definition can never make a usable object, e.g. its closure returns `Void`: `reason`
    /// says what is wrong and how to fix it.
    case invalidDefinition(key: String, reason: String, context: String)
    /// A synchronous call needs the async definition `key`, which is not made yet (or, during an
    /// async start's concurrent phase, is async at all); or a synchronous `close()` met an
    /// ``AsyncDisposable`` singleton (then `path` is `["close()", key]`), or, off the main actor,
    /// a singleton disposable only on the main actor (then `path` is
    /// `["close() off the main actor", key]`).
    case requiresAwait(key: String, path: [String])
    /// A lookup on (or through) `context` after its `close()` began.
    case contextClosed(context: String, key: String)
    /// One or more `dispose()` calls threw while `context` was closed: each key with its error's
    /// description, in disposal order. Every other disposal was still attempted.
    case disposalFailed(context: String, failures: [DisposalFailure])
    /// A required `@Inject` property was read (or `$property.get()` called) before anything
    /// injected it, and no context was current when its owner was made.
    case neverInjected(property: String, declaredAt: String)
    /// A property of an object made with its plain `init` was read through the current context
    /// (`context`), but it gives no key and its name could not be learned (its owner is a
    /// private, nested or generic type); `candidates` are the keys declared with its type (not
    /// exactly one, or that one would have been used).
    case unnamedProperty(type: String, declaredAt: String, context: String, candidates: [String])
    /// A `.lazy` (or current-context) `@Inject` property was first read after its context was
    /// released.
    case contextReleased(context: String, key: String)
    /// `@Inject` wrappers were created while an object of `type` was made, but reflection reports
    /// no stored properties for `type`: the binary carries no reflection metadata to find them
    /// (built with `-disable-reflection-metadata`), or the closure made an object with `@Inject`
    /// properties itself, which nothing would ever inject.
    case reflectionUnavailable(type: String)

    /// One `dispose()` that threw during `close()`.
    public struct DisposalFailure: Sendable, Hashable, CustomStringConvertible {
        /// The key of the singleton whose `dispose()` threw.
        public let key: String
        /// The description of what it threw.
        public let error: String

        /// Creates a failure record.
        public init(key: String, error: String) {
            self.key = key
            self.error = error
        }

        /// `'key': error`.
        public var description: String { "'\(key)': \(error)" }
    }

    /// Who an alias was given to, and whether Trellis generated it as a default alias.
    public struct AliasUse: Sendable, Hashable, CustomStringConvertible {
        /// The key of the definition the alias names.
        public let key: String
        /// `true` for a default alias (`FOOBAR`, `fooBar`), `false` for one written in the factory.
        public let isGenerated: Bool

        /// Creates a use of an alias.
        public init(key: String, isGenerated: Bool) {
            self.key = key
            self.isGenerated = isGenerated
        }

        /// `"x" (default alias)` or `"x" (explicit alias)`.
        public var description: String {
            "'\(key)' (\(isGenerated ? "generated default alias" : "explicit alias"))"
        }
    }

    /// A message for the person reading it: what happened, where, and what to do.
    public var description: String {
        switch self {
        case let .invalidKey(key, context):
            return "Invalid key '\(key)' in context '\(context)': a key must be non-empty and have no leading or trailing whitespace."
        case let .duplicateKey(key, context) where context.hasPrefix(Self.overridesOf):
            return "Duplicate key '\(key)' in context '\(context)': two test doubles replace the same definition. Keep one."
        case let .duplicateKey(key, context):
            return "Duplicate key '\(key)' in context '\(context)': two definitions use it. Rename one, or use an override to replace a definition in tests."
        case let .duplicateAlias(alias, uses, context):
            let given = uses.map(\.description).joined(separator: " and ")
            return "Duplicate alias '\(alias)' in context '\(context)': it is given to \(given). Every name in a context must be unique; remove or rename one."
        case let .aliasShadowsKey(alias, aliasOf, isGenerated, context):
            let kind = isGenerated ? "generated default alias" : "explicit alias"
            if alias == aliasOf {
                return "Alias '\(alias)' of '\(aliasOf)' (\(kind)) in context '\(context)' repeats its own key: an alias cannot repeat the key it names. Remove the alias."
            }
            return "Alias '\(alias)' of '\(aliasOf)' (\(kind)) in context '\(context)' is also the key of another definition, '\(alias)'. Every name in a context must be unique; rename one of the two definitions."
        case let .aliasOfUnknownKey(alias, key, context) where alias.isEmpty:
            // `aliases(for:)` given no alias at all.
            return "aliases(for: '\(key)') in context '\(context)' names no key of the factory. Check the spelling, or define '\(key)'."
        case let .aliasOfUnknownKey(alias, key, context):
            return "Alias '\(alias)' in context '\(context)' is declared for '\(key)', which is not a key of the factory. Check the spelling, or define '\(key)'."
        case let .noSuchObject(key, searched, path) where path.isEmpty:
            return "No definition makes a \(key) in \(Self.contexts(searched)). Define one, or check that the type is the one its definition returns (a protocol, a superclass or the type itself)."
        case let .noSuchObject(key, searched, path):
            return "No object named '\(key)' in \(Self.contexts(searched))\(Self.pathSuffix(path)). Define it, or check the key and its aliases."
        case let .typeMismatch(key, expected, actual, path):
            return "Object '\(key)' is a \(actual), not the requested \(expected)\(Self.pathSuffix(path))."
        case let .circularDependency(path):
            return "Circular dependency: \(path.joined(separator: " → ")). Break the cycle, or let singletons reference each other through @Inject properties instead of creation closures (value types cannot take part in property cycles)."
        case let .creationFailed(key, path, underlying):
            return "Creating '\(key)' failed\(Self.pathSuffix(path)): \(underlying) (nothing was cached: it is made again when next asked for)"
        case let .unresolvedInjection(type, property, key):
            return "Cannot inject property '\(property)' of \(type): no object named '\(key)'. Define '\(key)', give the property a default value, or make it optional."
        case let .overrideOfUnknownKey(key, context, aliasOf?):
            return "Override of '\(key)': in context '\(context)' it is an alias of '\(aliasOf)', and overrides name keys. Override '\(aliasOf)' instead."
        case let .overrideOfUnknownKey(key, context, nil):
            return "Override of unknown key '\(key)': context '\(context)' defines no such key, so the override would never be used. Was the key renamed?"
        case let .ambiguousType(type, candidates):
            return "Several objects are of type \(type): \(candidates.map { "'\($0)'" }.joined(separator: ", ")). Look one up by key, or use objects(of:)."
        case let .invalidDefinition(key, reason, context):
            return "Invalid definition '\(key)' in context '\(context)': \(reason)"
        case let .requiresAwait(key, path) where path.first == Self.closeOffMainActor:
            return "'\(key)' is Disposable only on the main actor (its conformance is main-actor isolated, as every conformance of a module built with default main-actor isolation is), so a synchronous close() off the main actor cannot dispose it (nothing was disposed; the context stays open unless another close is under way). Code on the main queue outside any task counts as off it here on Linux: the Swift runtime's casts do not see the main actor there. Close the context with `try await context.close()`, which hops to the main actor for it, or call close() from main-actor code (a `@MainActor` function, or a task on the main actor)."
        case let .requiresAwait(key, path) where path.first == Self.closeUnderWay:
            return "An awaited close() of this context is disposing its singletons ('\(key)' among them), so a synchronous close() cannot wait for it: in a task it would hold a thread of the pool, possibly one those disposals need, and an async disposal (AsyncDisposable, or one on the main actor) is work a synchronous call never waits for. Close with `try await context.close()`, which waits for the close under way by suspending."
        case let .requiresAwait(key, path) where path.first == "close()":
            return "'\(key)' is AsyncDisposable, so a synchronous close() cannot dispose it (nothing was disposed; the context stays open unless another close is under way). Close the context with `try await context.close()`."
        case let .requiresAwait(key, path):
            return "'\(key)' needs an async lookup, so a synchronous call cannot have it\(Self.pathSuffix(path)): it is async and not made yet (or being made, or made while the context's async eager singletons start, when synchronous closures never get async definitions), or being made by an async lookup that has suspended (awaiting something, or waiting to run on the main actor), which a synchronous call never blocks for. Look it up with `try await` (from an async closure, if a closure needs it), or make it an eager singleton and start the context with `try await ApplicationContext(…)`."
        case let .contextClosed(context, key):
            return "Context '\(context)' is closed: cannot look up '\(key)'. Look objects up before closing the context, or in a context that is still open."
        case let .disposalFailed(context, failures):
            // An error's own description may end its sentence: not twice.
            let listed = failures.map(\.description).joined(separator: "; ")
            let stop = listed.last.map { ".!?".contains($0) } == true ? "" : "."
            return "Closing context '\(context)': \(failures.count) dispose() call\(failures.count == 1 ? "" : "s") failed: \(listed)\(stop) Every disposal was attempted, and the context is closed."
        case let .neverInjected(property, declaredAt):
            return "@Inject property '\(property)' declared at \(declaredAt) was read before it was injected. Make its owner with an ApplicationContext (in a definition's closure), call `try context.inject(into: owner)` first, or make a context current when the owner is made: `ApplicationContext.setDefault(app)` at launch, or `try context.withCurrent { … }` around the code that makes it. (A property of a struct stored in another object is never reached by its injection: declare it on the object itself.)"
        case let .unnamedProperty(type, declaredAt, context, candidates):
            let found = candidates.isEmpty
                ? "no definition in context '\(context)' is declared with its type"
                : "definitions \(candidates.map { "'\($0)'" }.joined(separator: ", ")) are all declared with its type"
            return "@Inject property of type \(type) declared at \(declaredAt) was read through the current context '\(context)', but it gives no key and its name could not be learned (its owner is a private, nested or generic type, or one declared on the same line as another property of its type), and \(found). Give it its key: @Inject(\"key\")."
        case let .contextReleased(context, key):
            return "@Inject property with key '\(key)' was first read after its context '\(context)' was released. Keep the context alive as long as the objects it injects, or inject the property eagerly."
        case let .reflectionUnavailable(type):
            return "Cannot inject \(type): @Inject properties were created while making it, but reflection shows it no stored properties. Either the binary has no reflection metadata (build without -disable-reflection-metadata), or the closure made an object with @Inject properties itself, which nothing injects: define that object in the factory and look it up through the resolver, or inject it with `context.inject(into:)`."
        }
    }

    /// `context 'A'`, or `contexts 'A' → 'B' (searched in that order)`.
    private static func contexts(_ searched: [String]) -> String {
        searched.count == 1
            ? "context '\(searched[0])'"
            : "contexts " + searched.map { "'\($0)'" }.joined(separator: " → ") + " (searched in that order)"
    }

    private static func pathSuffix(_ path: [String]) -> String {
        path.count > 1 ? " (path: \(path.joined(separator: " → ")))" : ""
    }

    /// The resolution path the error carries, if its case has one.
    public var path: [String] {
        switch self {
        case let .noSuchObject(_, _, path), let .typeMismatch(_, _, _, path),
             let .circularDependency(path), let .creationFailed(_, path, _), let .requiresAwait(_, path):
            return path
        default:
            return []
        }
    }
}

extension ContextError {
    /// The same error reached from definition `owner`: its path, if it has one, begins there.
    /// (A validation's first read of a `.lazy` property looks up from no definition: its path
    /// would name neither the property's owner nor tell two owners' problems apart.)
    func reached(from owner: String) -> ContextError {
        let path = self.path
        guard !path.isEmpty, path.first != owner else { return self }
        switch self {
        case let .noSuchObject(key, searched, path): return .noSuchObject(key: key, searched: searched, path: [owner] + path)
        case let .typeMismatch(key, expected, actual, path): return .typeMismatch(key: key, expected: expected, actual: actual, path: [owner] + path)
        case let .circularDependency(path): return .circularDependency(path: [owner] + path)
        case let .creationFailed(key, path, underlying): return .creationFailed(key: key, path: [owner] + path, underlying: underlying)
        case let .requiresAwait(key, path): return .requiresAwait(key: key, path: [owner] + path)
        default: return self
        }
    }

    /// The same error as the definition at `start` on its path met it: its path from there (a
    /// failure one lookup met through another definition reads as that definition's own). A
    /// cycle, or an error without a path, is returned as it is.
    func rerooted(from start: Int) -> ContextError {
        let path = self.path
        guard start > 0, start < path.count else { return self }
        let suffix = Array(path[start...])
        switch self {
        case let .noSuchObject(missing, searched, _): return .noSuchObject(key: missing, searched: searched, path: suffix)
        case let .typeMismatch(found, expected, actual, _): return .typeMismatch(key: found, expected: expected, actual: actual, path: suffix)
        case let .creationFailed(failed, _, underlying): return .creationFailed(key: failed, path: suffix, underlying: underlying)
        case let .requiresAwait(awaited, _): return .requiresAwait(key: awaited, path: suffix)
        default: return self
        }
    }

    /// The problem without the path that led to it: equal for one cause reached two ways.
    var rootCause: String {
        switch self {
        case let .noSuchObject(key, searched, path):
            return "noSuchObject \(path.dropLast().last ?? "") \(key) \(searched)"
        case let .typeMismatch(key, expected, actual, path):
            return "typeMismatch \(path.dropLast().last ?? "") \(key) \(expected) \(actual)"
        case let .circularDependency(path):
            let cycle = path.last.flatMap { last in path.firstIndex(of: last) }.map { Array(path[$0...].dropLast()) } ?? path
            return "circularDependency \(cycle.sorted())"
        case let .creationFailed(key, _, underlying):
            // By the error's type, not its text: a definition failing through several dependents
            // is one problem even when each failure's message differs (a counter, a timestamp).
            return "creationFailed \(key) \(String(reflecting: type(of: underlying)))"
        case let .requiresAwait(key, path):
            return "requiresAwait \(path.dropLast().last ?? "") \(key)"
        default:
            return description
        }
    }
}

extension ContextError: Equatable {
    /// Errors are equal when their cases and payloads are; underlying errors compare by type and
    /// description.
    public static func == (lhs: ContextError, rhs: ContextError) -> Bool {
        switch (lhs, rhs) {
        case let (.creationFailed(k1, p1, u1), .creationFailed(k2, p2, u2)):
            return k1 == k2 && p1 == p2 && type(of: u1) == type(of: u2) && "\(u1)" == "\(u2)"
        case (.creationFailed, _), (_, .creationFailed):
            return false
        default:
            return lhs.description == rhs.description && lhs.path == rhs.path
        }
    }
}

extension ContextError {
    /// The first element of a `requiresAwait` path when a synchronous `close()` off the main
    /// actor met a singleton disposable only on the main actor.
    static let closeOffMainActor = "close() off the main actor"
    /// The first element of a `requiresAwait` path when a synchronous `close()` met an awaited
    /// close under way that it cannot wait for: in a task (it would block a thread of the pool),
    /// or anywhere while an async disposal runs.
    static let closeUnderWay = "close() during an awaited close"
    /// How the configuration names the context of an overriding factory's own problems
    /// (`overrides of AppFactory`).
    static let overridesOf = "overrides of "
}

extension ContextError {
    /// `typeMismatch` for `value`, found for `key` and not a `T` where the lookup runs; when it
    /// is a `T` on the main actor only (an isolated conformance), the message says so and how to
    /// look it up, since the declaration seems to say it is one.
    static func mismatch<T>(_ key: String, _ value: Any, as _: T.Type, path: [String]) -> ContextError {
        var actual = String(reflecting: type(of: value))
        if IsolatedConformance.isolates(value, from: T.self) {
            actual += ", which conforms only on the main actor (its conformance is isolated, as every conformance of a module built with default main-actor isolation is; look it up from main-actor code, or mark the conformance `nonisolated`)"
        }
        return .typeMismatch(key: key, expected: String(reflecting: T.self), actual: actual, path: path)
    }
}
