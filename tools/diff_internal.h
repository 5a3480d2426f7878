/* diff_internal.h - what the files of `gpuinterp --diff` share (diff.c: sites, runs, reporting and
 * the driver; diff_values.c: comparing values and violations; diff_order.c: comparing ordering on
 * happens-before graphs): the site table, one run's capture, the checker's state, and the
 * functions one file calls in another. Private to tools/; the method is described at the top of
 * diff.c. */
#ifndef TOOLS_DIFF_INTERNAL_H
#define TOOLS_DIFF_INTERNAL_H

#include "tools/diff.h"

#include "backends/backend.h"
#include "interp/interp.h"
#include "ir/ir.h"
#include "tools/sites.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fputs("gpuinterp: error: out of memory\n", stderr);
    exit(1);
  }
  return q;
}

static inline char *xstrdup(const char *s) {
  if (!s)
    return NULL;
  size_t n = strlen(s) + 1;
  return memcpy(xrealloc(NULL, n), s, n);
}

#define PUSH(arr, n, cap, val)                                                                     \
  do {                                                                                             \
    if ((n) == (cap)) {                                                                            \
      (cap) = (cap) ? 2 * (cap) : 16;                                                              \
      (arr) = xrealloc((arr), (cap) * sizeof *(arr));                                              \
    }                                                                                              \
    (arr)[(n)++] = (val);                                                                          \
  } while (0)

/* A slot of a table of cap (a power of two) slots for a 64-bit key: its bits mixed, since a
 * multiply alone would leave the low bits to the key's low bits. */
static inline size_t hash_slot(uint64_t key, size_t cap) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return (size_t)key & (cap - 1);
}

/* ---- locations: "file:line:col[ call]" to a site id (diff.c) ------------------------------ */

/* A site is a canonical "realpath:line:col"; both forms' strings map to the same id. Strings that
 * name no file position ("exit", "alloca") are sites of their own. */
typedef struct Site {
  char *key;
  char *file; /* as the location spelt it (for the high-level form: as the ctx read it) */
  uint32_t line, col;
  bool has_pos;
} Site;

typedef struct SiteTab {
  Site *v;
  size_t n, cap;
  uint32_t *tab; /* open addressing: index + 1, 0 empty */
  size_t tabcap;
  char **real_in, **real_out; /* realpath cache */
  const char *anchor;         /* the program's real path (see canon_file) */
  size_t nreal, capreal, capreal2;
} SiteTab;

/* The site of a location string; *call (may be NULL) gets what follows the position (the
 * lowered call's name, e.g. "mgpuMemcpy"), or "". */
uint32_t diff_site_of(SiteTab *S, const char *loc, const char **call);

/* ---- one run (diff.c) ---------------------------------------------------------------------- */

typedef struct Print {
  uint32_t site;
  uint64_t launch;
  char *text;
} Print;

typedef struct HostBuf {
  uint32_t site;
  uint64_t seq;
  unsigned char *bytes;
  size_t size;
} HostBuf;

typedef struct Viol {
  bool error;
  char *kind, *loc, *loc2, *alloc_loc, *message;
} Viol;

typedef struct Run {
  SiteTab *sites;
  pthread_mutex_t mu; /* prints and violations come from workers */
  char *out;
  size_t nout;
  char *diag; /* the interpreter's own diagnostics */
  size_t ndiag;
  unsigned interp_errors;
  bool launch_failed; /* a launch failed (stickily) on the device: the run ended at a sync after it */
  Print *prints;
  size_t nprints, capprints;
  HostBuf *bufs;
  size_t nbufs, capbufs;
  Viol *viols;
  size_t nviols, capviols;
  TraceRecorder *rec;
  char *dev; /* on a device: what its kernels printed, in order (BeOptions.device_out) */
  size_t ndev, capdev;
  struct Drain { size_t end; uint32_t site; } *drains; /* per piece of dev: its end, the call's site */
  size_t ndrains, capdrains;
} Run;

typedef struct Form {
  const char *what; /* "program", "lowered program" or "cuda run" */
  const char *backend; /* what it runs on: NULL for the simulator under the schedule asked for */
  IrCtx *ctx;
  Op *top;
} Form;

/* ---- reporting (diff.c) -------------------------------------------------------------------- */

typedef struct Checker {
  const DiffOptions *o;
  SiteTab sites;
  Form hi, lo;
  Str hi_file;            /* the program's file name as hctx read it (for source lines) */
  const char *hi_canon;   /* its real path */
  Op **site_op;           /* per site: a high-level op there, or NULL */
  size_t nsite_op;
  unsigned errors, warnings;
  const char *witness;    /* the first schedule under which values differed */
  /* reported once each: (kind, site, site), a hash set */
  uint64_t *seen;
  size_t nseen, capseen;
  bool seen_zero;
  Sites *names;  /* names the program's ops in messages (tools/sites.c) */
  char lo_what[64];
  bool oracle, oracle_stats; /* GPUINTERP_DIFF_ORACLE: lost_ordering_oracle checks the ordering check */
  uint64_t *order_found;     /* with it: every pair the ordering check found, node << 32 | node */
  size_t norder_found, caporder_found;
} Checker;

/* Whether (kind, a, b) is reported for the first time. */
bool diff_once(Checker *C, unsigned kind, uint32_t a, uint32_t b);
/* A diagnostic at site's location in the program (UINT32_MAX: none). */
void diff_report(Checker *C, DiagSeverity sev, uint32_t site, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A site as the user spelt it: the program's file as given on the command line. */
const char *diff_site_text(Checker *C, uint32_t site, char *buf, size_t n);
/* "'gpu.memcpy'" for a site with a high-level op, else "the op". */
const char *diff_op_name(Checker *C, uint32_t site, char *buf, size_t n);
/* The note naming the schedule that shows a difference. */
void diff_witness(Checker *C, const char *sched);

/* ---- comparing values and violations (diff_values.c) -------------------------------------- */

/* Compares the runs h (the reference) and l by value under sched; returns whether they differ. */
bool diff_compare_values(Checker *C, Run *h, Run *l, const char *sched);
/* Reports the reference's own errors under sched; returns whether it has any (nothing is then
 * compared). */
bool diff_reference_errors(Checker *C, Run *h, const char *sched);
/* Reports the violations only l has. */
void diff_lowered_violations(Checker *C, Run *h, Run *l, const char *sched);

/* ---- comparing ordering (diff_order.c) ----------------------------------------------------- */

/* The serial runs' traces as happens-before graphs: lost ordering and lost concurrency, and
 * under GPUINTERP_DIFF_ORACLE the checks of both against their textbook forms. */
void diff_check_order(Checker *C, Run *h, Run *l);

#endif
