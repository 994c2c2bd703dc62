/// The one-time costs of the first start in a process (the runtime's first conformance scans,
/// the clock, this thread's state, the first reflection), paid before the first start-up clock
/// runs, so `startupReport` does not charge them to the first eager singleton.
enum StartupWarmUp {
    private static let done: Void = {
        _ = ThreadState.current
        _ = ContinuousClock.now
        let probe: Any.Type = StartupWarmUp.self
        _ = probe is any InjectionAware.Type
        _ = probe is any Disposable.Type
        _ = probe is any AsyncDisposable.Type
        _ = probe is any OptionalProtocol.Type
        _ = probe is AnyObject.Type
        _ = InjectionPlan.of(probe)
    }()

    static func once() { done }
}
