import Foundation
import UniversalLinkKit
internal import _LinkKitText

/// `linux-host resolve|inapp|push [options] INPUT...`: hands each input to the manager at once, as a burst, and
/// prints one result per input, in input order: its notification, what the opener got and a summary line, once
/// every notification was delivered.
enum ResolveCommand {
    /// Which entry point of the manager the command exercises.
    enum Kind: String, Sendable {
        case resolve, inapp, push
    }

    /// The options of `resolve`, `inapp` and `push`, each declared once with its default.
    enum Options {
        static let json = OptionKey.flag("json", "print one JSON object per input: url, handled, duplicate, notification, opened")
        static let timeout = OptionKey.value(
            "timeout", "SECONDS", "deadline of each resolution, retry included, in decimal seconds (0.001 to 3600)",
            as: .seconds(in: 0.001...3600), default: .seconds(10), shown: "10")
        static let allowLoopback = OptionKey.flag(
            "allow-loopback", "resolve links on localhost and IP addresses (test servers such as 'linux-host serve')")
        static let allowHTTP = OptionKey.flag("allow-http", "resolve http:// links too (test servers only)")
        static let brandedDomain = OptionKey.repeatable(
            "branded-domain", "HOST", "resolve only links on this host ('*.example.com' for its subdomains)", as: .host)
        static let executeRsysWebURL = OptionKey.flag(
            "execute-rsys-web-url", "resolve pub-web links and post the notification, as the SDK does when on")
        static let noExecuteRsysWebURL = OptionKey.flag(
            "no-execute-rsys-web-url", "hand every link to the opener (the browser on iOS) (default)")
        static let caFile = OptionKey.optional(
            "ca-file", "FILE", "trust the root certificates in this PEM file instead of the system's (a private CA)",
            as: .caFile)

        /// What `kind` declares: `resolve` has no `executeRsysWebURL` switch.
        static func all(_ kind: Kind) -> [any DeclaredOption] {
            let common: [any DeclaredOption] = [json, timeout, allowLoopback, allowHTTP, brandedDomain, caFile]
            return kind == .resolve ? common : common + [executeRsysWebURL, noExecuteRsysWebURL]
        }
    }

    static func command(_ kind: Kind) -> Command {
        let summary: String
        let arguments: [CommandArgument]
        switch kind {
        case .resolve:
            summary = "Resolves click-tracking links as a universal-link activation does, and prints the notification of each."
            arguments = [CommandArgument("URL", "a click-tracking link such as https://news.example.com/pub/acc?_ri_=...",
                                         repeatable: true)]
        case .inapp:
            summary = "Handles hyperlinks tapped in an in-app message, as the SDK does with executeRsysWebURL on or off."
            arguments = [CommandArgument("URL", "a hyperlink of an in-app message", repeatable: true)]
        case .push:
            summary = "Handles a push notification payload whose link is under the \"u\" key."
            arguments = [CommandArgument("PAYLOAD_JSON", #"the payload, e.g. '{"aps": {...}, "u": "https://..."}'"#)]
        }
        return Command(
            name: kind.rawValue,
            summary: summary,
            details: """
                Every input is handed over at once (a burst: the same link twice is one request) and reported in input
                order. Exit status: 0 when every input was handled without error, 1 otherwise, 2 for a usage error.
                """,
            arguments: arguments,
            options: Options.all(kind).map(\.declaration),
            run: { parsed throws(UsageError) in try await run(kind, parsed) })
    }

    static func run(_ kind: Kind, _ parsed: ParsedCommand) async throws(UsageError) -> Int32 {
        let json = try parsed.value(Options.json)
        var configuration = LinkManager.Configuration()
        configuration.timeout = try parsed.value(Options.timeout)
        configuration.policy.allowsLocalHosts = try parsed.value(Options.allowLoopback)
        configuration.policy.allowsHTTP = try parsed.value(Options.allowHTTP)
        // A host with a trailing dot is the same host without it, and the policy compares the URL's host without it.
        configuration.policy.brandedDomains = try parsed.value(Options.brandedDomain)
            .map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        // The last of the two switches wins; off by default, as in the SDK.
        let executes = kind != .resolve
            && parsed.occurrences(of: [Options.executeRsysWebURL, Options.noExecuteRsysWebURL]).last?.name
                == Options.executeRsysWebURL.declaration.name

        // Read (and the file checked) before anything is sent: a wrong file is a usage error.
        let caFile = try parsed.value(Options.caFile)
        let transport: (any LinkTransport)? = caFile.flatMap { CurlTransport.make(configuration: .init(caFile: $0)) }
        defer { transport?.shutdown() }

        let center = NotificationCenter()
        // The observer is in place before anything reaches the manager: no notification can be missed.
        let observer = HostObserver(center: center, printing: json ? .never : .inInputOrder)
        defer { observer.stop() }
        // What the opener got is each outcome's `openedURL`, printed with its input.
        let manager = LinkManager(
            configuration: configuration, transport: transport, notificationCenter: center, opener: URLOpener { _ in true })
        manager.executeRsysWebURL = executes

        var handed: [(input: String, handle: LinkHandle?, refusal: String?)] = []
        for input in parsed.positionals {
            let (handle, refusal) = hand(input, to: manager, kind: kind)
            handed.append((input, handle, refusal))
        }
        var outcomes: [LinkOutcome?] = []
        for (_, handle, _) in handed { outcomes.append(await handle?.outcome) }
        // Every notification delivered (and so held by the observer) before the first line: the burst resolves in
        // any order, the output is in input order and complete.
        await manager.waitUntilIdle()

        var failed = false
        for ((input, handle, refusal), outcome) in zip(handed, outcomes) {
            let link = handle?.url.flatMap(observer.link(for:)) ?? outcome?.resolvedLink
            let notified = outcome?.resolvedLink != nil
            let handled = handle?.isHandled ?? false
            if !handled || (notified && link?.error != nil) { failed = true }
            if json {
                Console.out(Console.jsonLine([
                    "url": .string(input),
                    "handled": .bool(handled),
                    "duplicate": .bool(handle?.isDuplicate ?? false),
                    "notification": notified ? link.map(HostObserver.json) ?? .null : .null,
                    "opened": .stringOrNull(outcome?.openedURL?.absoluteString),
                ]))
            } else {
                Console.out(Console.escaped("-> \(kind.rawValue) \(input)"))
                for text in handle?.url.map(observer.takeNotifications(for:)) ?? [] { Console.out(text) }
                if let opened = outcome?.openedURL { Console.out(Console.escaped("  opened \(opened.absoluteString)")) }
                Console.out(Console.escaped(summary(
                    input, handle: handle, refusal: refusal, link: notified ? link : nil, opened: outcome?.openedURL)))
            }
        }
        if !json {
            for text in observer.takeRemainingNotifications() { Console.out(text) }
        }
        return failed ? 1 : 0
    }

    /// Hands one input to the manager the way the command says; without a handle, says why not.
    private static func hand(_ input: String, to manager: LinkManager, kind: Kind) -> (LinkHandle?, String?) {
        switch kind {
        case .push:
            guard let payload = (try? JSONSerialization.jsonObject(with: Data(input.utf8))) as? [String: Any] else {
                return (nil, "not a JSON object")
            }
            // The library's reading of the payload, so the console says exactly why the manager takes no link.
            if let problem = PushPayload(userInfo: payload).problem { return (nil, problem) }
            return (manager.remoteNotification(payload), nil)
        case .inapp:
            guard let url = LinkInput.url(input) else { return (nil, "not a usable URL") }
            return (manager.inAppHyperlink(url), nil)
        case .resolve:
            guard let url = LinkInput.url(input) else { return (nil, "not a usable URL") }
            return (manager.handle(UserActivity(browsingWeb: url)), nil)
        }
    }

    private static func summary(
        _ input: String, handle: LinkHandle?, refusal: String?, link: ResolvedLink?, opened: URL?
    ) -> String {
        guard let handle, handle.isHandled else {
            return "   \(input.isEmpty ? "\"\"" : input): not handled"
                + " (\(refusal ?? (handle == nil ? "not a usable URL or payload" : "not a pub-web app link")))"
        }
        var parts: [String] = []
        if handle.isDuplicate { parts.append("duplicate of an activation in flight or just done: no new request") }
        if let link {
            if let error = link.error { parts.append("error \(error.code)") }
            if let destination = link.destinationURL { parts.append("go to \(destination.absoluteString)") }
        }
        if let opened { parts.append("handed to the opener: \(opened.absoluteString)") }
        return "   \(input): handled" + (parts.isEmpty ? "" : "; " + parts.joined(separator: "; "))
    }
}
