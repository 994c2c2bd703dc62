extension ApplicationContext {
    /// The eager singletons made when this context started, with timings and what each pulled in.
    /// The process's one-time costs (the runtime's first type checks, the clock) are paid before
    /// the first start's clock runs; what remains in the first entry of a type is that type's own
    /// first use (its metadata, its injection plan).
    public var startupReport: StartupReport {
        let (entries, criticalPath) = journal.analysedStartup
        return StartupReport(entries: entries, criticalPath: criticalPath)
    }
}
