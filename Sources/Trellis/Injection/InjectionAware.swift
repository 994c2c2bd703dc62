/// A class that wants to know when the context has injected all its `@Inject` properties.
///
/// ```swift
/// final class Dashboard: InjectionAware {
///     @Inject var analytics: Analytics?
///     func didInject(from context: ApplicationContext) {
///         if analytics == nil { analytics = NoAnalytics() }
///     }
/// }
/// ```
public protocol InjectionAware: AnyObject {
    /// Called once per object, after every `@Inject` property (superclasses' included) has been
    /// injected, on the thread that made or injected it: the place for defaults and set-up that
    /// needs the collaborators.
    func didInject(from context: ApplicationContext)
}
