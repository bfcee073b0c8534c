/* tuner_summary.h: what --export-tuner wrote, told on stderr as a note: the file, its rows,
 * the sizes each algorithm and protocol won, the sizes each row answers for, and a warning
 * when the simulated sizes lie so far apart that a row answers for sizes it never saw. */
#ifndef SIM_TUNER_SUMMARY_H
#define SIM_TUNER_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "tuner/table.h"

/* A row answers for sizes more than this many times below or above the one simulated for
 * it: the sweep is sparse. A factor-2 sweep hands over at sqrt(2), a factor-16 one at 4. */
#define SIM_TUNER_SPARSE 4

/* Each row gets a line of its own up to this many (one screen); past it, the file says. */
#define SIM_TUNER_ROWS_SHOWN 24

/* The summary of n rows of one shape (ascending, their ranges set), written to path. */
void sim_tuner_summary(FILE *f, const char *path, const struct tuner_row *rows, size_t n);

#endif
