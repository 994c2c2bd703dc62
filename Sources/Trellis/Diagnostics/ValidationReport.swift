/// Every problem of a factory, found by making each of its definitions once in a scratch context.
///
/// ```swift
/// @Test func appFactoryIsValid() {
///     #expect(ApplicationContext.validate(AppFactory()).problems == [])
/// }
/// ```
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// A problem and the definition it was found in.
    public struct Finding: Sendable, CustomStringConvertible {
        /// The key of the definition whose making or injection failed; for configuration
        /// problems, the context's name.
        public let definition: String
        /// What went wrong, with its resolution path where the case has one.
        public let problem: ContextError

        /// `in 'key': message`.
        public var description: String { "in '\(definition)': \(problem)" }
    }

    /// Every distinct problem found, with the definition it was found in, in the order found.
    public let findings: [Finding]
    let scratch: ApplicationContext?

    init(findings: [Finding], scratch: ApplicationContext?) {
        self.findings = findings
        self.scratch = scratch
    }

    /// Every distinct problem found, in the order found; empty for a healthy factory.
    public var problems: [ContextError] { findings.map(\.problem) }

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
        return "\(findings.count) problem\(findings.count == 1 ? "" : "s"):\n"
            + findings.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
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
        let (configurator, problems) = ConfiguratorFromFactory.collecting(name: factory.contextName, factory.definitions)
        let naming = problems.map { ValidationReport.Finding(definition: factory.contextName, problem: $0) }
        guard let configurator else { return ValidationReport(findings: naming, scratch: nil) }
        let report = validate(configurator, parent: parent)
        return ValidationReport(findings: naming + report.findings, scratch: report.scratch)
    }

    /// Validates a scratch copy of this context, built from the same configuration and parent;
    /// this context itself is never changed.
    public func validate() -> ValidationReport {
        Self.validate(configuration, parent: parent)
    }

    private static func validate(_ configurator: ConfiguratorFromFactory, parent: ApplicationContext?) -> ValidationReport {
        // Only the thrown error of the non-starting initialiser is impossible here.
        guard let scratch = try? ApplicationContext(configurator: configurator, parent: parent, isValidation: true) else {
            return ValidationReport(findings: [], scratch: nil)
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
                collector.add(error, foundIn: error.path.dropLast().last ?? configurator.definitions[index].key)
            }
        }
        return ValidationReport(findings: collector.findings, scratch: scratch)
    }
}
