/* FBS barrier for the threads of one process (runtime/lib/fbs, docs/fbs.md).
 * Link with libxmpc_fbs.a (and -lpthread). */
#ifndef XMPC_FBS_H
#define XMPC_FBS_H
#ifdef __cplusplus
extern "C" {
#endif

typedef struct fbs_t fbs_t;

/* A barrier for n threads. layout 0: each flag on its own 128-byte line
 * (recommended); 1: all flags on one line. NULL when n < 1 or layout is
 * neither. */
fbs_t *fbs_new(int n, int layout);

/* Barrier point for participant me (0 <= me < n, one thread per index).
 * Returns 0, or -1 at once for a NULL handle or an index out of range. */
int fbs_wait(const fbs_t *b, int me);

/* Participant count (0 for NULL). */
int fbs_participants(const fbs_t *b);

/* Frees b (NULL: nothing); no thread may be waiting on it. */
void fbs_free(fbs_t *b);

#ifdef __cplusplus
}
#endif
#endif
