/* textclean.h: text that goes into result files from outside (file names, host names, a
 * command line): valid UTF-8 in JSON, quoted CSV fields. */
#ifndef UTIL_TEXTCLEAN_H
#define UTIL_TEXTCLEAN_H

#include <cjson/cJSON.h>
#include <stdio.h>

/* s with every byte that does not belong to a valid UTF-8 sequence replaced by U+FFFD;
 * malloc'd, NULL when out of memory. */
char *util_utf8_valid(const char *s);

/* Makes every string and key under o valid UTF-8 (cJSON writes bytes as they are). Returns 0
 * or SA_ENOMEM. */
int util_json_utf8(cJSON *o);

/* Writes s as one CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma,
 * a quote, a line break or leading or trailing blanks. */
void util_csv_field(FILE *f, const char *s);

#endif
