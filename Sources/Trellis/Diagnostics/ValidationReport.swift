/// Every problem of a factory, found by making each of its definitions once in a scratch context.
///
/// ```swift
/// @Test func appFactoryIsValid() {
///     #expect(ApplicationContext.validate(AppFactory()).problems == [])
/// }
/// ```
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// Every distinct problem found, in the order found; empty for a healthy factory.
    public let problems: [ContextError]
    let scratch: ApplicationContext?

    init(problems: [ContextError], scratch: ApplicationContext?) {
        self.problems = problems
        self.scratch = scratch
    }

    /// `true` when no problem was found.
    public var isValid: Bool { problems.isEmpty }

    /// The complete dependency graph: every definition was made once, so every edge is known.
    /// Empty when the factory's configuration itself failed.
    public func graph(_ format: GraphFormat = .dot) -> String {
        scratch?.graph(format) ?? ""
    }

    /// `valid` or a numbered list of the problems.
    public var description: String {
        if problems.isEmpty { return "valid: no problems found" }
        return "\(problems.count) problem\(problems.count == 1 ? "" : "s"):\n"
            + problems.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }
}

extension ApplicationContext {
    /// Makes every definition of `factory` once (prototypes too) in a scratch context, injects
    /// them, and collects every problem instead of stopping at the first: configuration errors,
    /// unknown keys, type mismatches, cycles, throwing definitions, unresolved injections.
    ///
    /// The scratch context is discarded; `parent`, if given, is used as the scratch context's
    /// parent, so lazy singletons of the parent may be made.
    public static func validate(_ factory: some ObjectFactory, parent: ApplicationContext? = nil) -> ValidationReport {
        let collected = factory.definitions
        let (configurator, problems) = ConfiguratorFromFactory.collecting(name: factory.contextName, collected)
        guard let configurator else { return ValidationReport(problems: problems, scratch: nil) }
        let report = validate(configurator, parent: parent)
        return ValidationReport(problems: problems + report.problems, scratch: report.scratch)
    }

    /// Validates a scratch copy of this context, built from the same configuration and parent;
    /// this context itself is never changed.
    public func validate() -> ValidationReport {
        Self.validate(configuration, parent: parent)
    }

    private static func validate(_ configurator: ConfiguratorFromFactory, parent: ApplicationContext?) -> ValidationReport {
        // Only the thrown error of the non-starting initialiser is impossible here.
        guard let scratch = try? ApplicationContext(configurator: configurator, parent: parent, isValidation: true) else {
            return ValidationReport(problems: [], scratch: nil)
        }
        let stack = ThreadLocal.creationStack
        let outer = stack.problems
        let collector = ProblemCollector()
        stack.problems = collector
        defer { stack.problems = outer }
        let order = configurator.eagerDefinitions + configurator.definitions.indices.filter { configurator.definitions[$0].scope != .eagerSingleton }
        for index in order {
            do {
                _ = try scratch.resolve(index, as: Any.self)
            } catch {
                collector.add(error)
            }
        }
        return ValidationReport(problems: collector.problems, scratch: scratch)
    }
}
