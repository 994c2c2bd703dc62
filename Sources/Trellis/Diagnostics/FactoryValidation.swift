/// How a factory is validated: a scratch context built from its configuration, every definition
/// made once in the order a start would meet it, every problem collected instead of thrown. The
/// public `validate` forms of `ApplicationContext` are its entry points.
enum FactoryValidation {
    static func collect(_ factory: some ObjectFactory) -> (ConfiguratorFromFactory?, [ValidationReport.Finding]) {
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

    static func validate(_ configurator: ConfiguratorFromFactory, parent: ApplicationContext?) -> ValidationReport {
        let scratch = ApplicationContext(configurator: configurator, parent: parent, isValidation: true)
        let collector = ProblemCollector()
        let session = Session(problems: collector)
        for index in order(configurator, asyncFirst: false) {
            do throws(ContextError) {
                // A lookup of its own per definition, nested if this validation runs inside a
                // closure: its paths start at the definition, as they would outside.
                _ = try Resolution.run(from: nil, session: session) { resolution, thread throws(ContextError) -> Any in
                    try Creation(of: index, in: scratch).makeAny(in: resolution, on: thread)
                }
            } catch {
                collector.add(error, foundIn: error.path.dropLast().last ?? configurator.definitions[index].key)
            }
        }
        for lazy in collector.takeLazyProperties() {
            do throws(ContextError) {
                try lazy.validateFirstRead()
            } catch {
                collector.add(lazy.ownerKey.map(error.reached(from:)) ?? error, foundIn: lazy.ownerKey ?? configurator.contextName)
            }
        }
        // What validation made is disposed like a failed start's objects: a pool opened to check
        // the factory is closed again.
        scratch.disposeWhatWasMade()
        return ValidationReport(findings: collector.findings, scratch: scratch)
    }

    static func validate(_ configurator: ConfiguratorFromFactory, parent: ApplicationContext?) async -> ValidationReport {
        let scratch = ApplicationContext(configurator: configurator, parent: parent, isValidation: true)
        let collector = ProblemCollector()
        let definitions = configurator.definitions
        let outer = Resolution.asyncActive
        var concurrentPhaseFindings: Int?
        // The held-back properties settled once the phase's edges are all recorded; findings
        // after the mark are the later phases'.
        func endConcurrentPhase() {
            let roots = definitions.indices.filter { definitions[$0].scope == .eagerSingleton && definitions[$0].maker.isAsync }
            collector.settlePropertiesOfAwaitedOwners(edges: scratch.journal.edges, roots: roots) { definitions[$0].key }
            concurrentPhaseFindings = collector.count
        }
        for index in order(configurator, asyncFirst: true) {
            let concurrentPhase = definitions[index].scope == .eagerSingleton && definitions[index].maker.isAsync
            if !concurrentPhase && concurrentPhaseFindings == nil { endConcurrentPhase() }
            let session = Session(problems: collector, restrictsAsyncOf: concurrentPhase ? scratch : nil)
            let resolution = Resolution.forAsyncEntry(session, nestedIn: outer)
            do throws(ContextError) {
                _ = try await Creation(of: index, in: scratch).madeAsync(in: resolution)
            } catch {
                collector.add(error, foundIn: error.path.dropLast().last ?? definitions[index].key)
            }
            resolution.release()
        }
        if concurrentPhaseFindings == nil { endConcurrentPhase() }
        for lazy in collector.takeLazyProperties() {
            do throws(ContextError) {
                try await lazy.validateFirstReadAsync()
            } catch {
                collector.add(lazy.ownerKey.map(error.reached(from:)) ?? error, foundIn: lazy.ownerKey ?? configurator.contextName)
            }
        }
        // An async eager singleton that failed stops a start before anything else is made, and
        // once a start succeeded it is made: a synchronous lookup of it after the concurrent
        // phase that found it unmade met that failure, reported already, not a missing `await`.
        // (One during the concurrent phase is a problem of its own.) Only a path that stays in
        // the scratch's own definitions reaches its singleton: a parent's of the same name is
        // another one.
        let failedAsyncEager = Set(definitions.indices.filter {
            definitions[$0].scope == .eagerSingleton && definitions[$0].maker.isAsync && !scratch.isMade($0)
        }.map { definitions[$0].key })
        collector.dropRequiresAwait(after: concurrentPhaseFindings ?? collector.count) { key, path in
            path.count >= 2 && path.last == key && failedAsyncEager.contains(key) && scratch.ownSteps(of: path) == path.count
        }
        _ = try? await scratch.close()
        return ValidationReport(findings: collector.findings, scratch: scratch)
    }
}
