// The OpenSSL 3 entry points the PKI and the TLS terminator call, declared here (no OpenSSL headers needed) and
// filled by ulk_ssl_load from the libraries loaded at run time. Every handle is an opaque pointer.
#ifndef ULK_OPENSSL_API_H
#define ULK_OPENSSL_API_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    void *(*EVP_PKEY_Q_keygen)(void *libctx, const char *propq, const char *type, ...);
    void (*EVP_PKEY_free)(void *);
    const void *(*EVP_sha256)(void);
    const void *(*EVP_sha1)(void);
    void *(*X509_new)(void);
    void (*X509_free)(void *);
    int (*X509_set_version)(void *, long);
    void *(*X509_get_serialNumber)(void *);
    int (*ASN1_INTEGER_set)(void *, long);
    void *(*X509_getm_notBefore)(const void *);
    void *(*X509_getm_notAfter)(const void *);
    void *(*X509_gmtime_adj)(void *, long);
    void *(*X509_get_subject_name)(const void *);
    int (*X509_set_issuer_name)(void *, const void *);
    int (*X509_NAME_add_entry_by_txt)(void *, const char *, int, const unsigned char *, int, int, int);
    int (*X509_set_pubkey)(void *, void *);
    int (*X509_sign)(void *, void *, const void *);
    void (*X509V3_set_ctx)(void *, void *, void *, void *, void *, int);
    void *(*X509V3_EXT_conf_nid)(void *, void *, int, const char *);
    int (*X509_add_ext)(void *, void *, int);
    void (*X509_EXTENSION_free)(void *);
    void *(*BIO_new_file)(const char *, const char *);
    void *(*BIO_new)(const void *);
    const void *(*BIO_s_mem)(void);
    int (*BIO_read)(void *, void *, int);
    int (*BIO_write)(void *, const void *, int);
    int (*BIO_free)(void *);
    int (*PEM_write_bio_X509)(void *, void *);
    int (*PEM_write_bio_PrivateKey)(void *, void *, const void *, const unsigned char *, int, void *, void *);
    unsigned long (*ERR_get_error)(void);
    void (*ERR_error_string_n)(unsigned long, char *, size_t);
    void (*ERR_clear_error)(void);
    const void *(*TLS_server_method)(void);
    void *(*SSL_CTX_new)(const void *);
    void (*SSL_CTX_free)(void *);
    long (*SSL_CTX_ctrl)(void *, int, long, void *);
    void (*SSL_CTX_set_security_level)(void *, int);
    int (*SSL_CTX_set_cipher_list)(void *, const char *);
    int (*SSL_CTX_set_ciphersuites)(void *, const char *);
    int (*SSL_CTX_use_certificate_chain_file)(void *, const char *);
    int (*SSL_CTX_use_PrivateKey_file)(void *, const char *, int);
    int (*SSL_CTX_check_private_key)(const void *);
    void *(*SSL_new)(void *);
    void (*SSL_free)(void *);
    int (*SSL_set_fd)(void *, int);
    void (*SSL_set_bio)(void *, void *, void *);
    int (*SSL_accept)(void *);
    int (*SSL_read)(void *, void *, int);
    int (*SSL_write)(void *, const void *, int);
    int (*SSL_pending)(const void *);
    int (*SSL_get_error)(const void *, int);
    int (*SSL_shutdown)(void *);
    int (*SSL_session_reused)(const void *);
    void (*SSL_CTX_set_alpn_select_cb)(void *, int (*)(void *, const unsigned char **, unsigned char *,
                                                         const unsigned char *, unsigned int, void *), void *);
    int (*SSL_select_next_proto)(unsigned char **, unsigned char *, const unsigned char *, unsigned int,
                                 const unsigned char *, unsigned int);
    void (*SSL_get0_alpn_selected)(const void *, const unsigned char **, unsigned int *);
} ulk_openssl_api;

/// Filled by ulk_ssl_load; read only after it returned 0.
extern ulk_openssl_api ulk_ssl;

#endif
