// Internal: a throwaway PKI and a TLS terminator for the package's tests, on OpenSSL 3 loaded at run time
// (libssl.so.3 / libcrypto.so.3, the libraries libcurl itself is linked against here), so the package needs no
// OpenSSL headers and no -dev package.
#ifndef ULK_COPENSSL_H
#define ULK_COPENSSL_H

#include <stddef.h>

/// Loads nghttp2 (libnghttp2.so.14, which libcurl links) once. Returns 0 when every needed symbol was found;
/// otherwise writes why into `error`.
int ulk_nghttp2_load(char *error, size_t error_length);

/// Loads OpenSSL 3 once. Returns 0 when every needed symbol was found; otherwise writes why into `error`.
int ulk_ssl_load(char *error, size_t error_length);

// MARK: - PKI

/// A new key pair: EC on the named curve when `curve` is not NULL ("P-256", "P-384"), else RSA of `rsa_bits`.
/// Returns NULL on failure. Free with ulk_pki_key_free.
void *ulk_pki_key(const char *curve, int rsa_bits);
void ulk_pki_key_free(void *key);

/// A certificate for `key`, named CN=`common_name`, valid from now + `not_before_s` to now + `not_after_s` (seconds,
/// either may be negative), signed by `issuer_cert` / `issuer_key` (both NULL: self-signed) with SHA-1 when `sha1`
/// is set, else SHA-256. `san` is a subjectAltName value ("DNS:localhost,IP:127.0.0.1") or NULL; `is_ca` makes a
/// CA (basicConstraints CA:TRUE, keyCertSign). Returns NULL on failure. Free with ulk_pki_cert_free.
void *ulk_pki_cert(void *key, const char *common_name, const char *san, int is_ca, long long not_before_s,
                   long long not_after_s, int sha1, void *issuer_cert, void *issuer_key, long serial);
void ulk_pki_cert_free(void *cert);

/// Writes the certificate as PEM to `path`, appending when `append` is set. Returns 0 on success.
int ulk_pki_write_cert(void *cert, const char *path, int append);
/// Writes the private key as unencrypted PEM (PKCS #8) to `path`. Returns 0 on success.
int ulk_pki_write_key(void *key, const char *path);

/// OpenSSL's last error as text (and clears the queue); "" when there is none.
void ulk_ssl_error(char *buffer, size_t length);

// MARK: - TLS terminator

/// What a connection does instead of a complete, honest TLS session.
enum {
    ULK_TLS_NORMAL = 0,
    /// Accepts TCP and never sends a byte (the handshake never completes).
    ULK_TLS_SILENT = 1,
    /// Reads the ClientHello, sends the first record of its answer (the ServerHello) and closes.
    ULK_TLS_CLOSE_AFTER_FIRST_MESSAGE = 2,
    /// Forwards `truncate_after` bytes of the upstream's answer, then a close_notify alert, then closes.
    ULK_TLS_CLOSE_MID_BODY = 3,
};

/// A TLS terminator's settings. Versions are TLS protocol numbers (0x0301 TLS 1.0 ... 0x0304 TLS 1.3), 0 for
/// OpenSSL's default bound.
typedef struct ulk_tls_server_config {
    const char *chain_file;    // PEM: the leaf, then the certificates sent with it
    const char *key_file;      // PEM: the leaf's private key
    int upstream_port;         // the plain HTTP server on 127.0.0.1
    int min_version;
    int max_version;
    const char *cipher_list;   // TLS 1.2 and below, OpenSSL's syntax; NULL: OpenSSL's default
    const char *ciphersuites;  // TLS 1.3; NULL: OpenSSL's default
    int security_level;        // OpenSSL's security level (0 accepts 1024-bit keys and SHA-1 signatures)
    int behaviour;             // ULK_TLS_*
    long long truncate_after;  // for ULK_TLS_CLOSE_MID_BODY
    int offers_http2;          // ALPN "h2" offered (before "http/1.1"); HTTP/2 spoken with nghttp2, loaded at run time
    int max_streams;           // HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS; 0: 100
} ulk_tls_server_config;

typedef struct ulk_tls_server ulk_tls_server;

/// Listens on 127.0.0.1 (an ephemeral port) and starts the accept thread. Returns NULL on failure, with the
/// reason in `error`.
ulk_tls_server *ulk_tls_server_start(const ulk_tls_server_config *config, char *error, size_t error_length);
int ulk_tls_server_port(const ulk_tls_server *server);

/// The counters ulk_tls_server_count and ulk_tls_server_wait read.
enum {
    /// TCP connections accepted.
    ULK_TLS_CONNECTIONS = 0,
    /// Handshakes completed.
    ULK_TLS_HANDSHAKES = 1,
    /// Handshakes that failed or were abandoned (the client gave up, refused the certificate or the protocol).
    ULK_TLS_FAILED_HANDSHAKES = 2,
    /// Connections finished (their thread is done with them).
    ULK_TLS_CLOSED = 3,
    /// Handshakes that resumed an earlier session.
    ULK_TLS_RESUMED = 4,
    /// Connections that chose HTTP/2 by ALPN.
    ULK_TLS_HTTP2_CONNECTIONS = 5,
    /// HTTP/2 requests (streams) received.
    ULK_TLS_HTTP2_STREAMS = 6,
    ULK_TLS_COUNTERS = 7,
};

long ulk_tls_server_count(ulk_tls_server *server, int counter);
/// Blocks until `counter` reaches `value`, the server stops or `timeout_ms` passes; returns the counter's value then.
long ulk_tls_server_wait(ulk_tls_server *server, int counter, long value, long timeout_ms);

/// Stops accepting, ends every connection and waits for their threads; the counters stay readable. Idempotent.
void ulk_tls_server_stop(ulk_tls_server *server);
/// Stops the server if needed and frees it: nothing may use it afterwards.
void ulk_tls_server_free(ulk_tls_server *server);

#endif
