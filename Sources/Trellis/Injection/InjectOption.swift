/// How an `@Inject` property is filled.
public enum InjectOption: Sendable, Hashable {
    /// Looked up on first access instead of at injection time, made once even when several
    /// threads read it first at the same moment. Holds its context weakly.
    case lazy
}
