// Internal: the few libcurl calls CurlTransport needs, loaded at run time from libcurl.so.4 (the library
// FoundationNetworking itself loads), so the package needs no curl headers and no -dev package.
#ifndef ULK_CLIBCURL_H
#define ULK_CLIBCURL_H

#include <stddef.h>

/// One transfer: its easy handle, its request headers and what has been received so far. Filled by libcurl's
/// callbacks on the thread that drives the multi handle; read there once the transfer is done.
typedef struct ulk_transfer {
    void *easy;
    void *headers;        // curl_slist of request headers
    void *connect_to;     // curl_slist with the one CONNECT_TO entry, or NULL
    void *resolve;        // curl_slist with the one RESOLVE entry (the checked addresses), or NULL
    long status;          // the last status line's code; 0 while none arrived
    int got_status;       // a status line arrived (the server answered)
    int sends;            // requests libcurl was about to send (the pre-request callback)
    int max_sends;        // more is refused: libcurl's silent re-send on a fresh connection is aborted
    int resend_refused;   // the pre-request callback refused a re-send
    long long deadline_ns; // CLOCK_MONOTONIC instant after which the request is not sent; 0 for none
    int deadline_passed;  // the pre-request callback refused to send after the deadline
    long long created_ns; // CLOCK_MONOTONIC instant the transfer was created (handed to the queue)
    long long started_ns; // when it stopped waiting for a connection slot (first socket or pre-request); 0 if never
    int address_mismatch; // the connection did not go to the pinned address
    int over_cap;         // body over its cap
    int head_over_cap;    // header block over its cap (ours, or libcurl's refusal of one header line)
    int head_done;        // the final answer's head arrived whole (its blank line, or a first body byte)
    int encoded;          // a 2xx answer with a Content-Encoding other than identity
    int finished_early;   // a non-2xx answer: its body is not needed, the transfer stopped at its first byte
    long long content_length; // -1 when absent
    int length_headers;   // Content-Length fields of the last answer
    int chunked;          // the last answer has a Transfer-Encoding
    int bad_framing;      // its framing cannot be trusted: differing lengths, a length beside Transfer-Encoding,
                          // or a transfer coding other than chunked; a 2xx answer then ends at its headers
    size_t cap;
    size_t header_cap;
    unsigned char *body;
    size_t body_len;
    size_t body_capacity;
    char *head;           // the header lines of the last answer (after its status line), "\r\n" separated
    size_t head_len;
    size_t head_capacity;
    size_t head_total;    // header bytes of every answer, for the header cap
    char *pinned;         // the addresses the connection may go to, comma separated; NULL when not pinned
    char error[256];      // CURLOPT_ERRORBUFFER
} ulk_transfer;

/// Loads libcurl and initialises it once. Returns 0 when every needed symbol was found.
int ulk_curl_load(void);

/// Whether the loaded libcurl counts requests itself (CURLOPT_PREREQFUNCTION, 7.80+); without it every transfer
/// opens a fresh connection, so libcurl never re-sends silently.
int ulk_curl_counts_requests(void);

/// Whether the loaded libcurl takes "+HOST:PORT:ADDRESS" CURLOPT_RESOLVE entries (7.75+), which leave its DNS
/// cache like looked-up names (60 s after they were last set) instead of staying until the multi handle goes.
int ulk_curl_expiring_resolves(void);

/// Creates a transfer for `url` (GET), with `header_count` "Name: value" strings. `connect_to` is a
/// CURLOPT_CONNECT_TO entry ("host:port:name:port") or NULL; `resolve` a CURLOPT_RESOLVE entry giving that name
/// its addresses ("[+]name:port:a1,[a2]") or NULL; `pinned` the bare addresses, comma separated (or NULL): the
/// connection must go to one of them. `fresh_connect` forbids a pooled connection. Proxies are never used (not
/// even those named by http_proxy, HTTPS_PROXY or ALL_PROXY). `send_within_ns` (when >= 0): the request is not
/// sent once that long has passed (a transfer still waiting for a connection slot then fails unsent). Returns NULL
/// on failure.
ulk_transfer *ulk_transfer_create(const char *url, const char *const *header_lines, int header_count,
                                  const char *connect_to, const char *resolve, const char *pinned, size_t cap,
                                  size_t header_cap, int fresh_connect, long long send_within_ns);
void ulk_transfer_free(ulk_transfer *transfer);

/// A multi handle with a share handle for the TLS session cache, so that a new connection to a host resumes a
/// session an earlier connection stored. `max_streams` bounds the requests multiplexed on one HTTP/2 connection.
void *ulk_multi_create(long max_host_connections, long max_total_connections, long max_cached, long max_streams);
void ulk_multi_free(void *multi);
/// Adds the transfer, with the multi's share handle. Call on the thread that drives the multi handle.
int ulk_multi_add(void *multi, ulk_transfer *transfer);
int ulk_multi_remove(void *multi, ulk_transfer *transfer);
int ulk_multi_perform(void *multi);
/// Waits for activity, a wakeup or libcurl's next timer, at most `max_ms`.
int ulk_multi_poll(void *multi, int max_ms);
int ulk_multi_wakeup(void *multi);
/// The next finished transfer and its CURLcode, or NULL when none is left.
ulk_transfer *ulk_multi_next_done(void *multi, int *code);
const char *ulk_strerror(int code);

/// The transport's trust and protocol settings: TLS 1.2 at least, always; the roots of `ca_file` instead of the
/// system's when it is not NULL (CA bundle and CA path both replaced); HTTP/2 over TLS when the server offers it
/// by ALPN (`http2`), a new transfer then waiting for a connection being set up to learn whether it multiplexes.
/// Returns 0 when libcurl took them all.
int ulk_transfer_set_trust(ulk_transfer *transfer, const char *ca_file, int http2);

/// Sets the whole transfer's timeout to the time left before its deadline, counted from now: libcurl counts a
/// timeout from the moment the transfer joins the multi handle, which a transfer queued for a stream slot does
/// later than its creation. Returns -1, changing nothing, when the deadline has passed.
int ulk_transfer_arm(ulk_transfer *transfer);

/// Completes what the callbacks could not see, once the transfer ended with `code`: libcurl refuses a single
/// header line longer than its own limit (100 KiB) as "Out of memory" before the header callback gets it, which
/// is our header cap's case too.
void ulk_transfer_settle(ulk_transfer *transfer, int code);

// MARK: - TLS checks (the link doctor's): settings beyond ulk_transfer_create's, a blocking perform, the chain

/// TLS settings of one transfer. ulk_transfer_create leaves libcurl's defaults: the system's roots, the peer's
/// chain and name verified.
typedef struct ulk_tls_options {
    const char *ca_file;      // PEM roots used instead of the system's (CA bundle and CA path both replaced); NULL: the system's
    int verify_peer;          // 0: the chain is not verified (the handshake completes whatever it is)
    int verify_host;          // 0: the name is not compared
    long ssl_version;         // CURLOPT_SSLVERSION: a CURL_SSLVERSION_* minimum, or-ed with a CURL_SSLVERSION_MAX_*; 0: libcurl's default
    const char *cipher_list;  // CURLOPT_SSL_CIPHER_LIST (TLS 1.2 and below, OpenSSL's syntax); NULL: libcurl's default
    int cert_info;            // collect the chain the server sent (CURLOPT_CERTINFO)
    int connect_only;         // CURLOPT_CONNECT_ONLY: connect and handshake, send no request
} ulk_tls_options;

/// Applies `options` to a transfer from ulk_transfer_create, before it runs. Returns 0 when libcurl took them all.
int ulk_transfer_set_tls(ulk_transfer *transfer, const ulk_tls_options *options);

/// Runs the transfer on the calling thread (curl_easy_perform; it blocks until the transfer ends, by its deadline
/// at the latest) and returns its CURLcode. For a transfer that is never added to a multi handle.
int ulk_transfer_perform(ulk_transfer *transfer);

/// OpenSSL's verification result of the transfer's connection (CURLINFO_SSL_VERIFYRESULT: an X509_V_ERR_* code,
/// 0 when the chain verified); meaningful after a transfer with verify_peer on.
long ulk_transfer_verify_result(ulk_transfer *transfer);

/// The chain the server sent, from CURLOPT_CERTINFO: one record per certificate, leaf first, separated by 0x1E;
/// in each, "Name:value" fields (Subject, Issuer, Signature Algorithm, Public Key Algorithm, RSA Public Key,
/// Start date, Expire date, X509v3 Subject Alternative Name, Cert...) separated by 0x1F. NULL when none was
/// collected. Free with ulk_free.
char *ulk_transfer_certinfo(ulk_transfer *transfer);

/// Frees what ulk_transfer_certinfo returned.
void ulk_free(void *pointer);

#endif
