import Testing
import Trellis

/// A Swift Testing trait that gives each test a fresh `ApplicationContext`, current
/// for the test body and closed after it.
///
/// Made with ``context(_:)-2d2kn`` or ``context(_:overriding:)``:
///
/// ```swift
/// @Test(.context(AppFactory(), overriding: TestDoubles()))
/// func checkoutChargesTheCard() throws {
///     let screen = CheckoutScreen()          // plain init: @Inject reads the test's context
///     try screen.pay()
/// }
/// ```
///
/// Each test, and each argument of a parameterised test, gets a context of its own, built with
/// the async initialiser (so async eager singletons are started), bound with
/// `ApplicationContext.withCurrent(isolation:_:)` for the body (and the child tasks it
/// starts), and closed with `ApplicationContext.close()` when the body returns or
/// throws. Tests using the trait may run in parallel: each sees only its own context through
/// `ApplicationContext.current`.
///
/// On a suite the trait applies to every test in it, one context per test. The innermost
/// `.context` trait replaces the others: a test's own trait is the only one built for it (the
/// suite's factory, with its eager singletons, is not), and a nested suite's replaces its outer
/// suite's.
///
/// A context that fails to build fails the test before its body runs, with the
/// `ContextError`; one that fails to close (a `dispose` threw) fails the test after it.
public struct ContextTrait: TestTrait, SuiteTrait, TestScoping {
    /// Builds the context for one test case.
    let makeContext: @Sendable () async throws -> ApplicationContext

    /// Tells this trait from the others a test inherits: only the innermost provides a scope.
    private let identity = Identity()

    /// A reference compared by identity.
    private final class Identity: Sendable {}

    /// The trait whose scope the current task runs in (set while its context is built and its
    /// test body runs).
    @TaskLocal private static var providing: Identity?

    init(makeContext: @escaping @Sendable () async throws -> ApplicationContext) {
        self.makeContext = makeContext
    }

    /// Applied to every test of a suite, and to every case of a parameterised test, one context
    /// each.
    public var isRecursive: Bool { true }

    /// A scope for each test case, from the innermost `.context` trait of the test alone (a
    /// test's own trait replaces its suite's, a nested suite's its outer suite's); none for a
    /// suite as a whole (its tests get their own).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> ContextTrait? {
        guard testCase != nil else { return nil }
        // A test's traits list the ones it inherits from its suites first, outermost first,
        // then its own.
        guard let innermost = test.traits.last(where: { $0 is ContextTrait }) as? ContextTrait else { return self }
        return innermost.identity === identity ? self : nil
    }

    /// Builds the context, runs the test with it current, and closes it.
    ///
    /// - Throws: The error that built or closed the context, or the test's own error (the
    ///   context is closed first, and a failure to close is then recorded as an issue).
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The same trait value on a suite and on its test is one trait: its scope is provided
        // once, by the outer occurrence (the inner one runs inside it).
        if Self.providing === identity { return try await function() }
        try await Self.$providing.withValue(identity) {
            let context = try await makeContext()
            do {
                try await context.withCurrent { try await function() }
            } catch {
                do {
                    try await context.close()
                } catch let closing {
                    Issue.record(closing, "the test's context failed to close after the test threw")
                }
                throw error
            }
            try await context.close()
        }
    }
}
