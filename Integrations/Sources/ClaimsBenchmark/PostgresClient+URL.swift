import PostgresNIO
import UniversalLinkKitPostgres

extension PostgresClient {
    /// A postgres-nio client of the database `text` names, for what the benchmark measures beside the store (the
    /// floor, LISTEN/NOTIFY, the table's size). Plaintext: the benchmark runs against the loopback cluster of
    /// `with-postgres`.
    convenience init(benchmarking text: String) throws {
        let url = try PostgresURL(text)
        let configuration: PostgresClient.Configuration
        if let directory = url.socketDirectory {
            configuration = .init(
                unixSocketPath: directory + "/.s.PGSQL.\(url.port)", username: url.username, password: url.password,
                database: url.database)
        } else {
            configuration = .init(
                host: url.host ?? "127.0.0.1", port: url.port, username: url.username, password: url.password,
                database: url.database, tls: .disable)
        }
        self.init(configuration: configuration)
    }
}
