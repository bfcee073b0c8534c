/* measured_table.h: measured points as a table people read. */
#ifndef CAL_MEASURED_TABLE_H
#define CAL_MEASURED_TABLE_H

#include <stdio.h>

#include "measured/measured.h"

void cal_data_print(FILE *f, const md_data *d);

/* Writes d as JSON to out ("-": stdout). Returns 0, or prints why it could not write and
 * returns exit status 1. */
int cal_data_write(const md_data *d, const char *out);
/* The same, then its table to stdout, or to stderr when the JSON took stdout. */
int cal_data_emit(const md_data *d, const char *out);

#endif
