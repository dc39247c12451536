import Foundation
import NIOSSL
public import PostgresNIO

/// A PostgreSQL connection URL, as `ULK_POSTGRES_URL` takes it, turned into a `PostgresClient.Configuration`.
///
/// Forms:
/// - `postgres://user[:password]@host[:port]/database` (port 5432 by default; `postgresql://` too);
/// - a Unix socket directory as the host, percent-encoded (`postgres://user@%2Fvar%2Frun%2Fpostgresql/links`) or
///   as `?host=/var/run/postgresql`; the socket is `<directory>/.s.PGSQL.<port>`;
/// - `?sslmode=disable`, `prefer` (the default over TCP) or `require`.
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
    /// `disable`, `prefer` or `require`.
    public var sslMode: String

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
        let mode = query.last { $0.name == "sslmode" }?.value ?? (socketDirectory == nil ? "prefer" : "disable")
        guard ["disable", "prefer", "require"].contains(mode) else {
            throw invalid("sslmode \"\(mode)\" is not one of disable, prefer, require")
        }
        sslMode = mode
    }

    /// The URL with the password replaced by `***`: the form for logs.
    public var redacted: String {
        let credentials = username + (password == nil ? "" : ":***")
        let place = host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
        let socket = socketDirectory.map { "?host=\($0)" } ?? ""
        return "postgres://\(credentials)@\(place):\(port)/\(database)\(socket)"
    }

    /// ``redacted``.
    public var description: String { redacted }

    /// The client configuration for this URL.
    public var clientConfiguration: PostgresClient.Configuration {
        if let socketDirectory {
            let socket = (socketDirectory.hasSuffix("/") ? socketDirectory : socketDirectory + "/") + ".s.PGSQL.\(port)"
            return PostgresClient.Configuration(unixSocketPath: socket, username: username, password: password, database: database)
        }
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "require": tls = .require(.makeClientConfiguration())
        default: tls = .prefer(.makeClientConfiguration())
        }
        return PostgresClient.Configuration(
            host: host ?? "127.0.0.1", port: port, username: username, password: password, database: database, tls: tls)
    }
}
