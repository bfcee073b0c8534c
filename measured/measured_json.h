/* measured_json.h: the fields of measured-data JSON, written only where they apply and read
 * back with their checks (what measured.c and measured_runs.c share). */
#ifndef MEASURED_MEASURED_JSON_H
#define MEASURED_MEASURED_JSON_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Adds key only when it applies: a non-empty string, a non-negative number. */
void md_json_add_str(cJSON *o, const char *key, const char *v);
void md_json_add_num(cJSON *o, const char *key, double v);

/* Copies string key into dst (truncated to len) when present. */
void md_json_get_str(const cJSON *o, const char *key, char *dst, size_t len);

/* A number field, or -1 when absent; *bad is set when present but not a non-negative number. */
double md_json_get_num(const cJSON *o, const char *key, int *bad);

/* A count field (ranks, repetitions, errors, indices): -1 when absent; *bad is set when it is
 * not a whole number an int holds, so that no conversion of a huge value is undefined. */
int md_json_get_count(const cJSON *o, const char *key, int *bad);

/* A count from an array element (same checks as md_json_get_count, but never absent). */
int md_json_count_of(const cJSON *v, int *bad);

#endif
