/* fuzz_cache_entry.c: the platform cache's entry reader (platform/platform_cache.c): an entry
 * is taken only with the key it is asked for and a digest its contents match; what it
 * yields lies within the text. */
#include "platform/platform.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static const char key[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  char *s = fuzz_string(data, size);
  if (!s)
    return 0;
  const char *why = NULL, *body = plat_cache_entry_body(s, size, key, &why);
  if (body && (body < s || body > s + size || memcmp(s + 21, key, 64) != 0))
    abort();
  if (!body && !why)
    abort(); /* a refusal must say why */
  free(s);
  return 0;
}
