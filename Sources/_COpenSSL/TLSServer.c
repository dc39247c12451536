// A TLS terminator for tests: accepts TLS on its own loopback port and pumps the bytes to and from a plain HTTP
// server, one thread per connection, with configurable certificates, protocols and hostile behaviours.
#include "COpenSSL.h"
#include "OpenSSLAPI.h"
#include "TLSServerParts.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

enum { SSL_CTRL_SET_MIN_PROTO_VERSION = 123, SSL_CTRL_SET_MAX_PROTO_VERSION = 124, SSL_FILETYPE_PEM = 1,
       SSL_ERROR_WANT_READ = 2, SSL_ERROR_WANT_WRITE = 3, SSL_TLSEXT_ERR_OK = 0, SSL_TLSEXT_ERR_NOACK = 3 };

static char *copy(const char *text) { return text ? strdup(text) : NULL; }

static void free_config(ulk_tls_server_config *config) {
    free((char *)config->chain_file);
    free((char *)config->key_file);
    free((char *)config->cipher_list);
    free((char *)config->ciphersuites);
}

void ulk_tls_count(ulk_tls_server *server, int counter) {
    pthread_mutex_lock(&server->lock);
    server->counts[counter] += 1;
    pthread_cond_broadcast(&server->changed);
    pthread_mutex_unlock(&server->lock);
}

/// Registers a descriptor, so that stopping can wake a thread blocked on it; 0 when the server is stopping.
int ulk_tls_track(ulk_tls_server *server, int fd) {
    int tracked = 0;
    pthread_mutex_lock(&server->lock);
    if (!server->stopping) {
        for (int i = 0; i < MAX_OPEN; i++) {
            if (server->open[i] < 0) { server->open[i] = fd; tracked = 1; break; }
        }
    }
    pthread_mutex_unlock(&server->lock);
    return tracked;
}

/// Unregisters and closes: under the lock first, so that stopping never shuts a reused descriptor number down.
void ulk_tls_release(ulk_tls_server *server, int fd) {
    if (fd < 0) return;
    pthread_mutex_lock(&server->lock);
    for (int i = 0; i < MAX_OPEN; i++) {
        if (server->open[i] == fd) { server->open[i] = -1; break; }
    }
    pthread_mutex_unlock(&server->lock);
    close(fd);
}

int ulk_tls_send_all(int fd, const unsigned char *bytes, size_t length) {
    while (length > 0) {
        ssize_t sent = send(fd, bytes, length, MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += sent;
        length -= (size_t)sent;
    }
    return 0;
}

/// Waits until `fd` is readable (1) or the server stops (0).
static int wait_readable(ulk_tls_server *server, int fd) {
    struct pollfd fds[2] = { { server->wake[0], POLLIN, 0 }, { fd, POLLIN, 0 } };
    for (;;) {
        int ready = poll(fds, 2, -1);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0 || fds[0].revents) return 0;
        if (fds[1].revents) return 1;
    }
}

/// Reads exactly `length` bytes; 0 on success.
static int receive_exactly(ulk_tls_server *server, int fd, unsigned char *buffer, size_t length) {
    size_t got = 0;
    while (got < length) {
        if (!wait_readable(server, fd)) return -1;
        ssize_t n = recv(fd, buffer + got, length - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    return 0;
}

/// Reads the ClientHello, lets OpenSSL answer it into memory, and sends only the first record of that answer.
static void close_after_first_message(ulk_tls_server *server, int fd) {
    void *ssl = ulk_ssl.SSL_new(server->ctx);
    if (!ssl) return;
    void *in = ulk_ssl.BIO_new(ulk_ssl.BIO_s_mem());
    void *out = ulk_ssl.BIO_new(ulk_ssl.BIO_s_mem());
    if (!in || !out) {
        if (in) ulk_ssl.BIO_free(in);
        if (out) ulk_ssl.BIO_free(out);
        ulk_ssl.SSL_free(ssl);
        return;
    }
    ulk_ssl.SSL_set_bio(ssl, in, out);  // the SSL owns both from here
    unsigned char *answer = malloc(1 << 16);
    unsigned char record[5 + (1 << 14) + 2048];
    int answered = 0;
    // A ClientHello may span records: feed them until OpenSSL has something to say.
    for (int records = 0; answer && records < 8 && !answered; records++) {
        if (receive_exactly(server, fd, record, 5) != 0) break;
        size_t length = ((size_t)record[3] << 8) | record[4];
        if (length > sizeof record - 5 || receive_exactly(server, fd, record + 5, length) != 0) break;
        ulk_ssl.BIO_write(in, record, (int)(5 + length));
        ulk_ssl.SSL_accept(ssl);
        int produced = ulk_ssl.BIO_read(out, answer, 1 << 16);
        if (produced >= 5) {
            size_t first = 5 + (((size_t)answer[3] << 8) | answer[4]);
            if (first > (size_t)produced) first = (size_t)produced;
            ulk_tls_send_all(fd, answer, first);
            answered = 1;
        }
    }
    free(answer);
    ulk_ssl.SSL_free(ssl);
    ulk_ssl.ERR_clear_error();
}

/// Accepts TCP and says nothing until the client leaves or the server stops.
static void stay_silent(ulk_tls_server *server, int fd) {
    unsigned char buffer[4096];
    while (wait_readable(server, fd)) {
        ssize_t n = recv(fd, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
    }
}

int ulk_tls_connect_upstream(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short)port);
    address.sin_addr.s_addr = htonl(0x7F000001);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { close(fd); return -1; }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

int ulk_tls_ssl_write_all(void *ssl, const unsigned char *bytes, size_t length) {
    while (length > 0) {
        int n = ulk_ssl.SSL_write(ssl, bytes, length > (1 << 30) ? (1 << 30) : (int)length);
        if (n <= 0) return -1;
        bytes += n;
        length -= (size_t)n;
    }
    return 0;
}

/// The handshake, then bytes both ways until either side closes; the upstream's close becomes a close_notify.
static void terminate_tls(ulk_tls_server *server, int fd) {
    void *ssl = ulk_ssl.SSL_new(server->ctx);
    if (!ssl) return;
    ulk_ssl.SSL_set_fd(ssl, fd);
    if (ulk_ssl.SSL_accept(ssl) != 1) {
        ulk_tls_count(server, ULK_TLS_FAILED_HANDSHAKES);
        ulk_ssl.SSL_free(ssl);
        ulk_ssl.ERR_clear_error();
        return;
    }
    ulk_tls_count(server, ULK_TLS_HANDSHAKES);
    if (ulk_ssl.SSL_session_reused(ssl)) ulk_tls_count(server, ULK_TLS_RESUMED);
    const unsigned char *protocol = NULL;
    unsigned int protocol_length = 0;
    ulk_ssl.SSL_get0_alpn_selected(ssl, &protocol, &protocol_length);
    if (protocol_length == 2 && memcmp(protocol, "h2", 2) == 0) {
        ulk_tls_count(server, ULK_TLS_HTTP2_CONNECTIONS);
        ulk_h2_serve(server, ssl, fd);
        ulk_ssl.SSL_free(ssl);
        ulk_ssl.ERR_clear_error();
        return;
    }
    int upstream = ulk_tls_connect_upstream(server->config.upstream_port);
    if (upstream >= 0 && !ulk_tls_track(server, upstream)) { close(upstream); upstream = -1; }
    if (upstream < 0) {
        ulk_ssl.SSL_shutdown(ssl);
        ulk_ssl.SSL_free(ssl);
        return;
    }
    unsigned char buffer[16384];
    long long forwarded = 0;
    int upstream_closed = 0;
    int truncated = 0;
    for (;;) {
        int from_client = ulk_ssl.SSL_pending(ssl) > 0;
        int from_upstream = 0;
        if (!from_client) {
            struct pollfd fds[3] = { { server->wake[0], POLLIN, 0 }, { fd, POLLIN, 0 }, { upstream, POLLIN, 0 } };
            int ready = poll(fds, 3, -1);
            if (ready < 0 && errno == EINTR) continue;
            if (ready < 0 || fds[0].revents) break;
            from_client = fds[1].revents != 0;
            from_upstream = fds[2].revents != 0;
        }
        if (from_client) {
            int n = ulk_ssl.SSL_read(ssl, buffer, sizeof buffer);
            if (n <= 0) {
                int error = ulk_ssl.SSL_get_error(ssl, n);
                if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) continue;
                break;  // the client closed or failed
            }
            if (ulk_tls_send_all(upstream, buffer, (size_t)n) != 0) break;
        }
        if (from_upstream) {
            ssize_t n = recv(upstream, buffer, sizeof buffer, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) { upstream_closed = 1; break; }
            size_t length = (size_t)n;
            if (server->config.behaviour == ULK_TLS_CLOSE_MID_BODY
                && forwarded + (long long)length >= server->config.truncate_after) {
                length = (size_t)(server->config.truncate_after - forwarded);
                truncated = 1;
            }
            if (length > 0 && ulk_tls_ssl_write_all(ssl, buffer, length) != 0) break;
            forwarded += (long long)length;
            if (truncated) break;
        }
    }
    // An honest end (the upstream closed) and a truncation both send close_notify: the client decides whether the
    // body was complete.
    if (upstream_closed || truncated) ulk_ssl.SSL_shutdown(ssl);
    ulk_ssl.SSL_free(ssl);
    ulk_ssl.ERR_clear_error();
    ulk_tls_release(server, upstream);
}

typedef struct { ulk_tls_server *server; void *(*body)(void *); void *argument; } spawned;

static void *run_spawned(void *argument) {
    spawned start = *(spawned *)argument;
    free(argument);
    start.body(start.argument);
    pthread_mutex_lock(&start.server->lock);
    start.server->live_threads -= 1;
    pthread_cond_broadcast(&start.server->changed);
    pthread_mutex_unlock(&start.server->lock);
    return NULL;
}

int ulk_tls_spawn(ulk_tls_server *server, void *(*body)(void *), void *argument) {
    spawned *start = malloc(sizeof *start);
    if (!start) return -1;
    *start = (spawned){ server, body, argument };
    pthread_mutex_lock(&server->lock);
    int stopping = server->stopping;
    if (!stopping) server->live_threads += 1;
    pthread_mutex_unlock(&server->lock);
    if (stopping) { free(start); return -1; }
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 256 * 1024);
    pthread_t thread;
    int failed = pthread_create(&thread, &attributes, run_spawned, start) != 0;
    pthread_attr_destroy(&attributes);
    if (failed) {
        free(start);
        pthread_mutex_lock(&server->lock);
        server->live_threads -= 1;
        pthread_cond_broadcast(&server->changed);
        pthread_mutex_unlock(&server->lock);
        return -1;
    }
    return 0;
}

typedef struct { ulk_tls_server *server; int fd; } connection_start;

static void *serve(void *argument) {
    connection_start start = *(connection_start *)argument;
    free(argument);
    ulk_tls_server *server = start.server;
    switch (server->config.behaviour) {
    case ULK_TLS_SILENT:
        stay_silent(server, start.fd);
        ulk_tls_count(server, ULK_TLS_FAILED_HANDSHAKES);
        break;
    case ULK_TLS_CLOSE_AFTER_FIRST_MESSAGE:
        close_after_first_message(server, start.fd);
        ulk_tls_count(server, ULK_TLS_FAILED_HANDSHAKES);
        break;
    default:
        terminate_tls(server, start.fd);
        break;
    }
    ulk_tls_release(server, start.fd);
    pthread_mutex_lock(&server->lock);
    server->counts[ULK_TLS_CLOSED] += 1;
    server->live_threads -= 1;
    pthread_cond_broadcast(&server->changed);
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

static void *accept_loop(void *argument) {
    ulk_tls_server *server = argument;
    // OpenSSL writes to sockets with write(2): a client that left must give EPIPE, not a process-wide SIGPIPE.
    // Connection threads inherit the mask.
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, NULL);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 256 * 1024);
    for (;;) {
        if (!wait_readable(server, server->listener)) break;
        int fd = accept(server->listener, NULL, NULL);
        if (fd < 0) continue;
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        connection_start *start = malloc(sizeof *start);
        if (!start || !ulk_tls_track(server, fd)) { free(start); close(fd); continue; }
        start->server = server;
        start->fd = fd;
        pthread_mutex_lock(&server->lock);
        server->counts[ULK_TLS_CONNECTIONS] += 1;
        server->live_threads += 1;
        pthread_cond_broadcast(&server->changed);
        pthread_mutex_unlock(&server->lock);
        pthread_t thread;
        if (pthread_create(&thread, &attributes, serve, start) != 0) {
            free(start);
            ulk_tls_release(server, fd);
            pthread_mutex_lock(&server->lock);
            server->live_threads -= 1;
            pthread_mutex_unlock(&server->lock);
        }
    }
    pthread_attr_destroy(&attributes);
    return NULL;
}

static int listen_loopback(int *port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(0x7F000001);
    socklen_t length = sizeof address;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 256) != 0
        || getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
        close(fd);
        return -1;
    }
    *port = ntohs(address.sin_port);
    return fd;
}

/// ALPN: "h2" when the server offers HTTP/2 and the client asks for it, else "http/1.1" or no protocol at all.
static int select_protocol(void *ssl, const unsigned char **out, unsigned char *out_length, const unsigned char *in,
                           unsigned int in_length, void *argument) {
    (void)ssl;
    const ulk_tls_server_config *config = argument;
    static const unsigned char both[] = "\x02h2\x08http/1.1";
    static const unsigned char http1[] = "\x08http/1.1";
    const unsigned char *offered = config->offers_http2 ? both : http1;
    unsigned int offered_length = config->offers_http2 ? sizeof both - 1 : sizeof http1 - 1;
    unsigned char *chosen = NULL;
    if (ulk_ssl.SSL_select_next_proto(&chosen, out_length, offered, offered_length, in, in_length) != 1)
        return SSL_TLSEXT_ERR_NOACK;
    *out = chosen;
    return SSL_TLSEXT_ERR_OK;
}

static void *make_context(const ulk_tls_server_config *config, char *error, size_t error_length) {
    void *ctx = ulk_ssl.SSL_CTX_new(ulk_ssl.TLS_server_method());
    if (!ctx) { ulk_ssl_error(error, error_length); return NULL; }
    // First: the level bounds what the certificate, the protocols and the ciphers below may be.
    ulk_ssl.SSL_CTX_set_security_level(ctx, config->security_level);
    const char *step = NULL;
    if (config->min_version && ulk_ssl.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, config->min_version, NULL) != 1)
        step = "minimum protocol version";
    else if (config->max_version && ulk_ssl.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MAX_PROTO_VERSION, config->max_version, NULL) != 1)
        step = "maximum protocol version";
    else if (config->cipher_list && ulk_ssl.SSL_CTX_set_cipher_list(ctx, config->cipher_list) != 1)
        step = "cipher list";
    else if (config->ciphersuites && ulk_ssl.SSL_CTX_set_ciphersuites(ctx, config->ciphersuites) != 1)
        step = "TLS 1.3 cipher suites";
    else if (ulk_ssl.SSL_CTX_use_certificate_chain_file(ctx, config->chain_file) != 1)
        step = "certificate chain";
    else if (ulk_ssl.SSL_CTX_use_PrivateKey_file(ctx, config->key_file, SSL_FILETYPE_PEM) != 1
             || ulk_ssl.SSL_CTX_check_private_key(ctx) != 1)
        step = "private key";
    if (!step) ulk_ssl.SSL_CTX_set_alpn_select_cb(ctx, select_protocol, (void *)config);
    if (step) {
        char reason[200];
        ulk_ssl_error(reason, sizeof reason);
        snprintf(error, error_length, "TLS server: %s refused: %s", step, reason);
        ulk_ssl.SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

ulk_tls_server *ulk_tls_server_start(const ulk_tls_server_config *config, char *error, size_t error_length) {
    if (ulk_ssl_load(error, error_length) != 0) return NULL;
    ulk_tls_server *server = calloc(1, sizeof *server);
    if (!server) { snprintf(error, error_length, "out of memory"); return NULL; }
    server->config = *config;
    server->config.chain_file = copy(config->chain_file);
    server->config.key_file = copy(config->key_file);
    server->config.cipher_list = copy(config->cipher_list);
    server->config.ciphersuites = copy(config->ciphersuites);
    server->listener = -1;
    server->wake[0] = server->wake[1] = -1;
    for (int i = 0; i < MAX_OPEN; i++) server->open[i] = -1;
    pthread_mutex_init(&server->lock, NULL);
    pthread_condattr_t clock;
    pthread_condattr_init(&clock);
    pthread_condattr_setclock(&clock, CLOCK_MONOTONIC);
    pthread_cond_init(&server->changed, &clock);
    pthread_condattr_destroy(&clock);
    int failed = config->offers_http2 && ulk_nghttp2_load(error, error_length) != 0;
    if (!failed) {
        server->ctx = make_context(&server->config, error, error_length);
        failed = !server->ctx;
    }
    if (!failed && pipe(server->wake) != 0) { snprintf(error, error_length, "pipe: %s", strerror(errno)); failed = 1; }
    if (!failed) {
        fcntl(server->wake[0], F_SETFD, FD_CLOEXEC);
        fcntl(server->wake[1], F_SETFD, FD_CLOEXEC);
        server->listener = listen_loopback(&server->port);
        if (server->listener < 0) { snprintf(error, error_length, "listen: %s", strerror(errno)); failed = 1; }
    }
    if (!failed && pthread_create(&server->accept_thread, NULL, accept_loop, server) != 0) {
        snprintf(error, error_length, "cannot start the accept thread");
        failed = 1;
    }
    if (failed) {
        if (server->listener >= 0) close(server->listener);
        if (server->wake[0] >= 0) { close(server->wake[0]); close(server->wake[1]); }
        if (server->ctx) ulk_ssl.SSL_CTX_free(server->ctx);
        pthread_cond_destroy(&server->changed);
        pthread_mutex_destroy(&server->lock);
        free_config(&server->config);
        free(server);
        return NULL;
    }
    return server;
}

int ulk_tls_server_port(const ulk_tls_server *server) { return server->port; }

long ulk_tls_server_count(ulk_tls_server *server, int counter) {
    pthread_mutex_lock(&server->lock);
    long value = server->counts[counter];
    pthread_mutex_unlock(&server->lock);
    return value;
}

static struct timespec after(long milliseconds) {
    struct timespec when;
    clock_gettime(CLOCK_MONOTONIC, &when);
    when.tv_sec += milliseconds / 1000;
    when.tv_nsec += (milliseconds % 1000) * 1000000L;
    if (when.tv_nsec >= 1000000000L) { when.tv_sec += 1; when.tv_nsec -= 1000000000L; }
    return when;
}

long ulk_tls_server_wait(ulk_tls_server *server, int counter, long value, long timeout_ms) {
    struct timespec deadline = after(timeout_ms);
    pthread_mutex_lock(&server->lock);
    while (server->counts[counter] < value && !server->stopping) {
        if (pthread_cond_timedwait(&server->changed, &server->lock, &deadline) == ETIMEDOUT) break;
    }
    long reached = server->counts[counter];
    pthread_mutex_unlock(&server->lock);
    return reached;
}

void ulk_tls_server_stop(ulk_tls_server *server) {
    pthread_mutex_lock(&server->lock);
    if (server->stopping) { pthread_mutex_unlock(&server->lock); return; }
    server->stopping = 1;
    // Under the lock: a thread unregisters a descriptor under it before closing, so none of these was reused.
    for (int i = 0; i < MAX_OPEN; i++) {
        if (server->open[i] >= 0) shutdown(server->open[i], SHUT_RDWR);
    }
    pthread_cond_broadcast(&server->changed);
    pthread_mutex_unlock(&server->lock);
    char byte = 1;
    while (write(server->wake[1], &byte, 1) < 0 && errno == EINTR) {}
    pthread_join(server->accept_thread, NULL);
    close(server->listener);
    struct timespec deadline = after(10000);
    pthread_mutex_lock(&server->lock);
    int timed_out = 0;
    while (server->live_threads > 0 && !timed_out) {
        timed_out = pthread_cond_timedwait(&server->changed, &server->lock, &deadline) == ETIMEDOUT;
    }
    pthread_mutex_unlock(&server->lock);
}

void ulk_tls_server_free(ulk_tls_server *server) {
    if (!server) return;
    ulk_tls_server_stop(server);
    pthread_mutex_lock(&server->lock);
    int live = server->live_threads;
    pthread_mutex_unlock(&server->lock);
    // A thread that never ended still reads the server: it is left allocated rather than freed under it.
    if (live > 0) return;
    close(server->wake[0]);
    close(server->wake[1]);
    ulk_ssl.SSL_CTX_free(server->ctx);
    pthread_cond_destroy(&server->changed);
    pthread_mutex_destroy(&server->lock);
    free_config(&server->config);
    free(server);
}
