/* sg_settings.h: the SimGrid settings the cost models depend on, read one way whatever their
 * source: the values SimGrid itself reports for a platform (its defaults and the platform's
 * <config>), and the --cfg KEY:VALUE options that override them in the simulation. Values are
 * read as SimGrid reads them (its boolean words, its piecewise strings), so the models and
 * the run see the same settings. */
#ifndef PLATFORM_SG_SETTINGS_H
#define PLATFORM_SG_SETTINGS_H

#include <stddef.h>

#include "models/cost_net.h"

/* SimGrid's booleans: yes/on/true/1 and no/off/false/0. Returns 0, or SA_EINVAL. */
int plat_setting_bool(const char *value, int *out);

/* Applies KEY = VALUE to the models' network when KEY is a setting they read
 * (smpi/lat-factor, smpi/bw-factor, smpi/or, network/TCP-gamma, network/crosstraffic,
 * smpi/send-is-detached-thresh). Returns 1 when applied, 0 when KEY is not one of them, or
 * SA_EINVAL with why when the value is not one SimGrid accepts or one that means nothing. */
int plat_setting_apply(cost_net *net, const char *key, const char *value, char *why, size_t whylen);

/* Checks a --cfg KEY:VALUE before anything runs: the settings above, and the ones with
 * which a simulation cannot finish (surf/precision not positive). Returns 0, or SA_EINVAL
 * with why. */
int plat_setting_check(const char *key, const char *value, char *why, size_t whylen);

#endif
