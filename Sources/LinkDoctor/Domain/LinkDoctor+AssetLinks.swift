import AssociatedDomains
import Foundation
import UniversalLinkKit
internal import _LinkKitText

extension LinkDoctor {
    static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    /// How long Android's verifier (AOSP `StatementService`) waits to connect and to read: 5 s each.
    static let androidVerifierTimeout: Duration = .seconds(5)

    /// The `assetlinks.*` findings for ``DomainCheck/androidPackage``; empty when no package is given.
    func checkAssetLinks(_ check: DomainCheck, base: String, fetcher: AssociationFetcher) async -> [Finding] {
        guard let package = check.androidPackage else { return [] }
        guard let url = URL(string: base + "/.well-known/assetlinks.json") else { return [] }
        let subject = url.absoluteString
        // Android's verifier gives up after 5 s (its connect and read timeouts): a file slower than that does not
        // verify on a device, whatever the doctor's own timeout.
        let answer = Answer(await fetcher.fetch(
            url, userAgent: configuration.userAgent, maxBodyBytes: Self.assetLinksSizeLimit,
            limit: Self.androidVerifierTimeout))
        let response: TransportResponse
        switch answer {
        case .file(let file):
            response = file
        case .tooLarge(.headerBlock):
            return [Self.oversize(.headerBlock, "assetlinks", url, then: "Android cannot verify the domain.")]
        case .tooLarge:
            return [Finding(
                code: .assetlinksTooLarge, severity: .error, subject: subject,
                message: "\(subject) is over 1 MiB; keep only the statements this domain needs.")]
        case .redirect, .status:
            // Its one location does not answer 200: the same verdict as for the AASA's two locations, after what
            // the location answered.
            return locationProblems("assetlinks", url, answer) + [Finding(
                code: .assetlinksUnreachable, severity: .error, subject: subject,
                message: "\(subject) \(answer.summary); Android cannot verify the domain, so links open the browser. "
                    + "Serve the file there with status 200, without redirects.")]
        case .failed, .refused:
            return [Finding(
                code: .assetlinksUnreachable, severity: .error, subject: subject,
                message: "\(subject) \(answer.summary); Android cannot verify the domain, so links open the browser.")]
        }
        var findings: [Finding] = []
        if let finding = contentTypeProblem("assetlinks", url, response) { findings.append(finding) }
        guard let statements = Self.statementList(response.body) else {
            findings.append(Finding(
                code: .assetlinksInvalid, severity: .error, subject: subject,
                message: "\(subject) is not a JSON array of statements; generate it with "
                    + "`linux-host assetlinks generate`."))
            return findings
        }
        var matched = false
        var listed: [String] = []
        for statement in statements.elements {
            guard let prints = Self.fingerprints(of: statement, package: package) else { continue }
            matched = true
            listed += prints
        }
        if !matched {
            // Android follows `include` statements one level deep.
            let included = await includedFingerprints(statements, package: package, subject: subject)
            findings += included.findings
            if let prints = included.fingerprints {
                matched = true
                listed += prints
            }
        }
        findings += androidVerifierFindings(response, package: package, subject: subject)
        guard matched else {
            findings.append(Finding(
                code: .assetlinksPackageMissing, severity: .error, subject: subject,
                message: "No android_app statement for \(package) with \(Self.handleAllURLs); add one (see "
                    + "`linux-host assetlinks generate --package \(package) --fingerprint SHA256`)."))
            return findings
        }
        for fingerprint in check.fingerprints {
            if let normalised = AssetLinks.normalisedFingerprint(fingerprint) {
                guard !listed.contains(normalised) else { continue }
                findings.append(Finding(
                    code: .assetlinksFingerprintMissing, severity: .error, subject: subject,
                    message: "The statement for \(package) does not list \(normalised) (it lists "
                        + "\(listed.isEmpty ? "none" : Self.examples(listed))); add the signing "
                        + "certificate's SHA-256 fingerprint (Play Console > App integrity for Play App Signing)."))
            } else {
                let isSHA1 = Self.hexDigitCount(fingerprint) == 40
                findings.append(Finding(
                    code: .assetlinksFingerprintMissing, severity: .error, subject: subject,
                    message: isSHA1
                        ? "\(fingerprint) is a SHA-1 fingerprint: assetlinks.json lists SHA-256 fingerprints "
                            + "(keytool -list -v shows both); give the SHA-256 one."
                        : "\(fingerprint) is not a SHA-256 fingerprint (32 hex byte pairs such as 14:6D:E9:...)."))
            }
        }
        return findings
    }

    /// The statements of an `assetlinks.json` body, or `nil` when it is not a JSON array. Read as
    /// `JSONSerialization` read it (one trailing comma allowed); a key repeated in one object keeps its last value,
    /// as Android's `JSONObject` does.
    static func statementList(_ body: Data) -> JSONNode? {
        let limits = JSONReader.Limits(bytes: assetLinksSizeLimit, depth: 64, values: body.count + 1)
        guard let document = try? JSONReader.read(body, limits: limits, allowsTrailingCommas: true),
              document.root.kind == .array
        else { return nil }
        return document.root
    }

    /// The fingerprints a statement lists for `package` (normalised where they read as SHA-256 fingerprints), or
    /// `nil` when it is not a `handle_all_urls` statement for that Android package.
    static func fingerprints(of statement: JSONNode, package: String) -> [String]? {
        guard let relations = statement.member("relation"), relations.elements.contains(where: { $0.string == handleAllURLs }),
              let target = statement.member("target"),
              target.member("namespace")?.string == "android_app",
              target.member("package_name")?.string == package
        else { return nil }
        let prints = target.member("sha256_cert_fingerprints").map { $0.elements.compactMap(\.string) } ?? []
        return prints.map { AssetLinks.normalisedFingerprint($0) ?? $0 }
    }

    /// The number of hex digits when the text is only hex digits and colons, else 0.
    static func hexDigitCount(_ text: String) -> Int {
        var count = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: ":"): continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                count += 1
            default: return 0
            }
        }
        return count
    }
}
