/* jsonlines.h: JSON Lines result files: a header line, one line per item, an end line whose
 * absence marks a run that stopped early. The runner writes them (runner/runner_stream.c,
 * items "point") and so does simallreduce --jsonl (items "result"). */
#ifndef SIM_JSONLINES_H
#define SIM_JSONLINES_H

#include <cjson/cJSON.h>

typedef enum { SIM_REC_HEADER, SIM_REC_POINT, SIM_REC_RESULT, SIM_REC_END } sim_record;

/* One line's record: its kind, *o its object (the caller frees it). Returns the kind, or
 * SA_EPARSE for a line that is none of them. */
int sim_jsonl_line(const char *line, cJSON **o);

/* A whole file's text as one document: the header's fields, the items in order under
 * `array` (records of kind `item`), and "complete" (an end line was there). A text that is
 * one JSON object already (the runner's files before the stream, --json) is returned as it
 * is. NULL when the text is neither. */
cJSON *sim_jsonl_doc(const char *text, sim_record item, const char *array);

/* The runner's result file as one document: items "point" under "points". */
cJSON *sim_runner_doc(const char *text);

#endif
