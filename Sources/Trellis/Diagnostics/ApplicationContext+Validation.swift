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
        let (configurator, naming) = FactoryValidation.collect(factory)
        guard let configurator else { return ValidationReport(findings: naming, scratch: nil) }
        let report = FactoryValidation.validate(configurator, parent: parent)
        return report.after(naming)
    }

    /// Validates `factory` as the synchronous form does, and also makes its async definitions,
    /// in the order an async start would: the async eager singletons (with the rule of the
    /// concurrent phase: a synchronous closure gets no async definition), then the synchronous
    /// eager ones, then everything else. Every edge from a synchronous closure to an async
    /// definition that timing could leave unmade is reported as
    /// ``ContextError/requiresAwait(key:path:)``, even when it happened to be made in this run:
    /// a factory that validates cleanly never throws `requiresAwait` at start or at a lookup its
    /// definitions and properties make.
    public static func validate(_ factory: some ObjectFactory, parent: ApplicationContext? = nil) async -> ValidationReport {
        let (configurator, naming) = FactoryValidation.collect(factory)
        guard let configurator else { return ValidationReport(findings: naming, scratch: nil) }
        let report = await FactoryValidation.validate(configurator, parent: parent)
        return report.after(naming)
    }

    /// Validates a scratch copy of this context, built from the same configuration and parent;
    /// this context itself is never changed.
    public func validate() -> ValidationReport {
        FactoryValidation.validate(configuration, parent: parent)
    }

    /// Validates a scratch copy of this context as ``validate(_:parent:)-8i4np`` does.
    public func validate() async -> ValidationReport {
        await FactoryValidation.validate(configuration, parent: parent)
    }
}
