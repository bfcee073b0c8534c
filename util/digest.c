/* digest.c: SHA-256 through OpenSSL's EVP interface. */
#include "digest.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "common/sa_error.h"

static void to_hex(const unsigned char *md, char hex[65])
{
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

/* Feeds what read_more returns until it returns 0; a negative return is an error. */
static int digest(long (*read_more)(void *src, unsigned char *buf, size_t cap), void *src, char hex[65])
{
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  unsigned char buf[1 << 16], md[EVP_MAX_MD_SIZE];
  unsigned int mdlen = 0;
  int ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1, rc = ok ? 0 : SA_ENOMEM;
  long n = 0;
  while (ok && (n = read_more(src, buf, sizeof buf)) > 0)
    ok = EVP_DigestUpdate(ctx, buf, (size_t)n) == 1;
  if (ok && n < 0)
    rc = SA_EIO, ok = 0;
  if (ok && EVP_DigestFinal_ex(ctx, md, &mdlen) == 1 && mdlen == 32)
    to_hex(md, hex);
  else if (rc == 0)
    rc = SA_EIO;
  EVP_MD_CTX_free(ctx);
  return rc;
}

static long read_file(void *src, unsigned char *buf, size_t cap)
{
  size_t n = fread(buf, 1, cap, src);
  return n == 0 && ferror((FILE *)src) ? -1 : (long)n;
}

int util_sha256_file(const char *path, char hex[65])
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return SA_EIO;
  int rc = digest(read_file, f, hex);
  fclose(f);
  return rc;
}

typedef struct {
  const unsigned char *p;
  size_t left;
} memsrc;

static long read_mem(void *src, unsigned char *buf, size_t cap)
{
  memsrc *m = src;
  size_t n = m->left < cap ? m->left : cap;
  memcpy(buf, m->p, n);
  m->p += n;
  m->left -= n;
  return (long)n;
}

int util_sha256(const void *data, size_t len, char hex[65])
{
  memsrc m = {data, len};
  return digest(read_mem, &m, hex);
}
