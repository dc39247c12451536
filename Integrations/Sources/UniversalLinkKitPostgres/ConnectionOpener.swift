import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Opens one connection of the store: the socket, the TLS the URL's `sslmode` asks for, the framing guard, then
/// postgres-nio's startup over that channel.
///
/// The store makes the channel itself so that ``BackendFramingGuard`` sits in front of postgres-nio's decoder;
/// TLS is negotiated here for the same reason (postgres-nio adds its TLS handler only to a channel it negotiates
/// itself). Everything, from the TCP connect to the end of the startup, ends within ``connectTimeout``.
struct ConnectionOpener: Sendable {
    /// Why a connection could not be set up, in words for the store's error message.
    struct SetupError: Error, Sendable, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// The SSLRequest's code (1234 in the high 16 bits, 5679 in the low ones).
    static let sslRequestCode: UInt32 = 80_877_103

    let url: PostgresURL
    /// The TLS settings, `nil` with `sslmode=disable`.
    let tls: NIOSSLContext?
    let connectTimeout: Duration
    /// Sent with the startup message (the store's `statement_timeout`).
    let startupParameters: [(String, String)]
    /// The cap of ``BackendFramingGuard``.
    let messageLimit: Int
    let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton

    /// Builds the TLS settings `url`'s `sslmode` asks for, as libpq reads it: `prefer` and `require` encrypt
    /// without checking the certificate, `verify-ca` checks the chain, `verify-full` the chain and the host's name;
    /// `sslrootcert` replaces the system's roots.
    ///
    /// - Throws: ``PostgresClaimStoreError`` with `invalidConfiguration` when the roots cannot be read.
    static func tlsContext(for url: PostgresURL) throws(PostgresClaimStoreError) -> NIOSSLContext? {
        guard url.socketDirectory == nil, url.sslMode != "disable" else { return nil }
        var settings = TLSConfiguration.makeClientConfiguration()
        switch url.sslMode {
        case "verify-full": settings.certificateVerification = .fullVerification
        case "verify-ca": settings.certificateVerification = .noHostnameVerification
        default: settings.certificateVerification = .none
        }
        if let root = url.sslRootCertificate { settings.trustRoots = .file(root) }
        do {
            return try NIOSSLContext(configuration: settings)
        } catch {
            throw PostgresClaimStoreError(
                code: .invalidConfiguration,
                message: "cannot set up TLS for the database"
                    + (url.sslRootCertificate.map { " with the roots in sslrootcert \($0)" } ?? "") + ": \(error)",
                cause: error)
        }
    }

    /// A connection, authenticated and ready for statements.
    ///
    /// - Parameter id: The connection's number, for postgres-nio's logs.
    /// - Returns: The connection and the record of its guard.
    /// - Throws: ``SetupError``, ``BackendFramingGuard/Violation``, or postgres-nio's `PSQLError`.
    func open(id: Int) async throws -> (PostgresConnection, BackendFramingGuard.Record) {
        let deadline = ContinuousClock.now + connectTimeout
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(Self.timeAmount(connectTimeout))
            // A connection idle for a long time (claims are tied to its session) still notices a peer that vanished.
            .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
        let channel: any Channel
        do {
            if let directory = url.socketDirectory {
                let path = (directory.hasSuffix("/") ? directory : directory + "/") + ".s.PGSQL.\(url.port)"
                channel = try await bootstrap.connect(unixDomainSocketPath: path).get()
            } else {
                channel = try await bootstrap.connect(host: url.host ?? "127.0.0.1", port: url.port).get()
            }
        } catch {
            throw SetupError(message: "cannot connect to \(place) (\(error)): check that PostgreSQL is up and reachable there")
        }
        let record = BackendFramingGuard.Record()
        do {
            try await withTaskCancellationHandler {
                if let tls {
                    try await negotiateTLS(on: channel, context: tls, within: deadline - .now)
                }
                let limit = messageLimit
                try await channel.eventLoop.submit {
                    try channel.pipeline.syncOperations.addHandler(BackendFramingGuard(limit: limit, record: record))
                }.get()
            } onCancel: {
                channel.close(promise: nil)
            }
            var configuration = PostgresConnection.Configuration(
                establishedChannel: channel, tls: .disable, username: url.username, password: url.password, database: url.database)
            configuration.options.connectTimeout = Self.timeAmount(max(deadline - .now, .milliseconds(1)))
            configuration.options.additionalStartupParameters = startupParameters
            let connection = try await PostgresConnection.connect(
                on: channel.eventLoop, configuration: configuration, id: id, logger: ClaimSchema.logger)
            return (connection, record)
        } catch {
            channel.close(promise: nil)
            if let violation = record.violation { throw violation }
            throw error
        }
    }

    /// `host:port`, or the socket's directory.
    private var place: String {
        url.socketDirectory.map { "the socket in \($0)" } ?? "\(url.host ?? "127.0.0.1"):\(url.port)"
    }

    /// Sends the SSLRequest and, when the server accepts it, puts TLS in front of the channel and waits for the
    /// handshake; a server that declines is used in plaintext only with `sslmode=prefer`.
    private func negotiateTLS(on channel: any Channel, context: NIOSSLContext, within limit: Duration) async throws {
        let answer = channel.eventLoop.makePromise(of: UInt8.self)
        let timeout = Self.timeAmount(max(limit, .milliseconds(1)))
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(
                TLSNegotiationHandler(answer: answer, timeout: timeout), name: TLSNegotiationHandler.name)
            var request = channel.allocator.buffer(capacity: 8)
            request.writeInteger(UInt32(8))
            request.writeInteger(Self.sslRequestCode)
            channel.writeAndFlush(request, promise: nil)
        }.get()
        switch try await answer.futureResult.get() {
        case UInt8(ascii: "S"):
            // A name in SNI and for `verify-full`; an address is checked against the certificate's IP entries.
            let name = url.host.flatMap { (try? SocketAddress(ipAddress: $0, port: 0)) == nil ? $0 : nil }
            let handshake = channel.eventLoop.makePromise(of: Void.self)
            try await channel.eventLoop.submit {
                let negotiation = try channel.pipeline.syncOperations.handler(type: TLSNegotiationHandler.self)
                negotiation.awaitHandshake(handshake)
                try channel.pipeline.syncOperations.addHandler(
                    try NIOSSLClientHandler(context: context, serverHostname: name), position: .first)
            }.get()
            do {
                try await handshake.futureResult.get()
            } catch let error as SetupError {
                throw error
            } catch {
                throw SetupError(
                    message: "the TLS handshake with \(place) failed (sslmode=\(url.sslMode)): \(error); check the server's"
                        + " certificate against the URL's host and sslrootcert")
            }
        case UInt8(ascii: "N") where url.sslMode == "prefer":
            break
        case UInt8(ascii: "N"):
            throw SetupError(
                message: "the database server at \(place) does not accept TLS, and sslmode=\(url.sslMode) needs it:"
                    + " turn ssl on in its postgresql.conf (sslmode=disable only on a network you trust)")
        case let byte:
            throw SetupError(
                message: "the server at \(place) answered the TLS request with byte \(byte), neither S nor N:"
                    + " it is not a PostgreSQL server")
        }
        try await channel.pipeline.removeHandler(name: TLSNegotiationHandler.name).get()
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
