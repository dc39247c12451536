import Foundation

/// A PostgreSQL connection URL, as `ULK_POSTGRES_URL` takes it: where ``PostgresClaimStore`` connects, as whom,
/// and with what TLS.
///
/// Forms:
/// - `postgres://user[:password]@host[:port]/database` (port 5432 by default; `postgresql://` too);
/// - a Unix socket directory as the host, percent-encoded (`postgres://user@%2Fvar%2Frun%2Fpostgresql/links`) or
///   as `?host=/var/run/postgresql`; the socket is `<directory>/.s.PGSQL.<port>`;
/// - `?sslmode=` as libpq reads it: `disable` (plaintext, no TLS request), `prefer` (TLS when the server offers
///   it, unverified; plaintext when it declines), `require` (TLS, unverified; a server that declines TLS is refused),
///   `verify-ca` (TLS, a chain to a trusted root), `verify-full` (TLS, a trusted chain and the host's name);
///   `?sslrootcert=FILE` names the PEM roots the `verify-` modes trust instead of the system's.
///   The default is `require` for a host that is not a loopback address (a network attacker cannot turn the
///   connection into plaintext), `prefer` for a loopback host, and `disable` over a Unix socket. Use `verify-full`
///   wherever the network between the replicas and the database is not trusted: `require` resists a passive
///   listener, not an attacker who answers in the database's place.
///
/// ``redacted`` is the form to log: the password replaced by `***`.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// The user name.
    public var username: String
    /// The password, if the URL has one.
    public var password: String?
    /// The host name or address, or `nil` over a Unix socket.
    public var host: String?
    /// The Unix socket directory, or `nil` over TCP.
    public var socketDirectory: String?
    /// The port (also the socket file's number).
    public var port: Int
    /// The database.
    public var database: String
    /// `disable`, `prefer`, `require`, `verify-ca` or `verify-full`.
    public var sslMode: String
    /// The PEM file of the roots the `verify-` modes trust (`sslrootcert`), or `nil`: the system's roots.
    public var sslRootCertificate: String?

    /// Parses a URL.
    ///
    /// - Parameter text: The URL.
    /// - Throws: ``PostgresClaimStoreError`` with ``PostgresClaimStoreError/Code/invalidConfiguration`` saying which
    ///   part is wrong; the message never repeats the password.
    public init(_ text: String) throws(PostgresClaimStoreError) {
        func invalid(_ message: String) -> PostgresClaimStoreError {
            PostgresClaimStoreError(code: .invalidConfiguration, message: message)
        }
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else {
            throw invalid("expected postgres://user[:password]@host[:port]/database")
        }
        guard let user = components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else {
            throw invalid("the URL names no user: postgres://user@host/database")
        }
        username = user
        password = components.percentEncodedPassword?.removingPercentEncoding
        port = components.port ?? 5432
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else {
            throw invalid("the URL names no database: postgres://user@host/database")
        }
        database = path
        let query = components.queryItems ?? []
        let hostParameter = query.last { $0.name == "host" }?.value
        let rawHost = hostParameter ?? components.percentEncodedHost?.removingPercentEncoding ?? ""
        if rawHost.hasPrefix("/") {
            socketDirectory = rawHost
            host = nil
        } else if !rawHost.isEmpty {
            host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
            socketDirectory = nil
        } else {
            throw invalid("the URL names no host: postgres://user@host/database, or ?host=/socket/directory")
        }
        let loopback = host.map { ["localhost", "127.0.0.1", "::1"].contains($0.lowercased()) || $0.hasPrefix("127.") } ?? false
        let mode = query.last { $0.name == "sslmode" }?.value ?? (socketDirectory != nil ? "disable" : loopback ? "prefer" : "require")
        guard Self.sslModes.contains(mode) else {
            throw invalid("sslmode \"\(mode)\" is not one of \(Self.sslModes.joined(separator: ", "))")
        }
        sslMode = mode
        sslRootCertificate = query.last { $0.name == "sslrootcert" }?.value
        if sslRootCertificate != nil, !mode.hasPrefix("verify-") {
            throw invalid("sslrootcert is only read with sslmode=verify-ca or verify-full, not \(mode)")
        }
    }

    /// The `sslmode` values understood.
    static let sslModes = ["disable", "prefer", "require", "verify-ca", "verify-full"]

    /// The URL with the password replaced by `***`: the form for logs.
    public var redacted: String {
        let credentials = username + (password == nil ? "" : ":***")
        let place = host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
        let socket = socketDirectory.map { "?host=\($0)" } ?? ""
        return "postgres://\(credentials)@\(place):\(port)/\(database)\(socket)"
    }

    /// ``redacted``.
    public var description: String { redacted }
}
