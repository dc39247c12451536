import AssociatedDomains
import Foundation
import UniversalLinkKit
internal import _LinkKitText

/// Android's verifier (AOSP `StatementService`) as far as a server decides it: https only, no redirect followed,
/// 5 s connect and read timeouts, a declared `Content-Length` over 1 MiB refused unread, a status other than 200
/// giving no statements, and `include` statements followed one level. The fetch itself, the redirect and the
/// status are checked by ``LinkDoctor/checkAssetLinks(_:base:fetcher:)``; this file adds the rest.
extension LinkDoctor {
    /// What Android's verifier adds to an `assetlinks.json` answered 200: the declared length and the package's
    /// dynamic rules.
    func androidVerifierFindings(_ response: TransportResponse, package: String, subject: String) -> [Finding] {
        var findings: [Finding] = []
        if let declared = response.headerField("Content-Length").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
           declared > Self.assetLinksSizeLimit {
            findings.append(Finding(
                code: .assetlinksDeclaredTooLarge, severity: .error, subject: subject,
                message: "\(subject) declares Content-Length \(declared), over 1 MiB: Android's verifier refuses it "
                    + "without reading it, so the domain does not verify."))
        }
        if let statements = try? AndroidAssetStatement.statements(in: Array(response.body)),
           let statement = statements.first(where: { $0.packageName == package }),
           let dropped = statement.droppedReason {
            findings.append(Finding(
                code: .assetlinksDynamicRulesDropped, severity: .error, subject: subject,
                message: "\(dropped). Fix the field (`linux-host android check --assetlinks FILE` shows it), or Android 15+ "
                    + "opens every path the manifest takes."))
        }
        return findings
    }

    /// The fingerprints listed for `package` by the files that `statements`' `include` entries name, fetched one
    /// level deep as Android does; `nil` when no included file lists the package.
    func includedFingerprints(_ statements: JSONNode, package: String, subject: String) async -> (fingerprints: [String]?, findings: [Finding]) {
        var findings: [Finding] = []
        var listed: [String]?
        for statement in statements.elements {
            guard let include = statement.member("include")?.string else { continue }
            guard let url = URL(string: include), url.scheme == originScheme else {
                findings.append(Finding(
                    code: .assetlinksInclude, severity: .error, subject: subject,
                    message: "include \"\(include)\" is not an \(originScheme) URL: Android follows https includes only."))
                continue
            }
            let answer = Answer(await fetcher.fetch(url, userAgent: configuration.userAgent, maxBodyBytes: Self.assetLinksSizeLimit))
            guard case .file(let response) = answer, let included = Self.statementList(response.body) else {
                findings.append(Finding(
                    code: .assetlinksInclude, severity: .error, subject: include,
                    message: "The included file \(include) \(answer.servesFile ? "is not a JSON array of statements" : answer.summary): "
                        + "Android gets no statements from it."))
                continue
            }
            for inner in included.elements {
                if inner.member("include") != nil {
                    findings.append(Finding(
                        code: .assetlinksInclude, severity: .warning, subject: include,
                        message: "\(include) includes another file: Android follows includes one level only, so that "
                            + "file's statements do not count."))
                    continue
                }
                guard let prints = Self.fingerprints(of: inner, package: package) else { continue }
                listed = (listed ?? []) + prints
            }
        }
        return (listed, findings)
    }
}
