/* rank_list.h: a selection of ranks such as "0-7,64,120-127" (--trace-ranks): checked by
 * the driver, read by the runner to know whether it records. */
#ifndef UTIL_RANK_LIST_H
#define UTIL_RANK_LIST_H

#include <stddef.h>

/* 0 when list is comma-separated ranks and ranges A-B (A <= B) all below nranks, else
 * SA_EINVAL with the reason in err. */
int util_rank_list_check(const char *list, int nranks, char *err, size_t errlen);

/* 1 when rank is in a checked list (NULL: every rank is), else 0. */
int util_rank_list_has(const char *list, int rank);

#endif
