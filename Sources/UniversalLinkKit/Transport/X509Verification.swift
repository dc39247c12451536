/// OpenSSL's X509 verification results (`X509_V_ERR_*`) that the transport words and the doctor judges.
package enum X509Verification {
    package static let ok = 0
    package static let unableToGetIssuer = 2
    package static let notYetValid = 9
    package static let expired = 10
    package static let selfSignedLeaf = 18
    package static let selfSignedInChain = 19
    package static let unableToGetIssuerLocally = 20
    package static let unableToVerifyLeafSignature = 21
    package static let hostnameMismatch = 62
    package static let ipAddressMismatch = 64
}
