#include "CLibcurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

// Option, info and message numbers from curl.h (stable ABI since their introduction).
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_PROXY = 10004, OPT_ERRORBUFFER = 10010, OPT_WRITEFUNCTION = 20011,
    OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_NOPROGRESS = 43, OPT_FOLLOWLOCATION = 52,
    OPT_FRESH_CONNECT = 74, OPT_FORBID_REUSE = 75, OPT_TIMEOUT_MS = 155, OPT_HTTPGET = 80, OPT_HTTP_VERSION = 84, OPT_NOSIGNAL = 99,
    OPT_PRIVATE = 10103, OPT_HEADERFUNCTION = 20079, OPT_HTTP_TRANSFER_DECODING = 157,
    OPT_HTTP_CONTENT_DECODING = 158, OPT_PROTOCOLS = 181, OPT_REDIR_PROTOCOLS = 182, OPT_RESOLVE = 10203, OPT_CONNECT_TO = 10243,
    OPT_PREREQFUNCTION = 20312, OPT_PREREQDATA = 10313, OPT_OPENSOCKETFUNCTION = 20163, OPT_OPENSOCKETDATA = 10164,
    INFO_PRIVATE = 0x100000 + 21,
    MOPT_MAXCONNECTS = 6, MOPT_MAX_HOST_CONNECTIONS = 7, MOPT_MAX_TOTAL_CONNECTIONS = 13,
    MSG_DONE = 1, PROTO_HTTP = 1, PROTO_HTTPS = 2, HTTP_VERSION_1_1 = 2, GLOBAL_DEFAULT = 3,
};

typedef struct { int msg; void *easy; union { void *whatever; int result; } data; } curl_msg;

static struct {
    int (*global_init)(long);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_getinfo)(void *, int, ...);
    const char *(*easy_strerror)(int);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
    void *(*multi_init)(void);
    int (*multi_cleanup)(void *);
    int (*multi_setopt)(void *, int, ...);
    int (*multi_add_handle)(void *, void *);
    int (*multi_remove_handle)(void *, void *);
    int (*multi_perform)(void *, int *);
    int (*multi_poll)(void *, void *, unsigned int, int, int *);
    int (*multi_wakeup)(void *);
    int (*multi_timeout)(void *, long *);
    curl_msg *(*multi_info_read)(void *, int *);
    void *(*share_init)(void);
    int (*share_setopt)(void *, int, ...);
    int (*share_cleanup)(void *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;
static int counts_requests = 0;
static int expiring_resolves = 0;

// The head of curl_version_info_data, the same in every version.
typedef struct { int age; const char *version; unsigned int version_num; } version_head;

#define LOAD(field, name) if (!(*(void **)(&api.field) = dlsym(lib, name))) return;

static void load(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    LOAD(global_init, "curl_global_init")
    LOAD(easy_init, "curl_easy_init")
    LOAD(easy_cleanup, "curl_easy_cleanup")
    LOAD(easy_setopt, "curl_easy_setopt")
    LOAD(easy_getinfo, "curl_easy_getinfo")
    LOAD(easy_strerror, "curl_easy_strerror")
    LOAD(slist_append, "curl_slist_append")
    LOAD(slist_free_all, "curl_slist_free_all")
    LOAD(multi_init, "curl_multi_init")
    LOAD(multi_cleanup, "curl_multi_cleanup")
    LOAD(multi_setopt, "curl_multi_setopt")
    LOAD(multi_add_handle, "curl_multi_add_handle")
    LOAD(multi_remove_handle, "curl_multi_remove_handle")
    LOAD(multi_perform, "curl_multi_perform")
    LOAD(multi_poll, "curl_multi_poll")
    LOAD(multi_wakeup, "curl_multi_wakeup")
    LOAD(multi_timeout, "curl_multi_timeout")
    LOAD(multi_info_read, "curl_multi_info_read")
    LOAD(share_init, "curl_share_init")
    LOAD(share_setopt, "curl_share_setopt")
    LOAD(share_cleanup, "curl_share_cleanup")
    // Reference counted by libcurl: harmless when FoundationNetworking has initialised it already.
    if (api.global_init(GLOBAL_DEFAULT) != 0) return;
    void *probe = api.easy_init();
    if (!probe) return;
    counts_requests = api.easy_setopt(probe, OPT_PREREQDATA, (void *)0) == 0;
    api.easy_cleanup(probe);
    // "+HOST:PORT:ADDRESS" resolve entries (7.75.0) time out like looked-up ones; plain entries stay for good.
    const version_head *(*version_info)(int) = (const version_head *(*)(int))dlsym(lib, "curl_version_info");
    const version_head *version = version_info ? version_info(0) : NULL;
    expiring_resolves = version && version->version_num >= 0x074B00;
    load_result = 0;
}

int ulk_curl_load(void) {
    pthread_once(&load_once, load);
    return load_result;
}

int ulk_curl_counts_requests(void) { return counts_requests; }

int ulk_curl_expiring_resolves(void) { return expiring_resolves; }

static int ascii_prefix(const char *line, size_t length, const char *prefix) {
    size_t n = strlen(prefix);
    return length >= n && strncasecmp(line, prefix, n) == 0;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    ulk_transfer *t = user;
    size_t length = size * count;
    t->head_total += length;
    if (t->head_total > t->header_cap) { t->head_over_cap = 1; return 0; }
    if (ascii_prefix(data, length, "HTTP/")) {
        // A new answer (after a 1xx, or the first): its headers replace the previous ones.
        const char *space = memchr(data, ' ', length);
        long code = 0;
        if (space) {
            for (const char *p = space + 1; p < data + length && *p >= '0' && *p <= '9'; p++) code = code * 10 + (*p - '0');
        }
        t->status = code;
        t->got_status = 1;
        t->head_done = 0;
        t->head_len = 0;
        t->encoded = 0;
        t->content_length = -1;
        t->length_headers = 0;
        t->chunked = 0;
        t->bad_framing = 0;
        return length;
    }
    if (length <= 2 && (data[0] == '\r' || data[0] == '\n')) {
        // The end of this answer's head. RFC 9112 §6.3: a length beside Transfer-Encoding "ought to be handled as
        // an error" (request smuggling, response splitting), and so are differing lengths. libcurl would pick one
        // reading (or wait for a close that never comes): the body is not read, the connection is closed. A 2xx
        // answer so framed is refused; any other answer is complete at its head anyway (only a 2xx body is read).
        if (t->chunked && t->length_headers > 0) t->bad_framing = 1;
        if (t->status >= 200) t->head_done = 1;
        if (t->bad_framing && t->status >= 200) {
            if (t->status >= 300) t->finished_early = 1;
            return 0;
        }
        return length;
    }
    if (ascii_prefix(data, length, "content-encoding:")) {
        const char *v = data + 17, *end = data + length;
        while (v < end && (*v == ' ' || *v == '\t')) v++;
        size_t rest = (size_t)(end - v);
        while (rest > 0 && (v[rest - 1] == '\r' || v[rest - 1] == '\n' || v[rest - 1] == ' ')) rest--;
        t->encoded = !(rest == 8 && strncasecmp(v, "identity", 8) == 0) && rest > 0;
    } else if (ascii_prefix(data, length, "content-length:")) {
        long long value = strtoll(data + 15, NULL, 10);
        if (t->length_headers > 0 && value != t->content_length) t->bad_framing = 1;
        t->length_headers += 1;
        t->content_length = value;
    } else if (ascii_prefix(data, length, "transfer-encoding:")) {
        // Only chunked is asked for and understood: any other coding (gzip...) would reach us undecoded, or
        // inflated, and leave the body without an end but the connection's close.
        const char *v = data + 18, *end = data + length;
        while (v < end && (*v == ' ' || *v == '\t')) v++;
        size_t rest = (size_t)(end - v);
        while (rest > 0 && (v[rest - 1] == '\r' || v[rest - 1] == '\n' || v[rest - 1] == ' ' || v[rest - 1] == '\t')) rest--;
        if (t->chunked || !(rest == 7 && strncasecmp(v, "chunked", 7) == 0)) t->bad_framing = 1;
        t->chunked = 1;
    }
    if (t->head_len + length > t->head_capacity) {
        size_t capacity = t->head_capacity ? t->head_capacity * 2 : 1024;
        while (capacity < t->head_len + length) capacity *= 2;
        char *grown = realloc(t->head, capacity);
        if (!grown) return 0;
        t->head = grown;
        t->head_capacity = capacity;
    }
    memcpy(t->head + t->head_len, data, length);
    t->head_len += length;
    return length;
}

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    ulk_transfer *t = user;
    size_t length = size * count;
    t->head_done = 1;
    if (t->status < 200 || t->status >= 300) {
        // Only a 2xx body is read: stop here, the status and headers are the whole answer.
        t->finished_early = 1;
        return 0;
    }
    if (t->encoded) return 0;  // never inflated, never read: refused by the caller
    if ((t->content_length >= 0 && (unsigned long long)t->content_length > t->cap) || t->body_len + length > t->cap) {
        t->over_cap = 1;
        return 0;
    }
    if (t->body_len + length > t->body_capacity) {
        size_t capacity = t->body_capacity ? t->body_capacity * 2 : 4096;
        while (capacity < t->body_len + length) capacity *= 2;
        if (capacity > t->cap) capacity = t->cap;
        unsigned char *grown = realloc(t->body, capacity);
        if (!grown) return 0;
        t->body = grown;
        t->body_capacity = capacity;
    }
    memcpy(t->body + t->body_len, data, length);
    t->body_len += length;
    return length;
}

/// Whether `address` is one of the comma separated `list`.
static int listed(const char *list, const char *address) {
    size_t n = strlen(address);
    for (const char *p = list; *p;) {
        const char *comma = strchr(p, ',');
        size_t length = comma ? (size_t)(comma - p) : strlen(p);
        if (length == n && strncmp(p, address, n) == 0) return 1;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

static long long monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

// curl.h's `struct curl_sockaddr` (stable since 7.17.1).
typedef struct { int family; int socktype; int protocol; unsigned int addrlen; struct sockaddr addr; } curl_sockaddr;

// The transfer's first connection attempt: it no longer waits for a connection slot.
static int on_opensocket(void *user, int purpose, curl_sockaddr *address) {
    (void)purpose;
    ulk_transfer *t = user;
    if (!t->started_ns) t->started_ns = monotonic_ns();
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

static int on_prerequest(void *user, char *primary_ip, char *local_ip, int primary_port, int local_port) {
    (void)local_ip; (void)primary_port; (void)local_port;
    ulk_transfer *t = user;
    // On a reused connection, the first moment it had a connection.
    if (!t->started_ns) t->started_ns = monotonic_ns();
    if (t->deadline_ns && monotonic_ns() >= t->deadline_ns) {
        // It waited past its caller's deadline (for a connection slot, say): a click must not be counted for a
        // caller that was already answered.
        t->deadline_passed = 1;
        return 1;
    }
    if (t->pinned && (!primary_ip || !listed(t->pinned, primary_ip))) {
        t->address_mismatch = 1;
        return 1;
    }
    if (t->sends >= t->max_sends) {
        t->resend_refused = 1;
        return 1;  // CURL_PREREQFUNC_ABORT: the request is not sent again
    }
    t->sends += 1;
    return 0;
}

ulk_transfer *ulk_transfer_create(const char *url, const char *const *header_lines, int header_count,
                                  const char *connect_to, const char *resolve, const char *pinned, size_t cap,
                                  size_t header_cap, int fresh_connect, long long send_within_ns) {
    if (ulk_curl_load() != 0) return NULL;
    ulk_transfer *t = calloc(1, sizeof(ulk_transfer));
    if (!t) return NULL;
    t->easy = api.easy_init();
    if (!t->easy) { free(t); return NULL; }
    t->cap = cap;
    t->header_cap = header_cap;
    t->max_sends = 1;
    t->content_length = -1;
    t->created_ns = monotonic_ns();
    if (send_within_ns >= 0) t->deadline_ns = monotonic_ns() + send_within_ns;
    if (pinned && !(t->pinned = strdup(pinned))) { api.easy_cleanup(t->easy); free(t); return NULL; }
    for (int i = 0; i < header_count; i++) t->headers = api.slist_append(t->headers, header_lines[i]);
    void *e = t->easy;
    int failed = 0;
    failed |= api.easy_setopt(e, OPT_URL, url);
    failed |= api.easy_setopt(e, OPT_HTTPGET, 1L);
    failed |= api.easy_setopt(e, OPT_HTTPHEADER, t->headers);
    failed |= api.easy_setopt(e, OPT_NOSIGNAL, 1L);
    failed |= api.easy_setopt(e, OPT_NOPROGRESS, 1L);
    failed |= api.easy_setopt(e, OPT_FOLLOWLOCATION, 0L);
    failed |= api.easy_setopt(e, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    failed |= api.easy_setopt(e, OPT_REDIR_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    failed |= api.easy_setopt(e, OPT_HTTP_VERSION, (long)HTTP_VERSION_1_1);
    // "" is "no proxy", even when http_proxy, HTTPS_PROXY or ALL_PROXY is set: through a proxy, the connection
    // would go to the proxy's address and the proxy would look the name up again, past the address check.
    failed |= api.easy_setopt(e, OPT_PROXY, "");
    // No Accept-Encoding is sent (CURLOPT_ACCEPT_ENCODING stays unset) and nothing is ever inflated.
    failed |= api.easy_setopt(e, OPT_HTTP_CONTENT_DECODING, 0L);
    failed |= api.easy_setopt(e, OPT_WRITEFUNCTION, on_body);
    failed |= api.easy_setopt(e, OPT_WRITEDATA, t);
    failed |= api.easy_setopt(e, OPT_HEADERFUNCTION, on_header);
    failed |= api.easy_setopt(e, OPT_HEADERDATA, t);
    failed |= api.easy_setopt(e, OPT_ERRORBUFFER, t->error);
    failed |= api.easy_setopt(e, OPT_PRIVATE, t);
    failed |= api.easy_setopt(e, OPT_OPENSOCKETFUNCTION, on_opensocket);
    failed |= api.easy_setopt(e, OPT_OPENSOCKETDATA, t);
    if (connect_to) {
        t->connect_to = api.slist_append(NULL, connect_to);
        failed |= api.easy_setopt(e, OPT_CONNECT_TO, t->connect_to);
    }
    if (resolve) {
        t->resolve = api.slist_append(NULL, resolve);
        failed |= api.easy_setopt(e, OPT_RESOLVE, t->resolve);
    }
    if (counts_requests) {
        failed |= api.easy_setopt(e, OPT_PREREQFUNCTION, on_prerequest);
        failed |= api.easy_setopt(e, OPT_PREREQDATA, t);
    }
    if (send_within_ns >= 0) {
        // The whole transfer ends by the caller's deadline, so a caller may run it on its own task: libcurl fails it
        // with CURLE_OPERATION_TIMEDOUT (at least 1 ms: 0 would mean no limit).
        long within_ms = (long)((send_within_ns + 999999) / 1000000);
        failed |= api.easy_setopt(e, OPT_TIMEOUT_MS, within_ms > 0 ? within_ms : 1L);
    }
    if (fresh_connect || !counts_requests) {
        // Without the pre-request count, a fresh connection is the only way to keep libcurl from re-sending.
        failed |= api.easy_setopt(e, OPT_FRESH_CONNECT, 1L);
        if (!counts_requests) failed |= api.easy_setopt(e, OPT_FORBID_REUSE, 1L);
    }
    if (failed) { ulk_transfer_free(t); return NULL; }
    return t;
}

void ulk_transfer_free(ulk_transfer *t) {
    if (!t) return;
    if (t->easy) api.easy_cleanup(t->easy);
    if (t->headers) api.slist_free_all(t->headers);
    if (t->connect_to) api.slist_free_all(t->connect_to);
    if (t->resolve) api.slist_free_all(t->resolve);
    free(t->pinned);
    free(t->body);
    free(t->head);
    free(t);
}

// curl.h's share and multi option numbers.
enum {
    SHOPT_SHARE = 1, SHOPT_LOCKFUNC = 3, SHOPT_UNLOCKFUNC = 4, SHOPT_USERDATA = 5, LOCK_DATA_SSL_SESSION = 4,
    OPT_SHARE = 10100, MOPT_PIPELINING = 3, MOPT_MAX_CONCURRENT_STREAMS = 16, PIPE_MULTIPLEX = 2,
};

/// The multi handle and the share handle of its transfers' TLS sessions.
typedef struct { void *multi; void *share; pthread_mutex_t lock; } ulk_multi;

// The share handle is locked although one thread drives the multi handle: a transfer's easy handle is freed on
// whichever thread finishes with it.
static void share_lock(void *easy, int data, int access, void *user) {
    (void)easy; (void)data; (void)access;
    pthread_mutex_lock(&((ulk_multi *)user)->lock);
}

static void share_unlock(void *easy, int data, void *user) {
    (void)easy; (void)data;
    pthread_mutex_unlock(&((ulk_multi *)user)->lock);
}

void *ulk_multi_create(long max_host_connections, long max_total_connections, long max_cached, long max_streams) {
    if (ulk_curl_load() != 0) return NULL;
    ulk_multi *m = calloc(1, sizeof(ulk_multi));
    if (!m) return NULL;
    m->multi = api.multi_init();
    if (!m->multi) { free(m); return NULL; }
    pthread_mutex_init(&m->lock, NULL);
    api.multi_setopt(m->multi, MOPT_MAX_HOST_CONNECTIONS, max_host_connections);
    api.multi_setopt(m->multi, MOPT_MAX_TOTAL_CONNECTIONS, max_total_connections);
    api.multi_setopt(m->multi, MOPT_MAXCONNECTS, max_cached);
    api.multi_setopt(m->multi, MOPT_PIPELINING, (long)PIPE_MULTIPLEX);
    api.multi_setopt(m->multi, MOPT_MAX_CONCURRENT_STREAMS, max_streams);
    m->share = api.share_init();
    if (m->share) {
        int failed = 0;
        failed |= api.share_setopt(m->share, SHOPT_LOCKFUNC, share_lock);
        failed |= api.share_setopt(m->share, SHOPT_UNLOCKFUNC, share_unlock);
        failed |= api.share_setopt(m->share, SHOPT_USERDATA, m);
        failed |= api.share_setopt(m->share, SHOPT_SHARE, (long)LOCK_DATA_SSL_SESSION);
        // Without a working share, each connection makes a full handshake: slower, never wrong.
        if (failed) { api.share_cleanup(m->share); m->share = NULL; }
    }
    return m;
}

void ulk_multi_free(void *multi) {
    ulk_multi *m = multi;
    if (!m) return;
    api.multi_cleanup(m->multi);
    if (m->share) api.share_cleanup(m->share);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

int ulk_multi_add(void *multi, ulk_transfer *t) {
    ulk_multi *m = multi;
    if (m->share) api.easy_setopt(t->easy, OPT_SHARE, m->share);
    return api.multi_add_handle(m->multi, t->easy);
}

int ulk_multi_remove(void *multi, ulk_transfer *t) { return api.multi_remove_handle(((ulk_multi *)multi)->multi, t->easy); }

int ulk_multi_perform(void *multi) {
    int running = 0;
    api.multi_perform(((ulk_multi *)multi)->multi, &running);
    return running;
}

int ulk_multi_poll(void *multi, int max_ms) {
    void *handle = ((ulk_multi *)multi)->multi;
    long timeout = -1;
    api.multi_timeout(handle, &timeout);
    int wait = (timeout < 0 || timeout > max_ms) ? max_ms : (int)timeout;
    int ready = 0;
    return api.multi_poll(handle, NULL, 0, wait, &ready);
}

int ulk_multi_wakeup(void *multi) { return api.multi_wakeup(((ulk_multi *)multi)->multi); }

ulk_transfer *ulk_multi_next_done(void *multi, int *code) {
    int left = 0;
    curl_msg *msg;
    while ((msg = api.multi_info_read(((ulk_multi *)multi)->multi, &left))) {
        if (msg->msg != MSG_DONE) continue;
        ulk_transfer *t = NULL;
        api.easy_getinfo(msg->easy, INFO_PRIVATE, (char **)&t);
        *code = msg->data.result;
        if (t) return t;
    }
    return NULL;
}

const char *ulk_strerror(int code) { return api.easy_strerror ? api.easy_strerror(code) : "libcurl not loaded"; }

enum { OPT_SSLVERSION_ = 32, OPT_CAINFO_ = 10065, OPT_CAPATH_ = 10097, OPT_PIPEWAIT = 237, SSLVERSION_TLS12 = 6,
       HTTP_VERSION_2TLS = 4, CURLE_OUT_OF_MEMORY = 27 };

int ulk_transfer_set_trust(ulk_transfer *t, const char *ca_file, int http2) {
    void *e = t->easy;
    int failed = 0;
    failed |= api.easy_setopt(e, OPT_SSLVERSION_, (long)SSLVERSION_TLS12);
    if (ca_file) {
        failed |= api.easy_setopt(e, OPT_CAINFO_, ca_file);
        failed |= api.easy_setopt(e, OPT_CAPATH_, (char *)NULL);
    }
    if (http2) {
        failed |= api.easy_setopt(e, OPT_HTTP_VERSION, (long)HTTP_VERSION_2TLS);
        failed |= api.easy_setopt(e, OPT_PIPEWAIT, 1L);
    }
    return failed;
}

int ulk_transfer_arm(ulk_transfer *t) {
    if (!t->deadline_ns) return 0;
    long long left = t->deadline_ns - monotonic_ns();
    if (left <= 0) return -1;
    long within_ms = (long)((left + 999999) / 1000000);
    api.easy_setopt(t->easy, OPT_TIMEOUT_MS, within_ms > 0 ? within_ms : 1L);
    return 0;
}

void ulk_transfer_settle(ulk_transfer *t, int code) {
    if (code == CURLE_OUT_OF_MEMORY && !t->head_done) t->head_over_cap = 1;
}

// Option and info numbers of the TLS checks, from curl.h.
enum {
    OPT_SSLVERSION = 32, OPT_SSL_VERIFYPEER = 64, OPT_SSL_VERIFYHOST = 81, OPT_CAINFO = 10065,
    OPT_SSL_CIPHER_LIST = 10083, OPT_CAPATH = 10097, OPT_CONNECT_ONLY = 141, OPT_CERTINFO = 172,
    INFO_SSL_VERIFYRESULT = 0x200000 + 13, INFO_CERTINFO = 0x400000 + 34,
};

typedef struct curl_slist_node { char *data; struct curl_slist_node *next; } curl_slist_node;
typedef struct { int num_of_certs; curl_slist_node **certinfo; } curl_certinfo;

int ulk_transfer_set_tls(ulk_transfer *t, const ulk_tls_options *options) {
    void *e = t->easy;
    int failed = 0;
    if (options->ca_file) {
        failed |= api.easy_setopt(e, OPT_CAINFO, options->ca_file);
        // NULL: no CA directory either, so the file's roots are the only ones.
        failed |= api.easy_setopt(e, OPT_CAPATH, (char *)NULL);
    }
    failed |= api.easy_setopt(e, OPT_SSL_VERIFYPEER, options->verify_peer ? 1L : 0L);
    failed |= api.easy_setopt(e, OPT_SSL_VERIFYHOST, options->verify_host ? 2L : 0L);
    if (options->ssl_version) failed |= api.easy_setopt(e, OPT_SSLVERSION, options->ssl_version);
    if (options->cipher_list) failed |= api.easy_setopt(e, OPT_SSL_CIPHER_LIST, options->cipher_list);
    if (options->cert_info) failed |= api.easy_setopt(e, OPT_CERTINFO, 1L);
    if (options->connect_only) failed |= api.easy_setopt(e, OPT_CONNECT_ONLY, 1L);
    // Each check is its own connection: never reused, never left for another.
    failed |= api.easy_setopt(e, OPT_FRESH_CONNECT, 1L);
    failed |= api.easy_setopt(e, OPT_FORBID_REUSE, 1L);
    return failed;
}

static pthread_once_t perform_once = PTHREAD_ONCE_INIT;
static int (*easy_perform)(void *) = NULL;

// curl_easy_perform, from the library ulk_curl_load opened (opening it again only takes a reference).
static void load_perform(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (lib) *(void **)(&easy_perform) = dlsym(lib, "curl_easy_perform");
}

int ulk_transfer_perform(ulk_transfer *t) {
    pthread_once(&perform_once, load_perform);
    if (!easy_perform) return 2;  // CURLE_FAILED_INIT
    return easy_perform(t->easy);
}

long ulk_transfer_verify_result(ulk_transfer *t) {
    long result = 0;
    if (api.easy_getinfo(t->easy, INFO_SSL_VERIFYRESULT, &result) != 0) return -1;
    return result;
}

char *ulk_transfer_certinfo(ulk_transfer *t) {
    curl_certinfo *info = NULL;
    if (api.easy_getinfo(t->easy, INFO_CERTINFO, &info) != 0 || !info || info->num_of_certs <= 0) return NULL;
    size_t length = 1;
    for (int i = 0; i < info->num_of_certs; i++) {
        for (curl_slist_node *n = info->certinfo[i]; n; n = n->next) length += strlen(n->data) + 1;
        length += 1;
    }
    char *text = malloc(length);
    if (!text) return NULL;
    size_t at = 0;
    for (int i = 0; i < info->num_of_certs; i++) {
        if (i > 0) text[at++] = 0x1E;
        for (curl_slist_node *n = info->certinfo[i]; n; n = n->next) {
            if (n != info->certinfo[i]) text[at++] = 0x1F;
            size_t size = strlen(n->data);
            memcpy(text + at, n->data, size);
            at += size;
        }
    }
    text[at] = 0;
    return text;
}

void ulk_free(void *pointer) { free(pointer); }
