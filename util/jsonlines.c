/* jsonlines.c: JSON Lines result files read line by line, or as one document. */
#include "jsonlines.h"

#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"

int util_jsonl_line(const char *line, cJSON **o)
{
  static const char *const kinds[] = {[UTIL_REC_HEADER] = "header", [UTIL_REC_POINT] = "point",
                                      [UTIL_REC_RESULT] = "result", [UTIL_REC_END] = "end"};
  *o = cJSON_Parse(line);
  const cJSON *rec = cJSON_GetObjectItemCaseSensitive(*o, "record");
  for (int k = 0; cJSON_IsString(rec) && k < (int)(sizeof kinds / sizeof kinds[0]); k++)
    if (strcmp(rec->valuestring, kinds[k]) == 0)
      return k;
  cJSON_Delete(*o);
  *o = NULL;
  return SA_EPARSE;
}

/* JSON Lines: the header first, then items, perhaps an end (whose fields join the header's);
 * nothing after the end. A last
 * line without its newline is one the writer had not finished: left out. */
static cJSON *doc_of_lines(const char *text, util_jsonl_record item, const char *array)
{
  cJSON *doc = NULL, *points = NULL;
  int complete = 0, ok = 1;
  char *copy = strdup(text), *save = NULL, *last = copy ? strrchr(copy, '\n') : NULL;
  if (copy)
    *(last ? last + 1 : copy) = '\0';
  for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; line && ok; line = strtok_r(NULL, "\n", &save)) {
    cJSON *o;
    int kind = util_jsonl_line(line, &o);
    ok = (kind == UTIL_REC_HEADER || kind == (int)item || kind == UTIL_REC_END) && !complete &&
         (kind == UTIL_REC_HEADER) == !doc;
    if (ok && kind == UTIL_REC_HEADER) {
      doc = o;
      cJSON_DeleteItemFromObjectCaseSensitive(doc, "record");
      /* the runner's header counts its points under the name the list takes */
      cJSON_DeleteItemFromObjectCaseSensitive(doc, array);
      points = cJSON_AddArrayToObject(doc, array);
      continue;
    }
    if (ok && kind == (int)item) {
      cJSON_DeleteItemFromObjectCaseSensitive(o, "record");
      cJSON_AddItemToArray(points, o);
      continue;
    }
    complete = kind == UTIL_REC_END;
    for (cJSON *f = o ? o->child : NULL, *next; complete && f; f = next) { /* the end's fields join the header's */
      next = f->next;
      if (strcmp(f->string, "record") != 0 && !cJSON_HasObjectItem(doc, f->string))
        cJSON_AddItemToObject(doc, f->string, cJSON_DetachItemViaPointer(o, f));
    }
    cJSON_Delete(o);
  }
  free(copy);
  if (!ok || !doc || !copy) {
    cJSON_Delete(doc);
    return NULL;
  }
  cJSON_AddBoolToObject(doc, "complete", complete);
  return doc;
}

cJSON *util_jsonl_doc(const char *text, util_jsonl_record item, const char *array)
{
  cJSON *doc = cJSON_Parse(text);
  if (cJSON_IsObject(doc) && !cJSON_GetObjectItemCaseSensitive(doc, "record")) { /* one document */
    if (!cJSON_GetObjectItemCaseSensitive(doc, "complete"))
      cJSON_AddBoolToObject(doc, "complete", 1);
    return doc;
  }
  cJSON_Delete(doc);
  return doc_of_lines(text, item, array);
}

cJSON *util_jsonl_runner_doc(const char *text) { return util_jsonl_doc(text, UTIL_REC_POINT, "points"); }
