/* digest.h: SHA-256 of a file (OpenSSL's libcrypto), to name exactly which platform a result
 * was simulated on. */
#ifndef UTIL_DIGEST_H
#define UTIL_DIGEST_H

#include <stddef.h>

/* hex receives 64 lowercase hex digits and a NUL. Returns 0, or SA_EIO / SA_ENOMEM. */
int util_sha256_file(const char *path, char hex[65]);
/* The same of len bytes in memory. */
int util_sha256(const void *data, size_t len, char hex[65]);

#endif
