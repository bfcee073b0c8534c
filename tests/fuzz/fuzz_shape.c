/* fuzz_shape.c: the shape line a generated platform carries (topo/shape.c) and the loader's
 * test of a whole file against its shape (topo/shape_file.c): any line that parses is one
 * topo_check may judge and that formats again; a file taken as generated is one of NVSwitch
 * nodes topo_check accepts, written again to the last byte from its shape. A fit's cover in
 * the header comment (topo/fit_cover.c) that reads is one that writes and reads again alike,
 * and so are its lines of what NCCL ran (topo/fit_ran.c). */
#include <string.h>

#include "fuzz_util.h"
#include "topo/fit_cover.h"
#include "topo/fit_ran.h"
#include "topo/shape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *s = fuzz_string(data, size), err[256], *again = malloc(TOPO_SHAPE_LINE);
  topo_shape *shape = malloc(sizeof *shape);
  if (!s || !again || !shape) {
    free(s), free(again), free(shape);
    return 0;
  }
  if (topo_shape_parse(s, shape) == 0 && topo_check(&shape->topo, err, sizeof err) == 0 &&
      topo_shape_format(&shape->topo, &shape->spec, again, TOPO_SHAPE_LINE) == 0) {
    topo_shape *back = malloc(sizeof *back);
    if (back && topo_shape_parse(again, back) != 0)
      abort(); /* a line the formatter wrote that the parser refuses */
    free(back);
  }
  if (topo_shape_of_file((const char *)data, size, shape) &&
      (shape->topo.node != TOPO_NODE_NVSWITCH || topo_check(&shape->topo, err, sizeof err) != 0))
    abort(); /* a file taken as generated for a shape the loader must refuse */
  topo_cover cv, back;
  char line[512], file[600];
  if (topo_cover_of_file((const char *)data, size, &cv)) {
    topo_cover_format(&cv, line, sizeof line);
    snprintf(file, sizeof file, "<!-- %s -->", line);
    if (!topo_cover_of_file(file, strlen(file), &back) || memcmp(&cv, &back, sizeof cv) != 0)
      abort(); /* a cover that does not read back as it was */
  }
  topo_ran *ran = malloc(sizeof *ran * TOPO_RAN_SHAPES), *ran_back = malloc(sizeof *ran_back);
  char *text = malloc(4096);
  int nran = ran && ran_back && text ? topo_ran_of_file((const char *)data, size, ran, TOPO_RAN_SHAPES) : 0;
  for (int i = 0; i < nran; i++) {
    int n = topo_ran_format(&ran[i], text + 5, 4096 - 10);
    memcpy(text, "<!-- ", 5);
    snprintf(text + 5 + n, 5, " -->");
    if (topo_ran_of_file(text, strlen(text), ran_back, 1) != 1 || memcmp(&ran[i], ran_back, sizeof *ran_back) != 0)
      abort(); /* a line of what NCCL ran that does not read back as it was */
  }
  free(ran), free(ran_back), free(text);
  free(s), free(again), free(shape);
  return 0;
}
