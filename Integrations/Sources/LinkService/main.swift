// `link-service`: the server counterpart of `linux-host`. Reads its settings from the environment (see
// LinkServiceConfiguration), then serves until SIGTERM or SIGINT, after which it stops accepting, finishes the
// requests in flight and exits 0.
import Foundation
import LinkServiceCore
import Logging
import ServiceLifecycle
import UnixSignals

LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
    return handler
}
let logger = Logger(label: "link-service")

let configuration: LinkServiceConfiguration
do {
    configuration = try LinkServiceConfiguration()
} catch {
    FileHandle.standardError.write(Data("link-service: \(error)\n".utf8))
    exit(2)
}

do {
    let application = try buildApplication(configuration: configuration, logger: logger)
    let services = ServiceGroup(
        configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    )
    try await services.run()
} catch {
    logger.error("link-service stopped", metadata: ["error": .string("\(error)")])
    exit(1)
}
