// swift-tools-version:6.2

import PackageDescription

let package = Package(
    name: "UniversalLinkKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "UniversalLinkKit", targets: ["UniversalLinkKit"]),
        .library(name: "UniversalLinkKitTesting", targets: ["UniversalLinkKitTesting"]),
        .library(name: "LinkRouting", targets: ["LinkRouting"]),
        .library(name: "AssociatedDomains", targets: ["AssociatedDomains"]),
        .library(name: "LinkDoctor", targets: ["LinkDoctor"]),
        .executable(name: "linux-host", targets: ["LinuxHost"]),
    ],
    targets: [
        // Internal (not a product): the ThreadSanitizer-aware lock helper shared by the modules that lock.
        .target(name: "_LinkKitLocking", exclude: ["README.md"]),
        // Internal (not a product): the one JSON reader and writer, escaping, UTF-8 checks, durations, error codes.
        .target(name: "_LinkKitText", exclude: ["README.md"]),
        .target(name: "AssociatedDomains", dependencies: ["_LinkKitText"]),
        .target(name: "LinkRouting", dependencies: ["_LinkKitLocking", "_LinkKitText"]),
        // Internal (not a product): libcurl's few entry points, loaded at run time (no headers, no -dev package).
        .target(name: "_CLibcurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "UniversalLinkKit", dependencies: ["LinkRouting", "_LinkKitLocking", "_LinkKitText", "_CLibcurl"]),
        // Internal (not a product): OpenSSL 3, loaded at run time like libcurl, for the tests' PKI and TLS server.
        .target(name: "_COpenSSL", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "UniversalLinkKitTesting", dependencies: ["UniversalLinkKit", "_LinkKitLocking", "_LinkKitText", "_COpenSSL"]),
        // Live domain checks and campaign pre-flight: networking lives here, never in AssociatedDomains.
        .target(
            name: "LinkDoctor",
            dependencies: [
                "AssociatedDomains", "LinkRouting", "UniversalLinkKit", "_CLibcurl", "_LinkKitLocking", "_LinkKitText",
            ]),
        .executableTarget(
            name: "LinuxHost",
            dependencies: [
                "UniversalLinkKit", "UniversalLinkKitTesting", "LinkRouting", "AssociatedDomains", "LinkDoctor",
                "_LinkKitText",
            ],
            path: "Samples/LinuxHost"
        ),
        .testTarget(name: "LinkKitTextTests", dependencies: ["_LinkKitText"]),
        .testTarget(name: "AssociatedDomainsTests", dependencies: ["AssociatedDomains"]),
        .testTarget(name: "LinkRoutingTests", dependencies: ["LinkRouting", "_LinkKitLocking"]),
        // Names the thread and stack of any SIGPIPE in the test process (all test targets share one process).
        .target(name: "_SIGPIPEReport", path: "Tests/_SIGPIPEReport"),
        .testTarget(
            name: "UniversalLinkKitTests",
            dependencies: ["UniversalLinkKit", "UniversalLinkKitTesting", "LinkRouting", "_LinkKitLocking", "_SIGPIPEReport"]
        ),
        // The TLS front's tests reach it through the doctor's libcurl client, which can trust the test PKI's root.
        .testTarget(name: "UniversalLinkKitTestingTests", dependencies: ["UniversalLinkKitTesting", "LinkDoctor", "UniversalLinkKit"]),
        .testTarget(
            name: "LinkDoctorTests",
            dependencies: [
                "LinkDoctor", "AssociatedDomains", "LinkRouting", "UniversalLinkKit", "UniversalLinkKitTesting",
                "_LinkKitLocking",
            ],
            // Emails, their expected links and the named-reference table, read by path from the tests.
            exclude: ["Fixtures"]
        ),
        // Runs the built `linux-host` binary end to end; `swift test` builds it with the rest of the package.
        .testTarget(name: "LinuxHostTests", dependencies: ["UniversalLinkKitTesting"]),
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
