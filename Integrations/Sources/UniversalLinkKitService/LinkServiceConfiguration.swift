public import Foundation
public import Logging
public import UniversalLinkKit
public import UniversalLinkKitPostgres
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The settings of `link-service`, read from the environment (``init(environment:fileDescriptorLimit:)``) or built
/// in code.
///
/// | Variable | Meaning | Default |
/// | --- | --- | --- |
/// | `HOST` | the address to listen on | `127.0.0.1` |
/// | `PORT` | the port to listen on (`0`: any free port) | `8080` |
/// | `LOG_LEVEL` | `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical` | `info` |
/// | `ULK_BRANDED_DOMAINS` | comma-separated host names (`*.example.net` for subdomains) whose links are resolved; required unless `ULK_ALLOW_LOCAL=1` | none |
/// | `ULK_ALLOW_LOCAL` | `1` also admits loopback and IP hosts, any port and `http`, for local runs and tests; the hosts are still only the branded domains, or the loopback hosts when none are set | `0` |
/// | `ULK_TIMEOUT_SECONDS` | the deadline of one resolution, in seconds (a decimal, at most 3600) | `10` |
/// | `ULK_DRAIN_SECONDS` | after SIGTERM, how long links are still resolved while `/readyz` already answers 503, so a load balancer stops sending (0 to 300) | `0` |
/// | `ULK_SHUTDOWN_GRACE_SECONDS` | after the drain, how long links in flight may still take (0 to 3600) | `10` |
/// | `ULK_ROUTES_FILE` | a route table JSON file, as `linux-host route` reads | none |
/// | `ULK_LOG_FULL_URLS` | `1` logs tracking links with their query and fragment (the recipient's identity): local debugging only | `0` |
/// | `ULK_IDLE_TIMEOUT_SECONDS` | a connection with no request in progress is closed after this | `15` |
/// | `ULK_HEADER_TIMEOUT_SECONDS` | a request's head must arrive whole within this of its first byte | `5` |
/// | `ULK_BODY_TIMEOUT_SECONDS` | a request's body must arrive whole within this of its head (a 64 KiB body at 13 KB/s at least) | `5` |
/// | `ULK_MAX_CONNECTIONS` | open connections at most; beyond, the oldest idle one is closed, else the one sending its request longest | 10 000, or the file-descriptor limit minus a reserve |
/// | `ULK_POSTGRES_URL` | `postgres://user[:password]@host[:port]/db` (or a Unix socket directory as the host): click claims shared by every replica on that database; `?sslmode=` as libpq (default `require` off loopback); unreachable or unusable at start (no TLS where `sslmode` needs it, a message over 1 MiB): exit 2 | none: claims stay in the process |
/// | `ULK_CLAIM_SECRET` | the key of the click hashes in the claims table, at least 16 bytes, the same on every replica; required with `ULK_POSTGRES_URL` | none |
/// | `ULK_CLAIMS_ON_FAILURE` | when the database fails mid-run: `local` resolves with this process's claims (duplicates across replicas possible), `reject` answers `503 claimStoreUnavailable` | `local` |
/// | `ULK_TRACING` | `w3c` continues the caller's W3C trace context (`traceparent`): the service's spans join the caller's trace, its log lines carry `trace_id` and `span_id`, each span is one `span` line at `debug`; `off` uses no tracer of its own (a host's bootstrapped one, if any). Nothing trace-related is sent to the Response Handler either way | `w3c` |
/// | `ULK_CA_FILE` | a PEM file of root certificates trusted instead of the system's for the Response Handler's HTTPS (a staging server or a corporate TLS proxy with a private CA); missing or without a certificate: exit 2 | the system's roots |
/// | `ULK_MAX_CONCURRENT_PER_HOST` | requests in progress to one Response Handler host at once (connections over HTTP/1.1, streams over HTTP/2), 1 to 1000 | `16` |
/// | `ULK_DUPLICATE_WINDOW_SECONDS` | how long a resolved click answers its duplicates (in the process and, with `ULK_POSTGRES_URL`, fleet-wide), 0 to 3600 | `2` |
///
/// Any other `ULK_` variable is refused as a probable typo.
public struct LinkServiceConfiguration: Sendable, Hashable {
    /// Why the environment does not make a usable configuration: the variable and what is wrong with it.
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
    /// The level of the service's logger. Default `info`; `debug` or `trace` shows the manager's events.
    public var logLevel: Logger.Level
    /// The hosts whose links are resolved (`ULK_BRANDED_DOMAINS`): host names, `*.example.net` for any subdomain.
    /// Empty is allowed only with ``allowsLocalHosts``, and then means the loopback hosts (``resolvedHosts``).
    public var brandedDomains: [String]
    /// Whether loopback and IP hosts, any port and `http` links are resolved (`ULK_ALLOW_LOCAL=1`), for local runs
    /// and tests. It widens what a link may look like, never which hosts: those stay ``resolvedHosts``.
    public var allowsLocalHosts: Bool
    /// The deadline of one resolution, retry and redirects included; also the longest a request waits. Default 10 s.
    public var timeout: Duration
    /// The route table file (`ULK_ROUTES_FILE`), if any: resolved links are routed through it and `POST /resolve`
    /// reports the matched route.
    public var routesFile: String?
    /// How long links are still resolved once shutdown began, with `/readyz` already answering 503
    /// (`ULK_DRAIN_SECONDS`, at most 300 s): the time a load balancer takes to stop sending. Default 0.
    public var drainPeriod: Duration
    /// How long in-flight resolutions may still take once the drain ended (`ULK_SHUTDOWN_GRACE_SECONDS`). Default 10 s.
    public var shutdownGracePeriod: Duration
    /// Whether logs show tracking links with their query and fragment (`ULK_LOG_FULL_URLS=1`). Default `false`.
    public var logsFullURLs: Bool
    /// How long a connection with no request in progress stays open (`ULK_IDLE_TIMEOUT_SECONDS`). Default 15 s.
    public var idleTimeout: Duration
    /// How long a request's head may take to arrive, from its first byte (`ULK_HEADER_TIMEOUT_SECONDS`). Default 5 s.
    public var headerTimeout: Duration
    /// How long a request's body may take to arrive, from the end of its head (`ULK_BODY_TIMEOUT_SECONDS`): a
    /// trickling client is cut like a slow head. Default 5 s.
    public var bodyTimeout: Duration
    /// The most connections open at once (`ULK_MAX_CONNECTIONS`); a new one beyond closes the oldest idle one, or
    /// is closed itself when every connection has a request in progress.
    public var maximumConnections: Int
    /// The database click claims are shared through (`ULK_POSTGRES_URL`), or `nil`: claims stay in the process.
    public var postgresURL: PostgresURL?
    /// The key of the click hashes in the claims table (`ULK_CLAIM_SECRET`); required with ``postgresURL``.
    public var claimSecret: [UInt8]?
    /// What a resolution does when the claims database fails (`ULK_CLAIMS_ON_FAILURE`). Default `.resolveLocally`.
    public var claimsOnFailure: ClaimStoreFailurePolicy
    /// How long a resolved click answers its duplicates (`ULK_DUPLICATE_WINDOW_SECONDS`). Default 2 s.
    public var duplicateWindow: Duration
    /// How requests are traced (`ULK_TRACING`). Default ``TraceMode/w3c``.
    public var tracing: TraceMode
    /// A PEM file of root certificates trusted instead of the system's for the Response Handler's HTTPS
    /// (`ULK_CA_FILE`), or `nil`: the system's roots.
    public var caFile: String?
    /// The most requests in progress to one Response Handler host at once (`ULK_MAX_CONCURRENT_PER_HOST`):
    /// connections over HTTP/1.1, streams over HTTP/2. Default 16.
    public var maximumConcurrentRequestsPerHost: Int

    /// How `link-service` traces its requests.
    public enum TraceMode: String, Sendable, Hashable, CaseIterable {
        /// Its own `W3CTracer`: the caller's `traceparent` is continued, spans are logged at `debug`, and every
        /// log line of a request carries `trace_id` and `span_id` (with main's metadata provider).
        case w3c
        /// No tracer of its own: `InstrumentationSystem.tracer`, a no-op unless the host bootstrapped one.
        case off
    }

    /// The hosts the manager resolves: ``brandedDomains``, or with ``allowsLocalHosts`` and no branded domains,
    /// the loopback hosts (`127.0.0.1`, `localhost`, `::1`).
    public var resolvedHosts: [String] {
        if brandedDomains.isEmpty && allowsLocalHosts { return ["127.0.0.1", "localhost", "::1", "[::1]"] }
        return brandedDomains
    }

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The address to listen on.
    ///   - port: The port; `0` picks a free one.
    ///   - logLevel: The level of the service's logger.
    ///   - brandedDomains: The hosts whose links are resolved.
    ///   - allowsLocalHosts: Admit loopback and IP hosts, any port and `http`.
    ///   - timeout: The resolution deadline.
    ///   - routesFile: A route table JSON file.
    ///   - drainPeriod: How long links are still resolved once shutdown began.
    ///   - shutdownGracePeriod: How long in-flight resolutions may take after the drain.
    ///   - logsFullURLs: Log tracking links with their query and fragment.
    ///   - idleTimeout: How long a connection with no request in progress stays open.
    ///   - headerTimeout: How long a request's head may take to arrive.
    ///   - bodyTimeout: How long a request's body may take to arrive.
    ///   - maximumConnections: The most connections open at once.
    ///   - postgresURL: The database click claims are shared through.
    ///   - claimSecret: The key of the click hashes, at least 16 bytes.
    ///   - claimsOnFailure: What a resolution does when the claims database fails.
    ///   - duplicateWindow: How long a resolved click answers its duplicates.
    ///   - tracing: How requests are traced.
    ///   - caFile: A PEM file of roots trusted instead of the system's.
    ///   - maximumConcurrentRequestsPerHost: Requests in progress to one host at once.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        logLevel: Logger.Level = .info,
        brandedDomains: [String] = [],
        allowsLocalHosts: Bool = false,
        timeout: Duration = .seconds(10),
        routesFile: String? = nil,
        drainPeriod: Duration = .zero,
        shutdownGracePeriod: Duration = .seconds(10),
        logsFullURLs: Bool = false,
        idleTimeout: Duration = .seconds(15),
        headerTimeout: Duration = .seconds(5),
        bodyTimeout: Duration = .seconds(5),
        maximumConnections: Int = 10_000,
        postgresURL: PostgresURL? = nil,
        claimSecret: [UInt8]? = nil,
        claimsOnFailure: ClaimStoreFailurePolicy = .resolveLocally,
        duplicateWindow: Duration = .seconds(2),
        tracing: TraceMode = .w3c,
        caFile: String? = nil,
        maximumConcurrentRequestsPerHost: Int = 16
    ) {
        self.host = host
        self.port = port
        self.logLevel = logLevel
        self.brandedDomains = brandedDomains
        self.allowsLocalHosts = allowsLocalHosts
        self.timeout = timeout
        self.routesFile = routesFile
        self.drainPeriod = drainPeriod
        self.shutdownGracePeriod = shutdownGracePeriod
        self.logsFullURLs = logsFullURLs
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumConnections = maximumConnections
        self.postgresURL = postgresURL
        self.claimSecret = claimSecret
        self.claimsOnFailure = claimsOnFailure
        self.duplicateWindow = duplicateWindow
        self.tracing = tracing
        self.caFile = caFile
        self.maximumConcurrentRequestsPerHost = maximumConcurrentRequestsPerHost
    }

    /// The variables ``init(environment:fileDescriptorLimit:)`` reads; any other `ULK_` variable is refused.
    public static let variables: Set<String> = [
        "HOST", "PORT", "LOG_LEVEL", "ULK_BRANDED_DOMAINS", "ULK_ALLOW_LOCAL", "ULK_TIMEOUT_SECONDS",
        "ULK_SHUTDOWN_GRACE_SECONDS", "ULK_DRAIN_SECONDS", "ULK_ROUTES_FILE", "ULK_LOG_FULL_URLS",
        "ULK_IDLE_TIMEOUT_SECONDS", "ULK_HEADER_TIMEOUT_SECONDS", "ULK_BODY_TIMEOUT_SECONDS", "ULK_MAX_CONNECTIONS", "ULK_POSTGRES_URL", "ULK_CLAIM_SECRET",
        "ULK_CLAIMS_ON_FAILURE", "ULK_DUPLICATE_WINDOW_SECONDS", "ULK_TRACING", "ULK_CA_FILE",
        "ULK_MAX_CONCURRENT_PER_HOST",
    ]

    /// Descriptors kept out of the connection limit: the listening socket, the Response Handler connections, the
    /// route table, the logs.
    public static let reservedFileDescriptors = 1024

    /// The open-file limit of this process (`RLIMIT_NOFILE`, soft).
    public static var fileDescriptorLimit: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        // RLIM_INFINITY is the largest value: clamped like any limit above Int32.max.
        return Int(clamping: min(UInt64(limit.rlim_cur), UInt64(Int32.max)))
    }

    /// The default connection limit under `fileDescriptorLimit` descriptors: 10 000, or fewer so that
    /// ``reservedFileDescriptors`` (at most half the limit) stay free. 20 000 descriptors: 10 000; 1 024: 512.
    ///
    /// - Parameter fileDescriptorLimit: The process's open-file limit.
    /// - Returns: The limit.
    public static func defaultMaximumConnections(fileDescriptorLimit: Int) -> Int {
        max(1, min(10_000, fileDescriptorLimit - min(reservedFileDescriptors, fileDescriptorLimit / 2)))
    }

    /// Reads the configuration from environment variables (the table on ``LinkServiceConfiguration``), refusing
    /// every value it cannot use.
    ///
    /// - Parameters:
    ///   - environment: The variables, by default the process's.
    ///   - fileDescriptorLimit: The open-file limit the connection limit must stay under; by default the
    ///     process's.
    /// - Throws: ``Error`` naming the first variable that is malformed, unusable, missing or unknown.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        fileDescriptorLimit: Int = LinkServiceConfiguration.fileDescriptorLimit
    ) throws(Error) {
        self.init(maximumConnections: Self.defaultMaximumConnections(fileDescriptorLimit: fileDescriptorLimit))
        for name in environment.keys.sorted() where name.hasPrefix("ULK_") && !Self.variables.contains(name) {
            throw Error(
                variable: name,
                message: "unknown variable (a typo?); link-service reads "
                    + Self.variables.filter { $0.hasPrefix("ULK_") }.sorted().joined(separator: ", ")
            )
        }
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        if let host = value("HOST") { self.host = host }
        if let text = value("PORT") {
            guard let port = Int(text), (0...65535).contains(port) else {
                throw Error(variable: "PORT", message: "expected a port number from 0 to 65535, found \"\(text)\"")
            }
            self.port = port
        }
        if let text = value("LOG_LEVEL") {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw Error(variable: "LOG_LEVEL", message: "expected one of \(levels), found \"\(text)\"")
            }
            logLevel = level
        }
        allowsLocalHosts = try Self.flag("ULK_ALLOW_LOCAL", value("ULK_ALLOW_LOCAL"), meaning: "allow loopback hosts and http")
        logsFullURLs = try Self.flag("ULK_LOG_FULL_URLS", value("ULK_LOG_FULL_URLS"), meaning: "log links with their query")
        brandedDomains = (environment["ULK_BRANDED_DOMAINS"] ?? "")
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        for entry in brandedDomains where !Self.isHostName(entry) {
            throw Error(
                variable: "ULK_BRANDED_DOMAINS",
                message: "\"\(entry)\" is not a host name: list hosts only, without scheme, port or path"
                    + " (news.example.com,*.example.net)"
            )
        }
        if brandedDomains.isEmpty && !allowsLocalHosts {
            throw Error(
                variable: "ULK_BRANDED_DOMAINS",
                message: "set the comma-separated hosts of your tracking links (news.example.com,click.example.com),"
                    + " or ULK_ALLOW_LOCAL=1 for a local run against a loopback Response Handler"
            )
        }
        if let text = value("ULK_TIMEOUT_SECONDS") {
            timeout = try Self.seconds("ULK_TIMEOUT_SECONDS", text, allowsZero: false)
        }
        if let text = value("ULK_SHUTDOWN_GRACE_SECONDS") {
            shutdownGracePeriod = try Self.seconds("ULK_SHUTDOWN_GRACE_SECONDS", text, allowsZero: true)
        }
        if let text = value("ULK_DRAIN_SECONDS") {
            drainPeriod = try Self.seconds("ULK_DRAIN_SECONDS", text, allowsZero: true, most: 300)
        }
        if let text = value("ULK_BODY_TIMEOUT_SECONDS") {
            bodyTimeout = try Self.seconds("ULK_BODY_TIMEOUT_SECONDS", text, allowsZero: false)
        }
        if let text = value("ULK_IDLE_TIMEOUT_SECONDS") {
            idleTimeout = try Self.seconds("ULK_IDLE_TIMEOUT_SECONDS", text, allowsZero: false)
        }
        if let text = value("ULK_HEADER_TIMEOUT_SECONDS") {
            headerTimeout = try Self.seconds("ULK_HEADER_TIMEOUT_SECONDS", text, allowsZero: false)
        }
        if let text = value("ULK_MAX_CONNECTIONS") {
            let ceiling = fileDescriptorLimit - 64
            guard let limit = Int(text), limit >= 1 else {
                throw Error(variable: "ULK_MAX_CONNECTIONS", message: "expected a whole number of connections, at least 1, found \"\(text)\"")
            }
            guard limit <= ceiling else {
                throw Error(
                    variable: "ULK_MAX_CONNECTIONS",
                    message: "\(limit) connections would not fit under the file-descriptor limit (\(fileDescriptorLimit));"
                        + " use at most \(ceiling), or raise the limit (ulimit -n)"
                )
            }
            maximumConnections = limit
        }
        if let path = value("ULK_ROUTES_FILE") { routesFile = path }
        if let text = value("ULK_DUPLICATE_WINDOW_SECONDS") {
            duplicateWindow = try Self.seconds("ULK_DUPLICATE_WINDOW_SECONDS", text, allowsZero: true)
        }
        if let text = value("ULK_TRACING") {
            guard let mode = TraceMode(rawValue: text) else {
                throw Error(
                    variable: "ULK_TRACING",
                    message: "expected w3c (continue the caller's traceparent, spans in the log at debug) or off, found \"\(text)\""
                )
            }
            tracing = mode
        }
        if let path = value("ULK_CA_FILE") { caFile = try Self.certificateFile("ULK_CA_FILE", path) }
        if let text = value("ULK_MAX_CONCURRENT_PER_HOST") {
            guard let limit = Int(text), (1...1000).contains(limit) else {
                throw Error(
                    variable: "ULK_MAX_CONCURRENT_PER_HOST",
                    message: "expected a whole number of requests from 1 to 1000, found \"\(text)\"")
            }
            maximumConcurrentRequestsPerHost = limit
        }
        try readClaims(value)
    }

    /// `path`, when it is a readable file of at most 8 MiB with at least one PEM certificate: checked at start, so
    /// a wrong file stops the service before it takes a link instead of failing every resolution.
    private static func certificateFile(_ variable: String, _ path: String) throws(Error) -> String {
        let url = URL(fileURLWithPath: path)
        let size = (try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]))
        guard size?.isRegularFile == true, let data = try? Data(contentsOf: url) else {
            throw Error(variable: variable, message: "'\(path)' is not a readable file")
        }
        guard data.count <= 8 << 20, String(decoding: data, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw Error(variable: variable, message: "'\(path)' is not a PEM file of certificates (no -----BEGIN CERTIFICATE----- block)")
        }
        return path
    }

    /// `ULK_POSTGRES_URL`, `ULK_CLAIM_SECRET`, `ULK_CLAIMS_ON_FAILURE`: the fleet's claim store.
    private mutating func readClaims(_ value: (String) -> String?) throws(Error) {
        if let text = value("ULK_CLAIMS_ON_FAILURE") {
            switch text {
            case "local": claimsOnFailure = .resolveLocally
            case "reject": claimsOnFailure = .reject
            default:
                throw Error(
                    variable: "ULK_CLAIMS_ON_FAILURE",
                    message: "expected local (resolve with this process's claims when the database fails) or reject"
                        + " (answer 503 claimStoreUnavailable), found \"\(text)\""
                )
            }
        }
        let secret = value("ULK_CLAIM_SECRET")
        guard let text = value("ULK_POSTGRES_URL") else {
            if secret != nil {
                throw Error(
                    variable: "ULK_CLAIM_SECRET",
                    message: "set without ULK_POSTGRES_URL, so claims would not be shared: set ULK_POSTGRES_URL too, or remove it"
                )
            }
            return
        }
        do {
            postgresURL = try PostgresURL(text)
        } catch {
            throw Error(variable: "ULK_POSTGRES_URL", message: error.message)
        }
        guard let secret else {
            throw Error(
                variable: "ULK_CLAIM_SECRET",
                message: "required with ULK_POSTGRES_URL: at least \(PostgresClaimStore.Configuration.minimumSecretLength)"
                    + " random bytes (openssl rand -hex 32), the same on every replica"
            )
        }
        do {
            try PostgresClaimStore.Configuration(secret: Array(secret.utf8)).validate()
        } catch {
            throw Error(variable: "ULK_CLAIM_SECRET", message: error.message)
        }
        claimSecret = Array(secret.utf8)
    }

    /// `0` / `1`.
    private static func flag(_ name: String, _ text: String?, meaning: String) throws(Error) -> Bool {
        guard let text else { return false }
        guard text == "1" || text == "0" else {
            throw Error(variable: name, message: "expected 1 (\(meaning)) or 0, found \"\(text)\"")
        }
        return text == "1"
    }

    /// A decimal number of seconds, greater than 0 (or equal, with `allowsZero`), at most `most` (an hour).
    private static func seconds(_ name: String, _ text: String, allowsZero: Bool, most: Double = 3600) throws(Error) -> Duration {
        guard let seconds = Double(text), seconds.isFinite, allowsZero ? seconds >= 0 : seconds > 0, seconds <= most else {
            let least = allowsZero ? "0 or more" : "greater than 0"
            throw Error(variable: name, message: "expected seconds \(least) (at most \(Int(most))), found \"\(text)\"")
        }
        return .milliseconds((seconds * 1000).rounded())
    }

    /// A DNS host name (letters, digits, `-`, non-ASCII letters of an internationalised name; labels of 1 to 63
    /// characters), optionally `*.`-prefixed, or an IP address.
    static func isHostName(_ text: String) -> Bool {
        var name = Substring(text.lowercased())
        if name.hasPrefix("*.") { name = name.dropFirst(2) }
        if name.hasSuffix(".") { name = name.dropLast() }
        if name.contains(":") {
            // An IPv6 literal, with or without brackets.
            let bare = name.hasPrefix("[") && name.hasSuffix("]") ? name.dropFirst().dropLast() : name
            return !bare.isEmpty && bare.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        guard !name.isEmpty, name.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { $0.value > 0x7F || ($0.properties.isASCIIHexDigit || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-") }
        }
    }
}
