/// Every problem of a factory, found by making each of its definitions once in a scratch context.
///
/// ```swift
/// @Test func appFactoryIsValid() async {
///     #expect(await ApplicationContext.validate(AppFactory()).problems == [])
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
    /// The scratch context's graph, laid out when the validation ended: the report keeps no
    /// context, so neither the objects the validation made nor a parent outlive it.
    private let laidOut: Graph?

    init(findings: [Finding], scratch: ApplicationContext?) {
        self.findings = findings
        laidOut = scratch.map(Graph.init)
    }

    private init(findings: [Finding], laidOut: Graph?) {
        self.findings = findings
        self.laidOut = laidOut
    }

    /// The same report with `earlier` (the configuration's problems) before its findings.
    func after(_ earlier: [Finding]) -> ValidationReport {
        ValidationReport(findings: earlier + findings, laidOut: laidOut)
    }

    /// Every distinct problem found, in the order found; empty for a healthy factory.
    public var problems: [ContextError] { findings.map(\.problem) }

    /// `true` when no problem was found.
    public var isValid: Bool { problems.isEmpty }

    /// The complete dependency graph: every definition was made once, so every edge is known.
    /// Empty when the factory's configuration itself failed.
    public func graph(_ format: GraphFormat = .dot) -> String {
        laidOut?.render(format) ?? ""
    }

    /// `valid` or a numbered list of the problems.
    public var description: String {
        if problems.isEmpty { return "valid: no problems found" }
        return "\(findings.count) problem\(findings.count == 1 ? "" : "s"):\n"
            + findings.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }
}
