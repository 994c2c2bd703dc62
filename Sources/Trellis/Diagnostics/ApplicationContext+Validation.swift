extension ApplicationContext {
    /// Makes every definition of `factory` once (prototypes too) in a scratch context, injects
    /// them, and collects every problem instead of stopping at the first: configuration errors,
    /// unknown keys, type mismatches, cycles, throwing definitions, unresolved injections,
    /// definitions returning `Void`.
    ///
    /// The synchronous form cannot make async definitions: it reports each one as
    /// ``ContextError/requiresAwait(key:path:)``; validate factories with async definitions with
    /// `await`. The scratch context is discarded; `parent`, if given, is used as the scratch
    /// context's parent, so lazy singletons of the parent may be made (and a problem making one
    /// is thrown by that real context as it would be without validation).
    public static func validate(_ factory: some ObjectFactory, parent: ApplicationContext? = nil) -> ValidationReport {
        let (configurator, naming) = collect(factory)
        guard let configurator else { return ValidationReport(findings: naming, scratch: nil) }
        let report = validate(configurator, parent: parent)
        return ValidationReport(findings: naming + report.findings, scratch: report.scratch)
    }

    /// Validates `factory` as the synchronous form does, and also makes its async definitions,
    /// in the order an async start would: the async eager singletons (with the rule of the
    /// concurrent phase: a synchronous closure gets no async definition), then the synchronous
    /// eager ones, then everything else. Every edge from a synchronous closure to an async
    /// definition that timing could leave unmade is reported as
    /// ``ContextError/requiresAwait(key:path:)``, even when it happened to be made in this run:
    /// a factory that validates cleanly never throws `requiresAwait` at start or at a lookup.
    public static func validate(_ factory: some ObjectFactory, parent: ApplicationContext? = nil) async -> ValidationReport {
        let (configurator, naming) = collect(factory)
        guard let configurator else { return ValidationReport(findings: naming, scratch: nil) }
        let report = await validate(configurator, parent: parent)
        return ValidationReport(findings: naming + report.findings, scratch: report.scratch)
    }

    /// Validates a scratch copy of this context, built from the same configuration and parent;
    /// this context itself is never changed.
    public func validate() -> ValidationReport {
        Self.validate(configuration, parent: parent)
    }

    /// Validates a scratch copy of this context as ``validate(_:parent:)-8i4np`` does.
    public func validate() async -> ValidationReport {
        await Self.validate(configuration, parent: parent)
    }

    private static func collect(_ factory: some ObjectFactory) -> (ConfiguratorFromFactory?, [ValidationReport.Finding]) {
        let (configurator, problems) = ConfiguratorFromFactory.collecting(name: factory.contextName, factory.definitions)
        return (configurator, problems.map { ValidationReport.Finding(definition: factory.contextName, problem: $0) })
    }

    /// The definitions to make, in the order a start would meet them: eager first.
    private static func order(_ configurator: ConfiguratorFromFactory, asyncFirst: Bool) -> [Int] {
        let definitions = configurator.definitions
        let valid = definitions.indices.filter { definitions[$0].maker.invalidity == nil }
        let eager = valid.filter { definitions[$0].scope == .eagerSingleton }
        let asyncEager = asyncFirst ? eager.filter { definitions[$0].maker.isAsync } : []
        let syncEager = eager.filter { !asyncEager.contains($0) }
        return asyncEager + syncEager + valid.filter { definitions[$0].scope != .eagerSingleton }
    }

    private static func validate(_ configurator: ConfiguratorFromFactory, parent: ApplicationContext?) -> ValidationReport {
        let scratch = ApplicationContext(configurator: configurator, parent: parent, isValidation: true)
        let collector = ProblemCollector()
        let session = Session(problems: collector)
        for index in order(configurator, asyncFirst: false) {
            do throws(ContextError) {
                // A lookup of its own per definition, nested if this validation runs inside a
                // closure: its paths start at the definition, as they would outside.
                _ = try Resolution.run(from: nil, session: session) { resolution, thread throws(ContextError) -> Any in
                    try scratch.makeAny(index, resolution, thread)
                }
            } catch {
                collector.add(error, foundIn: error.path.dropLast().last ?? configurator.definitions[index].key)
            }
        }
        // What validation made is disposed like a failed start's objects: a pool opened to check
        // the factory is closed again.
        scratch.disposeWhatWasMade()
        return ValidationReport(findings: collector.findings, scratch: scratch)
    }

    private static func validate(_ configurator: ConfiguratorFromFactory, parent: ApplicationContext?) async -> ValidationReport {
        let scratch = ApplicationContext(configurator: configurator, parent: parent, isValidation: true)
        let collector = ProblemCollector()
        let definitions = configurator.definitions
        let outer = Resolution.asyncActive
        for index in order(configurator, asyncFirst: true) {
            let concurrentPhase = definitions[index].scope == .eagerSingleton && definitions[index].maker.isAsync
            let session = Session(problems: collector, restrictsAsyncOf: concurrentPhase ? scratch : nil)
            let resolution = Resolution.forAsyncEntry(session, nestedIn: outer)
            do throws(ContextError) {
                _ = try await scratch.makeAnyAsync(index, resolution)
            } catch {
                collector.add(error, foundIn: error.path.dropLast().last ?? definitions[index].key)
            }
            resolution.release()
        }
        _ = try? await scratch.close()
        return ValidationReport(findings: collector.findings, scratch: scratch)
    }
}
