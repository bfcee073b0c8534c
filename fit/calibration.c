/* calibration.c: reading a calibration file back (the fit writes it in fit_cmd.c). */
#include "calibration.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sa_error.h"
#include "util/textfile.h"

static int read_compute(const cJSON *comp, fit_calibration *c)
{
  const cJSON *dev = cJSON_GetObjectItemCaseSensitive(comp, "device");
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(comp, "platform");
  if (!p)
    return 0;
  /* a kernel not measured has no property (calibrations written before MSTopK and
   * scatter-add were measured lack theirs): that work stays free */
  for (int i = 0; i < SA_COMPUTE_N; i++) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(p, sa_compute_name(i));
    char why[160];
    if (x && (!cJSON_IsNumber(x) || sa_compute_check(i, x->valuedouble, why, sizeof why) != 0))
      return SA_EPARSE;
    *sa_compute_field(&c->compute, i) = x ? x->valuedouble : 0;
  }
  if (c->compute.reduce_bw <= 0 || c->compute.copy_bw <= 0)
    return SA_EPARSE;
  c->has_compute = 1;
  if (cJSON_IsString(dev))
    snprintf(c->compute_device, sizeof c->compute_device, "%s", dev->valuestring);
  return 0;
}

int fit_calibration_read(const char *path, fit_calibration *c, char *err, size_t errlen)
{
  memset(c, 0, sizeof *c);
  char *text = util_read_text(path);
  if (!text) {
    snprintf(err, errlen, "cannot read calibration %s", path);
    return SA_EIO;
  }
  cJSON *root = cJSON_Parse(text);
  const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
  const cJSON *machine = cJSON_GetObjectItemCaseSensitive(root, "machine");
  const cJSON *cluster = cJSON_GetObjectItemCaseSensitive(root, "cluster");
  int rc = SA_EPARSE;
  if (root)
    c->has_smpi = fit_smpi_from_json(cJSON_GetObjectItemCaseSensitive(root, "smpi"), &c->smpi) == 0;
  if (!root)
    snprintf(err, errlen, "%s is not JSON", path);
  else if (!cJSON_IsString(schema) || strcmp(schema->valuestring, FIT_CALIBRATION_SCHEMA) != 0)
    snprintf(err, errlen, "%s is not a calibration file (simcalib fit writes them)", path);
  else if (cluster && fit_cluster_cal_from_json(cluster, &c->cluster) != 0)
    snprintf(err, errlen, "%s: malformed \"cluster\" fit", path);
  else if (!c->has_smpi && !c->cluster.has)
    snprintf(err, errlen, "%s: no usable \"smpi\" network settings (was a ping-pong measured?) and no \"cluster\" fit "
                          "of allreduce runs",
             path);
  else if (read_compute(cJSON_GetObjectItemCaseSensitive(root, "compute"), c) != 0)
    snprintf(err, errlen, "%s: malformed \"compute\".\"platform\" properties", path);
  else
    rc = 0;
  if (rc == 0 && cJSON_IsString(machine))
    snprintf(c->machine, sizeof c->machine, "%s", machine->valuestring);
  cJSON_Delete(root);
  free(text);
  return rc;
}
