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
    @inlinable
    public func get() throws(ContextError) -> Value {
        try value()
    }

    /// As ``get()``, and a lazy lookup that needs an async definition awaits it.
    @inlinable
    public func get() async throws(ContextError) -> Value {
        if case let .lazy(lazy) = storage {
            if let made = lazy.madeValue { return made }
            return try await lazy.valueAsync(naming: naming)
        }
        return try value()
    }

    /// Inlined into the caller, specialised for `Value`: taken apart in the library's
    /// unspecialised code, the storage's metadata was fetched on every call (1,373 instructions a
    /// `get()` of an injected property, against 254 for a read).
    @inlinable
    func value() throws(ContextError) -> Value {
        switch storage {
        case let .value(value):
            return value
        case let .lazy(lazy):
            if let made = lazy.madeValue { return made }
            return try lazy.value(naming: naming)
        case let .pending(fallback):
            if let fallback { return fallback }
            if let none = OptionalNone.value(of: Value.self) { return none }
            throw neverInjected()
        }
    }

    /// The error of a required property never injected, with no current context then.
    @usableFromInline
    func neverInjected() -> ContextError {
        .neverInjected(property: header.key ?? naming?.name() ?? "of type \(Value.self)", declaredAt: "\(header.file):\(header.line)")
    }
}

extension InjectedProperty: Sendable where Value: Sendable {}
