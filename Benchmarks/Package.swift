// swift-tools-version:6.0

import PackageDescription

// A separate package so that the root package keeps zero dependencies: only this one pulls in the peers it
// compares against.
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "link-benchmarks", targets: ["LinkBenchmarks"]),
    ],
    dependencies: [
        .package(name: "UniversalLinkKit", path: ".."),
        .package(url: "https://github.com/vapor/routing-kit.git", from: "4.9.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Already a dependency of both peers; named so the RoutingKit subject can hand it a logger as Vapor does.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        // The TLS burst's peer client, and its TLS configuration (trusting the run's own root).
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
    ],
    targets: [
        .executableTarget(
            name: "LinkBenchmarks",
            dependencies: [
                .product(name: "UniversalLinkKit", package: "UniversalLinkKit"),
                .product(name: "UniversalLinkKitTesting", package: "UniversalLinkKit"),
                .product(name: "LinkRouting", package: "UniversalLinkKit"),
                .product(name: "AssociatedDomains", package: "UniversalLinkKit"),
                .product(name: "RoutingKit", package: "routing-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Sources/LinkBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where [.executable, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
