// `link-service`: the server counterpart of `linux-host`. Reads its settings from the environment (see
// LinkServiceConfiguration), then serves until SIGTERM or SIGINT, after which it shuts down within the drain and
// grace periods plus one second and exits 0. A configuration it cannot use (a port in use, a database it may not
// use) exits 2 with one line naming the variable.
import Foundation
import Logging
import UniversalLinkKitService
import UniversalLinkKitTracing

func refuse(_ error: LinkServiceConfiguration.Error) -> Never {
    FileHandle.standardError.write(Data("link-service: \(error)\n".utf8))
    exit(2)
}

let configuration: LinkServiceConfiguration
do {
    configuration = try LinkServiceConfiguration()
} catch {
    refuse(error)
}

// Every line written inside a request's span carries the trace's `trace_id` and `span_id` (ULK_TRACING=w3c).
LoggingSystem.bootstrap({ label, metadataProvider in
    var handler = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
    handler.logLevel = configuration.logLevel
    return handler
}, metadataProvider: traceMetadataProvider)
let logger = Logger(label: "link-service")

let service: LinkService
do {
    service = try LinkService(configuration: configuration, logger: logger)
} catch {
    refuse(error)
}

do {
    try await service.run()
} catch let error as LinkServiceConfiguration.Error {
    // The claims database unreachable at start: a configuration to fix, like any other.
    refuse(error)
} catch {
    logger.error("link-service stopped", metadata: ["error": .string("\(error)")])
    exit(1)
}
