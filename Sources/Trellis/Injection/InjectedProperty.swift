/// `$property` of an `@Inject` property: reads it without stopping the program.
///
/// ```swift
/// final class ReportScreen {
///     @Inject(.lazy) var report: ReportBuilder
///     func show() {
///         do { render(try $report.get()) } catch { showError(error) }
///     }
/// }
/// ```
public struct InjectedProperty<Value> {
    @usableFromInline let storage: Inject<Value>.Storage
    @usableFromInline let header: InjectHeader
    /// How to learn the property's name, for a class instance's property.
    @usableFromInline let naming: PropertyNaming?

    @inlinable
    init(storage: Inject<Value>.Storage, header: InjectHeader, naming: PropertyNaming?) {
        self.storage = storage
        self.header = header
        self.naming = naming
    }

    /// The property's value: the injected object, the object looked up now (a `.lazy` property
    /// or one resolved from the current context, on first read), the default value, or `nil` for
    /// an optional that found nothing.
    ///
    /// - Throws: what the lookup throws (``ContextError/noSuchObject(key:searched:path:)``,
    ///   ``ContextError/requiresAwait(key:path:)``, …), or
    ///   ``ContextError/neverInjected(property:declaredAt:)`` for a required property that was
    ///   never injected and had no current context.
    public func get() throws(ContextError) -> Value {
        try value()
    }

    /// As ``get()``, and a lazy lookup that needs an async definition awaits it.
    public func get() async throws(ContextError) -> Value {
        if case let .lazy(lazy) = storage { return try await lazy.valueAsync(naming: naming) }
        return try value()
    }

    private func value() throws(ContextError) -> Value {
        switch storage {
        case let .value(value):
            return value
        case let .lazy(lazy):
            return try lazy.value(naming: naming)
        case let .pending(fallback):
            if let fallback { return fallback }
            if let none = OptionalNone.value(of: Value.self) { return none }
            throw .neverInjected(property: header.key ?? naming?.name() ?? "of type \(Value.self)", declaredAt: "\(header.file):\(header.line)")
        }
    }
}

extension InjectedProperty: Sendable where Value: Sendable {}
