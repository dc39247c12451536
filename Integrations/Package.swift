// swift-tools-version:6.0

import PackageDescription

// A separate package so that the root package keeps zero dependencies. Each product pulls in only what it needs:
// the log, metric and trace adapters their one library each, the Hummingbird routes no PostgreSQL, and only the
// PostgreSQL store and the whole service (`UniversalLinkKitService`, `link-service`) pull in postgres-nio.

// The core package: by path while this package lives in the core's repository. Once it moves to a repository of its
// own, this one line becomes `.package(url: "https://github.com/OWNER/UniversalLinkKit.git", from: "0.2.0")`.
let core: Package.Dependency = .package(name: "UniversalLinkKit", path: "..")

let package = Package(
    name: "Integrations",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "UniversalLinkKitLogging", targets: ["UniversalLinkKitLogging"]),
        .library(name: "UniversalLinkKitMetrics", targets: ["UniversalLinkKitMetrics"]),
        .library(name: "UniversalLinkKitTracing", targets: ["UniversalLinkKitTracing"]),
        .library(name: "UniversalLinkKitHummingbird", targets: ["UniversalLinkKitHummingbird"]),
        .library(name: "UniversalLinkKitPostgres", targets: ["UniversalLinkKitPostgres"]),
        .library(name: "UniversalLinkKitService", targets: ["UniversalLinkKitService"]),
        .executable(name: "link-service", targets: ["LinkServiceMain"]),
        .executable(name: "claims-benchmark", targets: ["ClaimsBenchmark"]),
    ],
    dependencies: [
        core,
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // Already in Hummingbird's graph; named because the service's code uses their types' members directly.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Already in postgres-nio's graph; named for HMAC-SHA256 of the claim keys.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.25.0"),
    ],
    targets: [
        .target(
            name: "UniversalLinkKitLogging",
            dependencies: [
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "UniversalLinkKitMetrics",
            dependencies: [
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "UniversalLinkKitTracing",
            dependencies: [
                "UniversalLinkKitLogging",
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The fleet's claim store on PostgreSQL: a product of its own, so that only a service that shares claims
        // pulls in postgres-nio.
        .target(
            name: "UniversalLinkKitPostgres",
            dependencies: [
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // What an existing Hummingbird app mounts: the routes, the status mapping, the manager's lifecycle service,
        // the tracing middleware and `/metrics`. No PostgreSQL: a fleet's store comes in through the manager's
        // configuration.
        .target(
            name: "UniversalLinkKitHummingbird",
            dependencies: [
                "UniversalLinkKitLogging",
                "UniversalLinkKitMetrics",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "LinkRouting", package: "UniversalLinkKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The whole `link-service`: the environment's configuration, the hardened HTTP/1 server, the drain, and the
        // PostgreSQL store wired in. `main` is a few lines over it; a host with its own tracer builds it too.
        .target(
            name: "UniversalLinkKitService",
            dependencies: [
                "UniversalLinkKitHummingbird",
                "UniversalLinkKitLogging",
                "UniversalLinkKitMetrics",
                "UniversalLinkKitTracing",
                "UniversalLinkKitPostgres",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "LinkRouting", package: "UniversalLinkKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "LinkServiceMain",
            dependencies: [
                "UniversalLinkKitService",
                "UniversalLinkKitTracing",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The cost of shared claims next to in-process ones; built by CI, run by hand under with-postgres.
        .executableTarget(
            name: "ClaimsBenchmark",
            dependencies: [
                "UniversalLinkKitPostgres",
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "UniversalLinkKitTesting", package: "UniversalLinkKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "IntegrationsTests",
            dependencies: [
                "UniversalLinkKitLogging",
                "UniversalLinkKitMetrics",
                "UniversalLinkKitHummingbird",
                "UniversalLinkKitService",
                "UniversalLinkKitTracing",
                "UniversalLinkKitPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "UniversalLinkKitTesting", package: "UniversalLinkKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    // Require `any` for existential types.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // A file sees only the members of modules it imports itself.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
