/* jsonlines.h: JSON Lines result files: a header line, one line per item, an end line whose
 * absence marks a run that stopped early. The runner writes them (runner/runner_stream.c,
 * items "point") and so does simallreduce --jsonl (items "result"). */
#ifndef UTIL_JSONLINES_H
#define UTIL_JSONLINES_H

#include <cjson/cJSON.h>

typedef enum { UTIL_REC_HEADER, UTIL_REC_POINT, UTIL_REC_RESULT, UTIL_REC_END } util_jsonl_record;

/* One line's record: its kind, *o its object (the caller frees it). Returns the kind, or
 * SA_EPARSE for a line that is none of them. */
int util_jsonl_line(const char *line, cJSON **o);

/* A whole file's text as one document: the header's fields, the items in order under
 * `array` (records of kind `item`), and "complete" (an end line was there). A text that is
 * one JSON object already (the runner's files before the stream, --json) is returned as it
 * is. NULL when the text is neither. */
cJSON *util_jsonl_doc(const char *text, util_jsonl_record item, const char *array);

/* The runner's result file as one document: items "point" under "points". */
cJSON *util_jsonl_runner_doc(const char *text);

#endif
