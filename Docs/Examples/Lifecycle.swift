// Support for the code of Docs/Lifecycle.md, checked by .ci/check-docs: the app's objects. The
// disposable ones release their resources in `dispose()`; the bodies are left out here.
import Trellis

final class Config: Sendable {}

final class DatabasePool: Disposable, Sendable {
    init(config: Config) {}
    func connection() -> Int { 1 }
    func dispose() throws { /* close every connection */ }
}

final class OrderRepository: Disposable, Sendable {
    init(database: DatabasePool) {}
    func dispose() { /* flush pending writes */ }
}

final class PaymentService: Disposable, Sendable {
    init(database: DatabasePool) {}
    func dispose() { /* cancel open authorisations */ }
}

final class AuditLog: Disposable, Sendable {
    func dispose() { /* close the log file */ }
}

struct AuditEntry: Sendable {
    init(log: AuditLog) {}
}

final class Checkout: Disposable, Sendable {
    init(orders: OrderRepository, payments: PaymentService, audit: AuditEntry) {}
    func dispose() { /* abandon unfinished checkouts */ }
}

final class Metrics: Disposable, Sendable {
    func dispose() { /* send the last batch */ }
}

// The request scope.

struct RequestInfo: Sendable {
    let id: Int
}

final class UnitOfWork: Disposable, Sendable {
    init(database: DatabasePool) {}
    func dispose() { /* commit or roll back, give the connection back */ }
}

final class Handler: Sendable {
    init(request: RequestInfo, unitOfWork: UnitOfWork, orders: OrderRepository) {}
    func respond() -> String { "ok" }
}
