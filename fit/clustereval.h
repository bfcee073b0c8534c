/* clustereval.h: the cluster fit's evaluations of the model at every point, for one set of
 * parameters or several at once (the Jacobian's columns), shared out to child processes.
 * The points go to the processes (util/forked.h) in pieces of about equal time; each point's last
 * evaluation is kept, so that a set of parameters that differs from it only in figures the
 * point does not read (another protocol's, where NCCL runs the point with one) takes its
 * time from there instead of replaying it. */
#ifndef FIT_CLUSTEREVAL_H
#define FIT_CLUSTEREVAL_H

#include "clusterfit.h"

/* f's parameter FIT_P_i. */
double *fit_cfit_param(fit_cfit *f, int i);

/* The protocol (COST_NCCL_*) whose slices alone read parameter FIT_P_i (the rate a GPU writes
 * its lines at, its latency per hop), or -1 for a parameter every point reads. */
int fit_cparam_proto(int i);

/* Every point's last evaluations at f's parameters (fit_ceval), for the evaluations after
 * them: the one pinned (the Jacobian's base) and the latest other. */
typedef struct fit_ckept fit_ckept;
/* NULL when out of memory: nothing is kept then, every point is evaluated. */
fit_ckept *fit_ckept_new(const fit_crun *runs, int nruns);
void fit_ckept_free(fit_ckept *k);
/* The latest evaluation kept until the next pin (the Jacobian's base, where GSL's next trial
 * points start from). */
void fit_ckept_pin(fit_ckept *k);

/* What NCCL runs every point of runs[0..nruns) with at f's parameters (the points' proto and
 * algo; -1 for other algorithms), without the model's times. Returns 0 or an SA_E* code. */
int fit_cplan(const fit_cfit *f, fit_crun *runs, int nruns);

/* The model at every point of runs[0..nruns) (only the used ones with used_only), with f's
 * parameters as they are: the points' model_s, proto and algo; taken from k where an
 * evaluation kept there read the same figures (the same bit for bit), and kept in k, unless
 * k is NULL. Returns 0 or an SA_E* code. */
int fit_ceval(fit_cfit *f, fit_crun *runs, int nruns, int used_only, fit_ckept *k);

/* The model at every used point (in run order) for each of nsets parameter sets (pv[s][i]:
 * FIT_P_i; f's other settings): model_s[s * used + u]. A point whose evaluation kept in k
 * (NULL: none) read the same figures takes it; the time is the same bit for bit. Of the
 * points, only how long they took changes (took). Returns 0 or an SA_E* code. */
int fit_ceval_sets(const fit_cfit *f, fit_crun *runs, int nruns, int nsets, const double (*pv)[FIT_NPARAM],
                   const fit_ckept *k, double *model_s);

#endif
