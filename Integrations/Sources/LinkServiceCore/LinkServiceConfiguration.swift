public import Foundation

/// The settings of `link-service`, read from the environment by `main` or built by tests.
///
/// | Variable | Meaning | Default |
/// | --- | --- | --- |
/// | `HOST` | the address to listen on | `127.0.0.1` |
/// | `PORT` | the port to listen on (`0`: any free port) | `8080` |
/// | `ULK_BRANDED_DOMAINS` | comma-separated hosts whose links are resolved; required unless `ULK_ALLOW_LOCAL=1` | none |
/// | `ULK_ALLOW_LOCAL` | `1` admits loopback hosts and `http`, for local runs and tests | off |
/// | `ULK_TIMEOUT_SECONDS` | the deadline of one resolution, in seconds (a decimal) | `10` |
/// | `ULK_ROUTES_FILE` | a route table JSON file, as `linux-host route` reads | none |
public struct LinkServiceConfiguration: Sendable, Hashable {
    /// Why the environment does not make a configuration: the variable and what is wrong with it.
    public struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// The environment variable at fault.
        public var variable: String
        /// What is wrong and what to do about it.
        public var message: String

        /// Creates an error.
        ///
        /// - Parameters:
        ///   - variable: The variable at fault.
        ///   - message: What is wrong and what to do.
        public init(variable: String, message: String) {
            self.variable = variable
            self.message = message
        }

        /// `"<variable>: <message>"`.
        public var description: String { "\(variable): \(message)" }
    }

    /// The address to listen on. Default `127.0.0.1`.
    public var host: String
    /// The port to listen on; `0` picks a free one. Default 8080.
    public var port: Int
    /// The hosts whose links are resolved (`ULK_BRANDED_DOMAINS`). Empty means any host the policy admits, which
    /// is allowed only with ``allowsLocalHosts``.
    public var brandedDomains: [String]
    /// Whether loopback hosts and `http` links are resolved (`ULK_ALLOW_LOCAL=1`), for local runs and tests.
    public var allowsLocalHosts: Bool
    /// The deadline of one resolution, retry and redirects included; also the longest a request waits. Default 10 s.
    public var timeout: Duration
    /// The route table file (`ULK_ROUTES_FILE`), if any: resolved links are routed through it and `POST /resolve`
    /// reports the matched route.
    public var routesFile: String?
    /// How long in-flight resolutions may still take once shutdown began. Default 10 s.
    public var shutdownGracePeriod: Duration

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The address to listen on.
    ///   - port: The port; `0` picks a free one.
    ///   - brandedDomains: The hosts whose links are resolved.
    ///   - allowsLocalHosts: Admit loopback hosts and `http`.
    ///   - timeout: The resolution deadline.
    ///   - routesFile: A route table JSON file.
    ///   - shutdownGracePeriod: How long in-flight resolutions may take after shutdown began.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        brandedDomains: [String] = [],
        allowsLocalHosts: Bool = false,
        timeout: Duration = .seconds(10),
        routesFile: String? = nil,
        shutdownGracePeriod: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.brandedDomains = brandedDomains
        self.allowsLocalHosts = allowsLocalHosts
        self.timeout = timeout
        self.routesFile = routesFile
        self.shutdownGracePeriod = shutdownGracePeriod
    }

    /// Reads the configuration from environment variables (the table on ``LinkServiceConfiguration``).
    ///
    /// - Parameter environment: The variables, by default the process's.
    /// - Throws: ``Error`` naming the variable that is missing or malformed.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(Error) {
        self.init(host: "127.0.0.1")
        if let host = environment["HOST"], !host.isEmpty { self.host = host }
        if let text = environment["PORT"], !text.isEmpty {
            guard let port = Int(text), (0...65535).contains(port) else {
                throw Error(variable: "PORT", message: "expected a port number from 0 to 65535, found \"\(text)\"")
            }
            self.port = port
        }
        if let text = environment["ULK_ALLOW_LOCAL"], !text.isEmpty {
            guard text == "1" || text == "0" else {
                throw Error(variable: "ULK_ALLOW_LOCAL", message: "expected 1 (allow loopback hosts and http) or 0, found \"\(text)\"")
            }
            allowsLocalHosts = text == "1"
        }
        brandedDomains = (environment["ULK_BRANDED_DOMAINS"] ?? "")
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        if brandedDomains.isEmpty && !allowsLocalHosts {
            throw Error(
                variable: "ULK_BRANDED_DOMAINS",
                message: "set the comma-separated hosts of your tracking links (news.example.com,click.example.com),"
                    + " or ULK_ALLOW_LOCAL=1 for a local run against a loopback Response Handler"
            )
        }
        if let text = environment["ULK_TIMEOUT_SECONDS"], !text.isEmpty {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw Error(variable: "ULK_TIMEOUT_SECONDS", message: "expected seconds greater than 0 (at most 3600), found \"\(text)\"")
            }
            timeout = .seconds(seconds)
        }
        if let path = environment["ULK_ROUTES_FILE"], !path.isEmpty { routesFile = path }
    }
}
