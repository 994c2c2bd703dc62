import Testing
import Trellis

extension Trait where Self == ContextTrait {
    /// A fresh context from `factory` for each test, current for the body, closed after it.
    ///
    /// ```swift
    /// @Test(.context(AppFactory()))
    /// func reportsUseTheConfiguredCurrency() throws {
    ///     let report = MonthlyReport()       // @Inject properties resolve from the test's context
    ///     #expect(report.currency == "EUR")
    /// }
    /// ```
    public static func context(_ factory: some ObjectFactory) -> Self {
        ContextTrait { try await ApplicationContext(factory) }
    }

    /// A fresh context from `factory` with the definitions of `overrides` replacing theirs (as
    /// `ApplicationContext.init(_:overriding:parent:)` does), for each test.
    ///
    /// ```swift
    /// @Test(.context(AppFactory(), overriding: TestDoubles()))
    /// func checkoutChargesTheCard() throws { … }
    /// ```
    ///
    /// An override of a key `factory` does not define fails the test with
    /// `ContextError.overrideOfUnknownKey(key:context:aliasOf:)`.
    public static func context(_ factory: some ObjectFactory, overriding overrides: some ObjectFactory) -> Self {
        ContextTrait { try await ApplicationContext(factory, overriding: overrides) }
    }

    /// A context built by `make` for each test: for set-ups the factory forms do not cover, such
    /// as a child of a shared parent.
    ///
    /// ```swift
    /// @Test(.context { try await ApplicationContext(RequestFactory(), parent: Shared.app) })
    /// func handlesARequest() async throws { … }
    /// ```
    ///
    /// The trait closes the context after the test; a shared parent stays open.
    public static func context(_ make: @escaping @Sendable () async throws -> ApplicationContext) -> Self {
        ContextTrait(makeContext: make)
    }
}
