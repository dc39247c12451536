extension ValueReader where Value == String {
    /// A PEM file of certificates (`--ca-file`): a regular file of at most 8 MiB with at least one
    /// `-----BEGIN CERTIFICATE-----` block; its path. Checked before any connection, so a wrong file is a usage
    /// error naming it, never a TLS failure later.
    static var caFile: ValueReader<String> {
        let file = ValueReader<InputFile>.regularFile(maximumSize: 8 << 20)
        return ValueReader { raw in
            file.convert(raw).flatMap { file in
                guard String(decoding: file.bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
                    return .failure(UsageError(
                        "'\(file.path)' is not a PEM file of certificates (no -----BEGIN CERTIFICATE----- block)"))
                }
                return .success(file.path)
            }
        }
    }
}
