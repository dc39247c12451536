import Foundation
import UniversalLinkKit

/// `linux-host resolve|inapp|push [options] INPUT...`: hands each input to the manager at once, as a burst, and
/// prints one result per input, in input order.
enum ResolveCommand {
    struct Options {
        var json = false
        var timeout: Duration = .seconds(10)
        var policy = ResolutionPolicy()
        var executeRsysWebURL = false
        var inputs: [String] = []
    }

    static func run(_ command: String, _ arguments: [String]) async -> Int32 {
        let options: Options
        switch parse(command, arguments) {
        case .success(let parsed): options = parsed
        case .failure(let error): return Console.usageError("\(command): \(error.message)")
        }
        var configuration = LinkManager.Configuration()
        configuration.resolution.timeout = options.timeout
        configuration.resolution.policy = options.policy
        configuration.executeRsysWebURL = options.executeRsysWebURL

        let center = NotificationCenter()
        // The observer is in place before anything reaches the manager: no notification can be missed.
        let observer = HostObserver(center: center, printing: !options.json)
        defer { observer.stop() }
        let opener = URLOpener { url in
            if !options.json { Console.out("  opened \(url.absoluteString)") }
            return true
        }
        let manager = LinkManager(configuration: configuration, notificationCenter: center, opener: opener)

        var handles: [(input: String, handle: LinkHandle?)] = []
        for input in options.inputs {
            if !options.json { Console.out("-> \(command) \(input)") }
            handles.append((input, hand(input, to: manager, command: command)))
        }

        var failed = false
        for (input, handle) in handles {
            let outcome = await handle?.outcome
            let link = handle?.url.flatMap(observer.link(for:)) ?? outcome?.resolvedLink
            let notified = outcome?.resolvedLink != nil
            let handled = handle?.isHandled ?? false
            if !handled || (notified && link?.error != nil) { failed = true }
            if options.json {
                Console.out(Console.jsonLine([
                    "url": input,
                    "handled": handled,
                    "duplicate": handle?.isDuplicate ?? false,
                    "notification": notified ? link.map(HostObserver.json) ?? NSNull() : NSNull(),
                    "opened": outcome?.openedURL?.absoluteString ?? NSNull(),
                ] as [String: Any]))
            } else {
                Console.out(summary(input, handle: handle, link: notified ? link : nil, opened: outcome?.openedURL))
            }
        }
        return failed ? 1 : 0
    }

    /// Hands one input to the manager the way the command says.
    private static func hand(_ input: String, to manager: LinkManager, command: String) -> LinkHandle? {
        switch command {
        case "push":
            guard let data = input.data(using: .utf8),
                  let payload = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            else { return nil }
            return manager.didReceiveRemoteNotification(payload)
        case "inapp":
            guard let url = parsedURL(input) else { return nil }
            return manager.handleInAppHyperlink(url)
        default:
            guard let url = parsedURL(input) else { return nil }
            return manager.handle(UserActivity(browsingWeb: url))
        }
    }

    private static func parsedURL(_ input: String) -> URL? {
        guard let url = URL(string: input), url.scheme != nil else { return nil }
        return url
    }

    private static func summary(_ input: String, handle: LinkHandle?, link: ResolvedLink?, opened: URL?) -> String {
        guard let handle, handle.isHandled else {
            return "   \(input.isEmpty ? "\"\"" : input): not handled"
                + (handle == nil ? " (not a usable URL or payload)" : " (not a pub-web app link)")
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

    struct UsageError: Error { let message: String }

    static func parse(_ command: String, _ arguments: [String]) -> Result<Options, UsageError> {
        var options = Options()
        var rest = arguments[...]
        var onlyInputs = false
        while let argument = rest.popFirst() {
            if onlyInputs || !argument.hasPrefix("--") {
                options.inputs.append(argument)
                continue
            }
            switch argument {
            case "--": onlyInputs = true
            case "--json": options.json = true
            case "--allow-loopback": options.policy.allowsLocalHosts = true
            case "--allow-http": options.policy.allowsHTTP = true
            case "--execute-rsys-web-url" where command != "resolve": options.executeRsysWebURL = true
            case "--no-execute-rsys-web-url" where command != "resolve": options.executeRsysWebURL = false
            case "--timeout":
                guard let value = rest.popFirst(), let seconds = Double(value), seconds >= 0.001, seconds <= 3600 else {
                    return .failure(UsageError(message: "--timeout needs a number of seconds from 0.001 to 3600"))
                }
                options.timeout = .milliseconds(Int64(seconds * 1000))
            case "--branded-domain":
                guard let host = rest.popFirst(), !host.isEmpty, !host.hasPrefix("--") else {
                    return .failure(UsageError(message: "--branded-domain needs a host name"))
                }
                options.policy.brandedDomains.append(host)
            default:
                return .failure(UsageError(message: "unknown option '\(argument)'"))
            }
        }
        if options.inputs.isEmpty {
            return .failure(UsageError(message: command == "push" ? "expected a PAYLOAD_JSON argument" : "expected at least one URL"))
        }
        if command == "push", options.inputs.count != 1 {
            return .failure(UsageError(message: "expected exactly one PAYLOAD_JSON argument"))
        }
        return .success(options)
    }
}
