// swift-tools-version:6.0

import PackageDescription

// A separate package so that the root package keeps zero dependencies: only this one pulls in swift-log,
// swift-metrics, swift-prometheus, swift-service-lifecycle and Hummingbird.
let package = Package(
    name: "Integrations",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "UniversalLinkKitLogging", targets: ["UniversalLinkKitLogging"]),
        .library(name: "UniversalLinkKitMetrics", targets: ["UniversalLinkKitMetrics"]),
        .library(name: "UniversalLinkKitTracing", targets: ["UniversalLinkKitTracing"]),
        .library(name: "UniversalLinkKitHummingbird", targets: ["UniversalLinkKitHummingbird"]),
        .library(name: "UniversalLinkKitPostgres", targets: ["UniversalLinkKitPostgres"]),
        .executable(name: "link-service", targets: ["LinkService"]),
        .executable(name: "claims-benchmark", targets: ["ClaimsBenchmark"]),
    ],
    dependencies: [
        .package(name: "UniversalLinkKit", path: ".."),
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
        // The fleet's claim store on PostgreSQL (issue 17): a product of its own, so that only a service that shares
        // claims pulls in postgres-nio.
        .target(
            name: "UniversalLinkKitPostgres",
            dependencies: [
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The routes, the status mapping, the manager's lifecycle service, the environment configuration and the
        // whole `link-service` application: a product, so that an existing Hummingbird app mounts the same routes
        // `link-service` serves, and `main` is a few lines over it.
        .target(
            name: "UniversalLinkKitHummingbird",
            dependencies: [
                "UniversalLinkKitLogging",
                "UniversalLinkKitMetrics",
                "UniversalLinkKitTracing",
                "UniversalLinkKitPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "LinkRouting", package: "UniversalLinkKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "LinkService",
            dependencies: [
                "UniversalLinkKitHummingbird",
                "UniversalLinkKitTracing",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The cost of shared claims next to in-process ones (issue 17); built by CI, run by hand under with-postgres.
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
