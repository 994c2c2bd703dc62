import Trellis

// `request-protocols`: `request` as most apps type their properties — as protocols their
// objects adopt, so tests can replace them — against the same objects filled by hand, also
// typed as protocols. The made singletons are converted once and kept (Docs/DESIGN.md, "A
// singleton asked for as a protocol"); the service, a prototype asked for as a protocol, is cast
// by the runtime for every request.

protocol Logging: AnyObject {}
protocol Metering: AnyObject {}
protocol Timing: AnyObject {}
protocol Mailing: AnyObject {}
protocol Storing: AnyObject {}
protocol Configuring: AnyObject {}
protocol Reporting: AnyObject {}
protocol Identifying: AnyObject {}
protocol Authenticated: AnyObject {}
protocol Working: AnyObject {}
protocol OrderServicing: AnyObject {}

extension Logger: Logging {}
extension Metrics: Metering {}
extension Clock: Timing {}
extension Mailer: Mailing {}
extension Repository: Storing {}
extension Config: Configuring {}
extension MonthlyReport: Reporting {}
extension RequestID: Identifying {}
extension User: Authenticated {}
extension UnitOfWork: Working {}

/// `InjectedBase` with protocol-typed properties.
class ProtocolBase {
    @Inject var logger: any Logging
    @Inject var metrics: any Metering
    @Inject var clock: any Timing
}

/// `InjectedService` with protocol-typed properties.
final class ProtocolService: ProtocolBase, OrderServicing {
    @Inject var repository: any Storing
    @Inject var mailer: any Mailing
    @Inject var retryLimit: Int = 3
    @Inject var fraud: Leaf?
    @Inject(.lazy) var report: any Reporting
}

/// `InjectedHandler` with protocol-typed properties; its service is the app's prototype.
final class ProtocolHandler {
    @Inject var requestID: any Identifying
    @Inject var user: any Authenticated
    @Inject var unitOfWork: any Working
    @Inject("orderService") var service: any OrderServicing
    @Inject var logger: any Logging
    @Inject var config: any Configuring
}

/// `request`'s application with its service replaced by the protocol-typed one.
struct ProtocolServiceFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("orderService") { ProtocolService() }
    }
}

/// One request's context, with the protocol-typed handler.
struct ProtocolScopeFactory: ObjectFactory {
    let id: Int
    var definitions: Definitions {
        createSingleton("requestID") { [id] in RequestID(id) }
        createSingleton("user") { User() }
        createSingleton("unitOfWork") { UnitOfWork() }
        createSingleton("handler") { ProtocolHandler() }
    }
}

/// The same service and handler filled by hand, typed as protocols.
final class HandProtocolService: OrderServicing {
    var logger: (any Logging)?, metrics: (any Metering)?, clock: (any Timing)?
    var repository: (any Storing)?, mailer: (any Mailing)?, retryLimit = 3, fraud: Leaf?, report: (any Reporting)?
}

final class HandProtocolHandler {
    var requestID: (any Identifying)?, user: (any Authenticated)?, unitOfWork: (any Working)?, service: (any OrderServicing)?
    var logger: (any Logging)?, config: (any Configuring)?
}

/// `request-protocols`: `request` with every object-typed property typed as a protocol.
func protocolRequests(_ report: Report) {
    let app = warmRequestApp(try! ApplicationContext(RequestAppFactory(), overriding: ProtocolServiceFactory()))
    let config: any Configuring = try! app.object("config", as: Config.self)
    let repository: any Storing = try! app.object("repository", as: Repository.self)
    let logger: any Logging = try! app.object("logger", as: Logger.self)
    let metrics: any Metering = try! app.object("metrics", as: Metrics.self)
    let clock: any Timing = try! app.object("clock", as: Clock.self)
    let mailer: any Mailing = try! app.object("mailer", as: Mailer.self)
    report.measure("request-protocols", unit: "ns/request", [
        .nsPerOp("direct", ops: 100_000) { n in
            for i in 0..<n {
                let service = HandProtocolService()
                service.logger = logger; service.metrics = metrics; service.clock = clock
                service.repository = repository; service.mailer = mailer
                let handler = HandProtocolHandler()
                handler.requestID = RequestID(i); handler.user = User(); handler.unitOfWork = UnitOfWork()
                handler.service = service; handler.logger = logger; handler.config = config
                blackHole(handler.service)
            }
        },
        .nsPerOp("project", ops: 10_000) { n in
            for i in 0..<n {
                let request = try! ApplicationContext(ProtocolScopeFactory(id: i), parent: app)
                blackHole(try! request.object("handler", as: ProtocolHandler.self).service)
                try! request.close()
            }
        },
    ])
}
