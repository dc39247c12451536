import AssociatedDomains
import Foundation
import UniversalLinkKit

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
            // Its one location does not answer 200: the same verdict as for the AASA's two (issue 13's table),
            // after what the location answered.
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
        guard let statements = (try? JSONSerialization.jsonObject(with: response.body)) as? [Any] else {
            findings.append(Finding(
                code: .assetlinksInvalid, severity: .error, subject: subject,
                message: "\(subject) is not a JSON array of statements; generate it with "
                    + "`linux-host assetlinks generate`."))
            return findings
        }
        var matched = false
        var listed: [String] = []
        for case let statement as [String: Any] in statements {
            guard let relations = statement["relation"] as? [String], relations.contains(Self.handleAllURLs),
                  let target = statement["target"] as? [String: Any],
                  target["namespace"] as? String == "android_app",
                  target["package_name"] as? String == package
            else { continue }
            matched = true
            listed += (target["sha256_cert_fingerprints"] as? [String] ?? []).map {
                AssetLinks.normalisedFingerprint($0) ?? $0
            }
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
