/* diff.c - the differential checker behind `gpuinterp --diff`.
 *
 * Method. The high-level program (the reference) and a lowering of it (lower_module's, or a file
 * given with --against, e.g. `mlir-opt --gpu-to-llvm -mlir-print-debuginfo`) each run on a fresh
 * simulator under `serial`, `threads` and N seeded `random:SEED` schedules. Both forms carry the
 * same source locations (the lowering keeps them), so everything is matched by location
 * (file:line:col, the file compared by its real path) and occurrence (the k-th time that site
 * did it in the run). Per schedule the two runs are compared by value: the host output exactly,
 * each launch's gpu.printf lines as a multiset (blocks print in any order), and the final bytes
 * of every host buffer, matched by allocation site and occurrence (interp.h's hooks). The
 * violations the backend reported are compared across all schedules: a race, misuse or runtime
 * error that only the lowered form has is a difference, a leak only it has a warning (MLIR 22's
 * gpu.wait async never destroys its dependencies' streams). Before running, the lowered module
 * is searched for gpu host ops the lowering left behind.
 *
 * Ordering is compared on the serial runs' traces, as happens-before graphs: nodes are the device
 * ops in submission order, which is a topological order, and the host as a chain of segments cut
 * at every synchronization. Each node gets a vector clock over a chain decomposition of the graph
 * (a node extends the chain of a predecessor that ends that chain, else any chain whose last node
 * happens before it, else starts one), so "a happens before b" is one comparison. Since a chain
 * is taken up again as soon as its last node is ordered before the next, the number of chains
 * follows the graph's width (the ops that may run at once), not its length, and the clocks cost
 * nodes x width. Two checks:
 *   - lost ordering: for every pair of conflicting accesses the reference orders, the lowered
 *     ops at the same sites must be ordered the same way. Each buffer's accesses are taken in
 *     submission order against a frontier per range of bytes (a treap by offset): the last plain
 *     write and the reads and atomics since it, less those the lowered form orders before a
 *     newer one of their kind. That is enough: the reference is race-free, so any conflicting
 *     pair is joined through the plain writes of its bytes by pairs so compared, and the lowered
 *     form's own order composes along the same path. GPUINTERP_DIFF_ORACLE=1 checks the verdict
 *     against all pairs (lost_ordering_oracle).
 *   - lost concurrency: the lowered form orders two device ops the reference leaves concurrent.
 *     Any such pair has an edge of the lowered graph on its path that the reference lacks, so
 *     checking each edge suffices, which also names the call responsible: an op->op edge (one
 *     stream, an event wait) is checked directly; an op->host edge (a synchronization) is checked
 *     against the next ops the host submits, until the reference's host is ordered after that op
 *     too.
 * A difference is printed in mlir-opt's shape at the high-level location, with notes naming the
 * other op, the lowered calls and the schedule that shows it (`witness: --sched=...`).
 *
 * --against-backend=cuda compares the simulator with a real device instead: the program (or
 * --against's file) runs once on that backend, the reference once under serial on the simulator,
 * and they are compared by value as above (output, final host buffers) and by the violations only
 * the device run has (a driver error, a leak). A device reports no accesses, so there is no
 * ordering to compare. What its kernels print comes from the driver when the host synchronizes,
 * not per launch: the backend hands it over after the driver call it came at (BeOptions.
 * device_out), and the lines of all its kernels are compared as one multiset with those of all
 * the program's launches; a line that differs is named at the synchronization the device printed
 * it at, or at the launch of the program that printed it.
 *
 * --trace=FILE writes the two witness runs' traces (the first schedule under which a value
 * differed, else serial) to FILE with ".high" and ".lowered" inserted before its extension
 * (trace.txt -> trace.high.txt, trace.lowered.txt; FILE without one gets them appended).
 */
#include "tools/diff.h"

#include "backends/backend.h"
#include "interp/interp.h"
#include "ir/ir.h"
#include "lower/lower.h"
#include "tools/sites.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCHEDS 1024

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fputs("gpuinterp: error: out of memory\n", stderr);
    exit(1);
  }
  return q;
}

static char *xstrdup(const char *s) {
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
static size_t hash_slot(uint64_t key, size_t cap) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return (size_t)key & (cap - 1);
}

/* ---- locations: "file:line:col[ call]" to a site id --------------------------------------- */

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

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static const char *canon_file(SiteTab *S, const char *file) {
  for (size_t i = 0; i < S->nreal; i++)
    if (!strcmp(S->real_in[i], file))
      return S->real_out[i];
  /* A relative path that does not resolve from here was relative to where the lowering ran:
   * it names the program when the program's real path ends with it. */
  char *r = realpath(file, NULL);
  size_t n = strlen(file), na = S->anchor ? strlen(S->anchor) : 0;
  if (!r && file[0] != '/' && na > n && S->anchor[na - n - 1] == '/' &&
      !strcmp(S->anchor + na - n, file))
    r = xstrdup(S->anchor);
  PUSH(S->real_in, S->nreal, S->capreal, xstrdup(file));
  S->nreal--;
  PUSH(S->real_out, S->nreal, S->capreal2, r ? r : xstrdup(file));
  return S->real_out[S->nreal - 1];
}

static uint32_t site_find(SiteTab *S, const char *key, bool *fresh) {
  if (S->n * 2 >= S->tabcap) {
    size_t cap = S->tabcap ? 2 * S->tabcap : 256;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t)
      exit(1);
    for (size_t i = 0; i < S->n; i++) {
      size_t h = hash_str(S->v[i].key) & (cap - 1);
      while (t[h])
        h = (h + 1) & (cap - 1);
      t[h] = (uint32_t)i + 1;
    }
    free(S->tab);
    S->tab = t;
    S->tabcap = cap;
  }
  size_t h = hash_str(key) & (S->tabcap - 1);
  while (S->tab[h]) {
    if (!strcmp(S->v[S->tab[h] - 1].key, key)) {
      *fresh = false;
      return S->tab[h] - 1;
    }
    h = (h + 1) & (S->tabcap - 1);
  }
  S->tab[h] = (uint32_t)S->n + 1;
  *fresh = true;
  PUSH(S->v, S->n, S->cap, ((Site){xstrdup(key), NULL, 0, 0, false}));
  return (uint32_t)S->n - 1;
}

/* The site of a location string; *call (may be NULL) gets what follows the position (the
 * lowered call's name, e.g. "mgpuMemcpy"), or "". */
static uint32_t site_of(SiteTab *S, const char *loc, const char **call) {
  if (!loc)
    loc = "?";
  const char *sp = strchr(loc, ' ');
  size_t n = sp ? (size_t)(sp - loc) : strlen(loc);
  if (call)
    *call = sp ? sp + 1 : "";
  char buf[1024];
  if (n >= sizeof buf)
    n = sizeof buf - 1;
  memcpy(buf, loc, n);
  buf[n] = 0;
  char *c2 = strrchr(buf, ':');
  char *c1 = NULL;
  if (c2) {
    *c2 = 0;
    c1 = strrchr(buf, ':');
    *c2 = ':';
  }
  char *e1, *e2;
  unsigned long line = c1 ? strtoul(c1 + 1, &e1, 10) : 0, col = c2 ? strtoul(c2 + 1, &e2, 10) : 0;
  bool pos = c1 && c1 > buf && e1 == c2 && *e2 == 0 && line && c2[1];
  char key[2048];
  const char *file = NULL;
  if (pos) {
    *c1 = 0;
    file = canon_file(S, buf);
    snprintf(key, sizeof key, "%s:%lu:%lu", file, line, col);
  } else {
    snprintf(key, sizeof key, "%s", buf);
  }
  bool fresh;
  uint32_t id = site_find(S, key, &fresh);
  if (fresh && pos) {
    S->v[id].file = xstrdup(buf);
    S->v[id].line = (uint32_t)line;
    S->v[id].col = (uint32_t)col;
    S->v[id].has_pos = true;
  }
  return id;
}

static void sites_free(SiteTab *S) {
  for (size_t i = 0; i < S->n; i++) {
    free(S->v[i].key);
    free(S->v[i].file);
  }
  for (size_t i = 0; i < S->nreal; i++) {
    free(S->real_in[i]);
    free(S->real_out[i]);
  }
  free(S->v);
  free(S->tab);
  free(S->real_in);
  free(S->real_out);
}

/* ---- one run ------------------------------------------------------------------------------- */

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

static void on_print(void *user, const char *loc, uint64_t launch, const char *text, size_t len) {
  Run *r = user;
  char *t = xrealloc(NULL, len + 1);
  memcpy(t, text, len);
  t[len] = 0;
  pthread_mutex_lock(&r->mu);
  PUSH(r->prints, r->nprints, r->capprints, ((Print){site_of(r->sites, loc, NULL), launch, t}));
  pthread_mutex_unlock(&r->mu);
}

static void on_device_out(void *user, const char *loc, const char *text, size_t len) {
  Run *r = user;
  if (r->ndev + len > r->capdev) {
    r->capdev = (r->ndev + len) * 2;
    r->dev = xrealloc(r->dev, r->capdev);
  }
  memcpy(r->dev + r->ndev, text, len);
  r->ndev += len;
  PUSH(r->drains, r->ndrains, r->capdrains, ((struct Drain){r->ndev, site_of(r->sites, loc, NULL)}));
}

static void on_buffer(void *user, const char *loc, uint64_t seq, const void *bytes, size_t size) {
  Run *r = user;
  unsigned char *b = xrealloc(NULL, size);
  if (size)
    memcpy(b, bytes, size);
  PUSH(r->bufs, r->nbufs, r->capbufs, ((HostBuf){site_of(r->sites, loc, NULL), seq, b, size}));
}

static void on_diag(const BeDiag *d, void *user) {
  Run *r = user;
  Viol v = {d->error,          xstrdup(d->kind),      xstrdup(d->loc), xstrdup(d->loc2),
            xstrdup(d->alloc_loc), xstrdup(d->message)};
  pthread_mutex_lock(&r->mu);
  PUSH(r->viols, r->nviols, r->capviols, v);
  pthread_mutex_unlock(&r->mu);
}

static void run_free(Run *r) {
  free(r->out);
  free(r->diag);
  for (size_t i = 0; i < r->nprints; i++)
    free(r->prints[i].text);
  for (size_t i = 0; i < r->nbufs; i++)
    free(r->bufs[i].bytes);
  for (size_t i = 0; i < r->nviols; i++) {
    Viol *v = &r->viols[i];
    free(v->kind);
    free(v->loc);
    free(v->loc2);
    free(v->alloc_loc);
    free(v->message);
  }
  free(r->prints);
  free(r->bufs);
  free(r->viols);
  free(r->dev);
  free(r->drains);
  trace_recorder_destroy(r->rec);
  pthread_mutex_destroy(&r->mu);
  memset(r, 0, sizeof *r);
}

typedef struct Form {
  const char *what; /* "program", "lowered program" or "cuda run" */
  const char *backend; /* what it runs on: NULL for the simulator under the schedule asked for */
  IrCtx *ctx;
  Op *top;
} Form;

/* Runs form f's entry under sched on a fresh backend, capturing everything the comparison needs. */
static void run_form(Form *f, SiteTab *S, const DiffOptions *o, const char *sched, bool trace, Run *r) {
  memset(r, 0, sizeof *r);
  pthread_mutex_init(&r->mu, NULL);
  r->sites = S;
  if (trace)
    r->rec = trace_recorder_create();
  FILE *out = open_memstream(&r->out, &r->nout);
  FILE *dg = open_memstream(&r->diag, &r->ndiag);
  if (!out || !dg)
    exit(1);
  ir_diag_set_stream(f->ctx, dg);
  BeOptions bo = {.sched = f->backend ? NULL : sched, .trace = r->rec, .sink = on_diag, .sink_user = r,
                  .driver_lib = o->cuda_lib, .device_out = f->backend ? on_device_out : NULL,
                  .device_out_user = r};
  Backend *be = NULL;
  char err[512] = "";
  if (be_open(f->backend ? f->backend : "sim", &bo, &be, err, sizeof err) != BE_OK) {
    fprintf(dg, "gpuinterp: error: %s\n", err[0] ? err : "cannot open the backend");
    r->interp_errors = 1;
  } else {
    InterpOptions io = {.be = be, .out = out, .host_buffer = on_buffer, .device_print = on_print,
                        .hook_user = r, .max_steps = o->max_steps, .timeout = o->timeout,
                        .mlir_opt = o->mlir_opt};
    Interp *in = interp_create(f->ctx, f->top, &io);
    if (!in) {
      r->interp_errors = 1;
    } else {
      r->interp_errors = interp_run(in, o->entry);
      interp_destroy(in);
    }
    r->launch_failed = be_failure(be) != NULL;
    be_close(be, NULL);
  }
  ir_diag_set_stream(f->ctx, stderr);
  fclose(out);
  fclose(dg);
}

/* ---- reporting ----------------------------------------------------------------------------- */

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

static bool once(Checker *C, unsigned kind, uint32_t a, uint32_t b) {
  uint64_t k = (uint64_t)kind << 56 ^ (uint64_t)a << 28 ^ b;
  if (!k) { /* 0 marks an empty slot */
    bool first = !C->seen_zero;
    C->seen_zero = true;
    return first;
  }
  if (2 * (C->nseen + 1) > C->capseen) { /* open addressing, at most half full */
    size_t cap = C->capseen ? 2 * C->capseen : 64;
    uint64_t *t = xrealloc(NULL, cap * sizeof *t);
    memset(t, 0, cap * sizeof *t);
    for (size_t i = 0; i < C->capseen; i++)
      if (C->seen[i]) {
        size_t h = hash_slot(C->seen[i], cap);
        while (t[h])
          h = (h + 1) & (cap - 1);
        t[h] = C->seen[i];
      }
    free(C->seen);
    C->seen = t;
    C->capseen = cap;
  }
  size_t h = hash_slot(k, C->capseen);
  for (; C->seen[h]; h = (h + 1) & (C->capseen - 1))
    if (C->seen[h] == k)
      return false;
  C->seen[h] = k;
  C->nseen++;
  return true;
}

/* A location in the program's context for a site (NULL when it names no position in it). */
static const Loc *site_loc(Checker *C, uint32_t site) {
  const Site *s = &C->sites.v[site];
  if (!s->has_pos)
    return NULL;
  const char *canon = canon_file(&C->sites, s->file);
  Str file = strcmp(canon, C->hi_canon) ? ir_intern_cstr(C->hi.ctx, s->file) : C->hi_file;
  return ir_loc_file(C->hi.ctx, file, s->line, s->col);
}

static void report(Checker *C, DiagSeverity sev, uint32_t site, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report(Checker *C, DiagSeverity sev, uint32_t site, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (sev == DIAG_ERROR)
    C->errors++;
  else if (sev == DIAG_WARNING)
    C->warnings++;
  const Loc *l = site == UINT32_MAX ? NULL : site_loc(C, site);
  if (!l && site != UINT32_MAX && sev != DIAG_NOTE)
    ir_diag(C->hi.ctx, sev, NULL, "%s: %s", C->sites.v[site].key, msg);
  else if (!l && site != UINT32_MAX)
    ir_diag(C->hi.ctx, sev, NULL, "%s (at '%s')", msg, C->sites.v[site].key);
  else
    ir_diag(C->hi.ctx, sev, l, "%s", msg);
}

/* A site as the user spelt it: the program's file as given on the command line. */
static const char *site_text(Checker *C, uint32_t site, char *buf, size_t n) {
  const Site *s = &C->sites.v[site];
  if (!s->has_pos)
    return s->key;
  const char *canon = canon_file(&C->sites, s->file);
  snprintf(buf, n, "%s:%u:%u", strcmp(canon, C->hi_canon) ? s->file : C->hi_file.s, s->line, s->col);
  return buf;
}

/* "'gpu.memcpy'" for a site with a high-level op, else "the op". */
static const char *op_name(Checker *C, uint32_t site, char *buf, size_t n) {
  Op *op = site < C->nsite_op ? C->site_op[site] : NULL;
  if (op)
    snprintf(buf, n, "'%.*s'", (int)op->name.len, op->name.s);
  else
    snprintf(buf, n, "the op");
  return buf;
}

static void witness(Checker *C, const char *sched) {
  ir_diag(C->hi.ctx, DIAG_NOTE, NULL, "witness: --sched=%s", sched);
}

/* ---- the lowered module: locations and unconverted ops ------------------------------------ */

static void walk(Op *op, void (*fn)(Op *, void *), void *user) {
  fn(op, user);
  for (uint32_t r = 0; r < op->nregions; r++)
    for (Block *b = op->regions[r].first; b; b = b->next)
      for (Op *o = b->first; o; o = o->next)
        walk(o, fn, user);
}

static void index_hi_op(Op *op, void *user) {
  Checker *C = user;
  const Loc *f = ir_loc_file_of(op->loc);
  if (!f || !f->line)
    return;
  char buf[1200];
  snprintf(buf, sizeof buf, "%.*s:%u:%u", (int)f->file.len, f->file.s, f->line, f->col);
  uint32_t s = site_of(&C->sites, buf, NULL);
  if (s >= C->nsite_op) {
    size_t n = C->sites.n + 64;
    C->site_op = xrealloc(C->site_op, n * sizeof *C->site_op);
    memset(C->site_op + C->nsite_op, 0, (n - C->nsite_op) * sizeof *C->site_op);
    C->nsite_op = n;
  }
  if (!C->site_op[s])
    C->site_op[s] = op;
}

typedef struct LocCount {
  Checker *C;
  size_t ours, ops;
} LocCount;

static void count_locs(Op *op, void *user) {
  LocCount *lc = user;
  const Loc *f = ir_loc_file_of(op->loc);
  lc->ops++;
  if (!f)
    return;
  char buf[1024];
  snprintf(buf, sizeof buf, "%.*s", (int)f->file.len, f->file.s);
  if (!strcmp(canon_file(&lc->C->sites, buf), lc->C->hi_canon))
    lc->ours++;
}

static bool in_gpu_module(const Op *op) {
  for (const Op *p = ir_op_parent_op(op); p; p = ir_op_parent_op(p))
    if (ir_str_eq(p->name, "gpu.module") || ir_str_eq(p->name, "gpu.binary"))
      return true;
  return false;
}

/* A gpu.* host op still in the lowered module; gpu.launch_func on an !llvm.ptr stream without
 * tokens is what MLIR 22 emits for converted launches. */
static bool unconverted(const Op *op) {
  if (op->name.len < 4 || memcmp(op->name.s, "gpu.", 4))
    return false;
  if (ir_str_eq(op->name, "gpu.module") || ir_str_eq(op->name, "gpu.binary") || in_gpu_module(op))
    return false;
  if (ir_str_eq(op->name, "gpu.launch_func")) {
    Attr *seg = ir_op_attr(op, "operandSegmentSizes");
    bool stream = seg && seg->kind == ATTR_DENSE_ARRAY && seg->u.darr.n == 13 && seg->u.darr.ivals[12] &&
                  !seg->u.darr.ivals[0] && op->noperands &&
                  op->operands[op->noperands - 1]->type->kind == TY_LLVM_PTR;
    return !stream || op->nresults;
  }
  return true;
}

static void find_unconverted(Op *op, void *user) {
  Checker *C = user;
  if (!unconverted(op))
    return;
  const Loc *f = ir_loc_file_of(op->loc);
  char buf[1200];
  uint32_t s = UINT32_MAX;
  if (f) {
    snprintf(buf, sizeof buf, "%.*s:%u:%u", (int)f->file.len, f->file.s, f->line, f->col);
    s = site_of(&C->sites, buf, NULL);
  }
  report(C, DIAG_ERROR, s, "'%.*s' op was left unconverted by the lowering", (int)op->name.len,
         op->name.s);
}

/* ---- comparing values ---------------------------------------------------------------------- */

/* (site, occurrence) keys in sequence order for n items with site s[i] and order seq[i]. */
typedef struct Item {
  uint32_t site, occ;
  uint64_t seq;
  size_t idx;
} Item;

static int by_site_seq(const void *a, const void *b) {
  const Item *x = a, *y = b;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return 0;
}

static void number(Item *it, size_t n) {
  qsort(it, n, sizeof *it, by_site_seq);
  for (size_t i = 0; i < n; i++)
    it[i].occ = i && it[i - 1].site == it[i].site ? it[i - 1].occ + 1 : 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One launch's printed lines, sorted. */
typedef struct Launch {
  uint32_t site, occ;
  char **lines;
  size_t n, cap;
} Launch;

static void launches_of(Run *r, Launch **out, size_t *nout) {
  Item *it = xrealloc(NULL, r->nprints * sizeof *it);
  for (size_t i = 0; i < r->nprints; i++)
    it[i] = (Item){r->prints[i].site, 0, r->prints[i].launch, i};
  qsort(it, r->nprints, sizeof *it, by_site_seq);
  Launch *L = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < r->nprints; i++) {
    bool same = n && L[n - 1].site == it[i].site && i && it[i - 1].seq == it[i].seq;
    if (!same) {
      uint32_t occ = n && L[n - 1].site == it[i].site ? L[n - 1].occ + 1 : 0;
      PUSH(L, n, cap, ((Launch){it[i].site, occ, NULL, 0, 0}));
    }
    Launch *l = &L[n - 1];
    for (char *t = r->prints[it[i].idx].text; *t;) {
      char *e = strchr(t, '\n');
      size_t len = e ? (size_t)(e - t) : strlen(t);
      char *line = xrealloc(NULL, len + 1);
      memcpy(line, t, len);
      line[len] = 0;
      PUSH(l->lines, l->n, l->cap, line);
      t += len + (e != NULL);
    }
  }
  for (size_t i = 0; i < n; i++)
    qsort(L[i].lines, L[i].n, sizeof *L[i].lines, cmp_str);
  free(it);
  *out = L;
  *nout = n;
}

static void launches_free(Launch *L, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < L[i].n; j++)
      free(L[i].lines[j]);
    free(L[i].lines);
  }
  free(L);
}

/* The first line where a and b differ (1-based), with both lines cut out. */
static size_t first_diff_line(const char *a, size_t na, const char *b, size_t nb, char *la, char *lb,
                              size_t cap) {
  size_t line = 1, i = 0;
  while (i < na && i < nb && a[i] == b[i]) {
    if (a[i] == '\n')
      line++;
    i++;
  }
  size_t s = i;
  while (s && a[s - 1] != '\n')
    s--;
  size_t ea = s, eb = s;
  while (ea < na && a[ea] != '\n')
    ea++;
  while (eb < nb && b[eb] != '\n')
    eb++;
  snprintf(la, cap, "%.*s", (int)(ea - s), a + s);
  snprintf(lb, cap, "%.*s", (int)(eb - s), b + s);
  if (s >= na)
    snprintf(la, cap, "(end of output)");
  if (s >= nb)
    snprintf(lb, cap, "(end of output)");
  return line;
}

static uint32_t entry_site(Checker *C) {
  Op *fn = ir_symbol_lookup(C->hi.top, ir_intern_cstr(C->hi.ctx, C->o->entry));
  const Loc *f = fn ? ir_loc_file_of(fn->loc) : NULL;
  if (!f)
    return UINT32_MAX;
  char buf[1200];
  snprintf(buf, sizeof buf, "%.*s:%u:%u", (int)f->file.len, f->file.s, f->line, f->col);
  return site_of(&C->sites, buf, NULL);
}

/* The runner utils print a memref's base address ("base@ = 0x..."), which differs from run to
 * run: it is masked in place (both forms print it the same way) before outputs are compared. */
static void mask_addresses(char *s, size_t n) {
  static const char pat[] = "base@ = 0x";
  for (char *p = s; p && (size_t)(p - s) < n; p++) {
    p = memmem(p, n - (size_t)(p - s), pat, sizeof pat - 1);
    if (!p)
      break;
    for (char *q = p + sizeof pat - 1; q < s + n && strchr("0123456789abcdefABCDEF", *q) && *q; q++)
      *q = '?';
  }
}

/* A line kernels printed: on the simulator with the site of its launch, on a device with the
 * site of the call it came out at; n: its place in the run's output. */
typedef struct DevLine {
  char *text;
  uint32_t site;
  size_t n;
} DevLine;

static int by_text_n(const void *a, const void *b) {
  const DevLine *x = a, *y = b;
  int c = strcmp(x->text, y->text);
  return c ? c : x->n < y->n ? -1 : x->n > y->n;
}

/* Cuts text[0, len) into lines (a last one without its newline too), each at site_at(its end). */
static void cut_lines(DevLine **v, size_t *n, size_t *cap, const char *text, size_t len, const Run *dev,
                      uint32_t site) {
  size_t d = 0;
  for (size_t i = 0; i < len;) {
    const char *e = memchr(text + i, '\n', len - i);
    size_t k = e ? (size_t)(e - (text + i)) : len - i;
    char *line = xrealloc(NULL, k + 1);
    memcpy(line, text + i, k);
    line[k] = 0;
    i += k + (e != NULL);
    if (dev) {
      while (d + 1 < dev->ndrains && dev->drains[d].end < i)
        d++;
      site = dev->ndrains ? dev->drains[d].site : UINT32_MAX;
    }
    PUSH(*v, *n, *cap, ((DevLine){line, site, *n}));
  }
}

/* --against-backend: every line the program's kernels printed against every line the device's
 * did, as multisets (a driver does not say which launch printed what). */
static void compare_device_lines(Checker *C, Run *h, Run *l, const char *sched) {
  DevLine *a = NULL, *b = NULL;
  size_t na = 0, nb = 0, capa = 0, capb = 0;
  for (size_t i = 0; i < h->nprints; i++)
    cut_lines(&a, &na, &capa, h->prints[i].text, strlen(h->prints[i].text), NULL, h->prints[i].site);
  cut_lines(&b, &nb, &capb, l->dev, l->ndev, l, UINT32_MAX);
  if (na)
    qsort(a, na, sizeof *a, by_text_n);
  if (nb)
    qsort(b, nb, sizeof *b, by_text_n);
  size_t differ = 0;
  /* what is named: the device's first line the program lacks, else the program's first line the
   * device lacks (each in its run's order), with the counts of its text in both runs */
  const DevLine *first = NULL;
  size_t fa = 0, fb = 0;
  for (size_t i = 0, j = 0; i < na || j < nb;) {
    int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].text, b[j].text);
    const char *t = c <= 0 ? a[i].text : b[j].text;
    size_t ca = 0, cb = 0, i0 = i, j0 = j;
    while (i < na && !strcmp(a[i].text, t))
      i++, ca++;
    while (j < nb && !strcmp(b[j].text, t))
      j++, cb++;
    if (ca == cb)
      continue;
    differ++;
    const DevLine *x = cb > ca ? &b[j0 + ca] : &a[i0 + cb]; /* the first one the other run lacks */
    bool extra = cb > ca, first_extra = first && fb > fa;
    if (!first || (extra && !first_extra) || (extra == first_extra && x->n < first->n)) {
      first = x;
      fa = ca;
      fb = cb;
    }
  }
  if (first && once(C, 12, 0, 0)) {
    char more[64] = "", nm[128];
    if (differ > 1)
      snprintf(more, sizeof more, "; %zu more line%s differ%s", differ - 1, differ > 2 ? "s" : "",
               differ > 2 ? "" : "s");
    if (fb > fa)
      report(C, DIAG_ERROR, first->site,
             "'%s' came out of the %s's kernels at this call: printed %zu time%s there, %zu by the program's "
             "kernels%s",
             first->text, C->lo.what, fb, fb == 1 ? "" : "s", fa, more);
    else
      report(C, DIAG_ERROR, first->site, "%s printed '%s' %zu time%s in the program and %zu in the %s%s",
             op_name(C, first->site, nm, sizeof nm), first->text, fa, fa == 1 ? "" : "s", fb, C->lo.what, more);
    witness(C, sched);
  } else if (first) {
    C->errors++;
  }
  for (size_t i = 0; i < na; i++)
    free(a[i].text);
  for (size_t i = 0; i < nb; i++)
    free(b[i].text);
  free(a);
  free(b);
}

/* Compares the values of one schedule's two runs; returns whether anything differed. */
static bool compare_values(Checker *C, Run *h, Run *l, const char *sched) {
  unsigned before = C->errors;
  char la[256], lb[256], nm[128];
  mask_addresses(h->out, h->nout);
  mask_addresses(l->out, l->nout);
  if (h->nout != l->nout || memcmp(h->out, l->out, h->nout)) {
    if (once(C, 1, 0, 0)) {
      size_t line = first_diff_line(h->out, h->nout, l->out, l->nout, la, lb, sizeof la);
      report(C, DIAG_ERROR, entry_site(C),
             "the %s's output differs from the program's at line %zu: '%s' instead of '%s'", C->lo.what,
             line, lb, la);
      witness(C, sched);
    } else {
      C->errors++;
    }
  }
  Launch *hl, *ll;
  size_t nh, nl;
  if (C->o->against_backend)
    compare_device_lines(C, h, l, sched);
  hl = ll = NULL;
  nh = nl = 0;
  if (!C->o->against_backend) { /* a device's lines are not per launch: compared above */
    launches_of(h, &hl, &nh);
    launches_of(l, &ll, &nl);
  }
  /* both sorted by (site, occ): merge */
  for (size_t i = 0, j = 0; i < nh || j < nl;) {
    int c = i == nh ? 1 : j == nl ? -1
          : hl[i].site != ll[j].site ? (hl[i].site < ll[j].site ? -1 : 1)
          : hl[i].occ != ll[j].occ ? (hl[i].occ < ll[j].occ ? -1 : 1) : 0;
    Launch *a = c <= 0 ? &hl[i] : NULL, *m = c >= 0 ? &ll[j] : NULL;
    bool same = a && m && m->n == a->n;
    for (size_t k = 0; same && k < m->n; k++)
      same = !strcmp(m->lines[k], a->lines[k]);
    Launch *any = a ? a : m;
    if (!same && once(C, 2, any->site, any->occ)) {
      if (a)
        report(C, DIAG_ERROR, a->site,
               "%s (occurrence %u) printed different lines in the %s: %zu in the program, %zu in the %s",
               op_name(C, a->site, nm, sizeof nm), a->occ + 1, C->lo.what, a->n, m ? m->n : 0, C->lo.what);
      else
        report(C, DIAG_ERROR, m->site,
               "the %s's launch here (occurrence %u) printed %zu lines the program does not print",
               C->lo.what, m->occ + 1, m->n);
      witness(C, sched);
    } else if (!same) {
      C->errors++;
    }
    i += c <= 0;
    j += c >= 0;
  }
  launches_free(hl, nh);
  launches_free(ll, nl);

  Item *hi = xrealloc(NULL, h->nbufs * sizeof *hi), *li = xrealloc(NULL, l->nbufs * sizeof *li);
  for (size_t i = 0; i < h->nbufs; i++)
    hi[i] = (Item){h->bufs[i].site, 0, h->bufs[i].seq, i};
  for (size_t i = 0; i < l->nbufs; i++)
    li[i] = (Item){l->bufs[i].site, 0, l->bufs[i].seq, i};
  number(hi, h->nbufs);
  number(li, l->nbufs);
  /* both sorted by (site, occ): merge */
  for (size_t i = 0, j = 0; i < h->nbufs && j < l->nbufs;) {
    if (hi[i].site != li[j].site || hi[i].occ != li[j].occ) {
      if (hi[i].site < li[j].site || (hi[i].site == li[j].site && hi[i].occ < li[j].occ))
        i++;
      else
        j++;
      continue;
    }
    HostBuf *a = &h->bufs[hi[i].idx], *b = &l->bufs[li[j].idx];
    size_t k = 0, n = a->size < b->size ? a->size : b->size;
    while (k < n && a->bytes[k] == b->bytes[k])
      k++;
    if (a->size != b->size || k < n) {
      if (once(C, 3, a->site, hi[i].occ)) {
        if (a->size != b->size)
          report(C, DIAG_ERROR, a->site,
                 "the buffer allocated here by %s (occurrence %u) has %zu bytes in the program and %zu in the %s",
                 op_name(C, a->site, nm, sizeof nm), hi[i].occ + 1, a->size, b->size, C->lo.what);
        else
          report(C, DIAG_ERROR, a->site,
                 "the final contents of the buffer allocated here by %s (occurrence %u) differ: byte %zu is 0x%02x in the program and 0x%02x in the %s",
                 op_name(C, a->site, nm, sizeof nm), hi[i].occ + 1, k, a->bytes[k], b->bytes[k], C->lo.what);
        witness(C, sched);
      } else {
        C->errors++;
      }
    }
    i++;
    j++;
  }
  free(hi);
  free(li);
  return C->errors != before;
}

/* ---- comparing violations ------------------------------------------------------------------ */

static bool viol_is(const Viol *v, const char *kind) { return v->kind && !strcmp(v->kind, kind); }

/* The program's own errors: the reference must be clean. Returns whether it had any. */
static bool reference_errors(Checker *C, Run *h, const char *sched) {
  bool bad = h->interp_errors != 0;
  if (h->interp_errors && once(C, 4, 0, 0)) {
    fwrite(h->diag, 1, h->ndiag, stderr);
    report(C, DIAG_ERROR, entry_site(C),
           "the program itself fails under --sched=%s; the reference must run cleanly", sched);
  }
  for (size_t i = 0; i < h->nviols; i++) {
    Viol *v = &h->viols[i];
    if (!v->error)
      continue;
    bad = true;
    uint32_t a = site_of(&C->sites, v->loc, NULL);
    uint32_t b = v->loc2 ? site_of(&C->sites, v->loc2, NULL) : UINT32_MAX;
    if (!once(C, 5, a, b)) {
      C->errors++;
      continue;
    }
    if (viol_is(v, "race"))
      report(C, DIAG_ERROR, a, "the program has a race of its own: %s (the reference must be race-free)",
             v->message);
    else
      report(C, DIAG_ERROR, a, "the program itself has an error: %s [%s]", v->message, v->kind);
    if (b != UINT32_MAX)
      report(C, DIAG_NOTE, b, "the other party");
    witness(C, sched);
  }
  return bad;
}

/* Whether the reference run has a violation of the same kind at the same sites. */
static bool in_reference(Checker *C, Run *h, const Viol *v) {
  uint32_t a = site_of(&C->sites, v->loc, NULL);
  uint32_t b = v->loc2 ? site_of(&C->sites, v->loc2, NULL) : UINT32_MAX;
  for (size_t i = 0; i < h->nviols; i++) {
    const Viol *w = &h->viols[i];
    if (strcmp(w->kind ? w->kind : "", v->kind ? v->kind : ""))
      continue;
    uint32_t c = site_of(&C->sites, w->loc, NULL);
    uint32_t d = w->loc2 ? site_of(&C->sites, w->loc2, NULL) : UINT32_MAX;
    if ((a == c && b == d) || (a == d && b == c))
      return true;
  }
  return false;
}

static void lowered_violations(Checker *C, Run *h, Run *l, const char *sched) {
  if (l->interp_errors && !h->interp_errors && once(C, 6, 0, 0)) {
    fwrite(l->diag, 1, l->ndiag, stderr);
    report(C, DIAG_ERROR, entry_site(C), "the %s fails where the program does not", C->lo.what);
    witness(C, sched);
  }
  for (size_t i = 0; i < l->nviols; i++) {
    Viol *v = &l->viols[i];
    if (in_reference(C, h, v))
      continue;
    const char *call = "", *call2 = "";
    uint32_t a = site_of(&C->sites, v->loc, &call);
    uint32_t b = v->loc2 ? site_of(&C->sites, v->loc2, &call2) : UINT32_MAX;
    bool leak = viol_is(v, "leak");
    if (leak && C->o->leak_check == DIFF_LEAK_OFF)
      continue;
    if (!v->error && !leak)
      continue;
    unsigned kind = leak ? 7 : viol_is(v, "race") ? 8 : 9;
    if (!once(C, kind, a, b) || (kind == 8 && !once(C, 8, b, a)))
      continue;
    if (leak) {
      report(C, C->o->leak_check == DIFF_LEAK_ERROR ? DIAG_ERROR : DIAG_WARNING, a,
             "the %s leaks where the program does not: %s%s%s", C->lo.what, v->message,
             call[0] ? " at " : "", call);
    } else {
      if (kind == 8 || viol_is(v, "misuse"))
        report(C, DIAG_ERROR, a, "the %s has a %s the program does not have: %s%s%s", C->lo.what,
               kind == 8 ? "race" : "misuse", v->message, call[0] ? " at " : "", call);
      else
        report(C, DIAG_ERROR, a, "the %s has an error the program does not have: %s%s%s [%s]", C->lo.what,
               v->message, call[0] ? " at " : "", call, v->kind ? v->kind : "error");
      if (b != UINT32_MAX)
        report(C, DIAG_NOTE, b, "%s%s%s", kind == 8 ? "the other access" : "the handle or memory involved",
               call2[0] ? ": " : "", call2);
    }
    witness(C, sched);
  }
}

/* ---- happens-before ------------------------------------------------------------------------ */

typedef struct Edge {
  uint32_t from, next;
  TraceEdgeKind kind;
} Edge;

typedef struct Acc {
  uint32_t node;
  uint64_t off, size;
  bool write;
  bool atomic;         /* a read-modify-write: two of them do not conflict (be_access_conflict) */
} Acc;

typedef struct Node {
  bool host;
  bool device;         /* a memcpy, memset or kernel */
  uint32_t site, occ;  /* device ops */
  const char *call;    /* device op: the lowered call; host segment: the sync call that began it */
  uint64_t stream;
  uint32_t host_at;    /* ops: the host segment that submitted it */
  uint32_t first_edge; /* index + 1 into edges */
  uint32_t chain, idx; /* idx from 1 */
  size_t vco;          /* its clock: pool[vco .. vco + nvc) (dense) or nvc pairs from vco (sparse) */
  uint32_t nvc;
  bool sparse;         /* its clock is (chain, idx) pairs by chain, its nonzero entries only */
} Node;

typedef struct Graph {
  Node *v;
  size_t n, cap;
  Edge *e;
  size_t ne, cape;
  uint32_t *chain_tail; /* per chain: its last node */
  size_t nchains, capchains;
  uint32_t *pool;       /* every node's clock */
  Acc **bufacc;         /* per buffer id */
  size_t *nbufacc, *capbufacc, nbuffers;
  uint64_t *match;      /* (site << 32 | occ) -> node, open addressing (index + 1 in low bits) */
  uint32_t *matchv;
  size_t matchcap;
} Graph;

static void add_edge(Graph *G, uint32_t from, uint32_t to, TraceEdgeKind kind) {
  if (from >= to)
    return;
  PUSH(G->e, G->ne, G->cape, ((Edge){from, G->v[to].first_edge, kind}));
  G->v[to].first_edge = (uint32_t)G->ne;
}

static uint32_t add_node(Graph *G, Node n) {
  PUSH(G->v, G->n, G->cap, n);
  return (uint32_t)G->n - 1;
}

static uint64_t match_key(uint32_t site, uint32_t occ) { return (uint64_t)site << 32 | occ; }

static void match_put(Graph *G, uint64_t key, uint32_t node) {
  size_t h = hash_slot(key, G->matchcap);
  while (G->matchv[h])
    h = (h + 1) & (G->matchcap - 1);
  G->match[h] = key;
  G->matchv[h] = node + 1;
}

static uint32_t match_get(const Graph *G, uint32_t site, uint32_t occ) {
  if (!G->matchcap)
    return UINT32_MAX;
  uint64_t key = match_key(site, occ);
  size_t h = hash_slot(key, G->matchcap);
  while (G->matchv[h]) {
    if (G->match[h] == key)
      return G->matchv[h] - 1;
    h = (h + 1) & (G->matchcap - 1);
  }
  return UINT32_MAX;
}

static void add_accesses(Graph *G, uint32_t node, const TraceAccess *a, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint64_t b = a[i].buffer;
    if (!b || !a[i].size)
      continue;
    if (b >= G->nbuffers) {
      size_t nb = b + 64;
      G->bufacc = xrealloc(G->bufacc, nb * sizeof *G->bufacc);
      G->nbufacc = xrealloc(G->nbufacc, nb * sizeof *G->nbufacc);
      G->capbufacc = xrealloc(G->capbufacc, nb * sizeof *G->capbufacc);
      for (size_t k = G->nbuffers; k < nb; k++) {
        G->bufacc[k] = NULL;
        G->nbufacc[k] = G->capbufacc[k] = 0;
      }
      G->nbuffers = nb;
    }
    PUSH(G->bufacc[b], G->nbufacc[b], G->capbufacc[b],
         ((Acc){node, a[i].offset, a[i].size, (a[i].mode & TRACE_WRITE) != 0, (a[i].mode & TRACE_ATOMIC) != 0}));
  }
}

static int by_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int by_node(const void *a, const void *b) {
  const Acc *x = a, *y = b;
  return x->node < y->node ? -1 : x->node > y->node;
}

static void graph_build(Graph *G, TraceRecorder *rec, SiteTab *S) {
  memset(G, 0, sizeof *G);
  uint32_t host = add_node(G, (Node){.host = true});
  uint32_t *of_op = NULL; /* trace op id -> node */
  size_t nof = 0;
  size_t n = trace_recorder_count(rec);
  bool want_call = false;
  for (size_t i = 0; i < n; i++) {
    const TraceEvent *ev = trace_recorder_event(rec, i);
    switch (ev->kind) {
    case TRACE_ENQUEUE: {
      const char *call = "";
      Node nd = {.host_at = host, .stream = ev->stream};
      nd.device = ev->name && (!strcmp(ev->name, "memcpy") || !strcmp(ev->name, "memset") ||
                               !strcmp(ev->name, "kernel"));
      nd.site = site_of(S, ev->loc, &call);
      nd.call = call;
      uint32_t v = add_node(G, nd);
      add_edge(G, host, v, TRACE_EDGE_SYNC);
      if (ev->op >= nof) {
        size_t nn = ev->op + 64;
        of_op = xrealloc(of_op, nn * sizeof *of_op);
        for (size_t k = nof; k < nn; k++)
          of_op[k] = UINT32_MAX;
        nof = nn;
      }
      of_op[ev->op] = v;
      if (nd.device)
        add_accesses(G, v, ev->accesses, ev->n_accesses);
      break;
    }
    case TRACE_END:
      if (ev->op < nof && of_op[ev->op] != UINT32_MAX && G->v[of_op[ev->op]].device)
        add_accesses(G, of_op[ev->op], ev->accesses, ev->n_accesses);
      break;
    case TRACE_EDGE: {
      uint32_t from = ev->op == TRACE_HOST ? host : ev->op < nof ? of_op[ev->op] : UINT32_MAX;
      if (from == UINT32_MAX)
        break;
      if (ev->op2 == TRACE_HOST) {
        uint32_t h = add_node(G, (Node){.host = true, .call = ""});
        add_edge(G, host, h, TRACE_EDGE_SYNC);
        add_edge(G, from, h, TRACE_EDGE_SYNC);
        host = h;
        want_call = true;
      } else if (ev->op2 < nof && of_op[ev->op2] != UINT32_MAX) {
        add_edge(G, from, of_op[ev->op2], ev->edge);
      }
      break;
    }
    case TRACE_CALL:
      /* the call during which the host synchronized names the segment it began */
      if (want_call) {
        for (uint32_t k = host; k > 0 && G->v[k].host && !G->v[k].call[0]; k--)
          G->v[k].call = ev->loc ? ev->loc : "";
        want_call = false;
      }
      break;
    default:
      break;
    }
  }
  free(of_op);
  /* occurrences of device ops per site, in submission order */
  uint32_t *count = calloc(S->n + 1, sizeof *count);
  G->matchcap = 64;
  while (G->matchcap < 2 * G->n)
    G->matchcap *= 2;
  G->match = calloc(G->matchcap, sizeof *G->match);
  G->matchv = calloc(G->matchcap, sizeof *G->matchv);
  if (!count || !G->match || !G->matchv)
    exit(1);
  for (uint32_t v = 0; v < G->n; v++)
    if (G->v[v].device) {
      G->v[v].occ = count[G->v[v].site]++;
      match_put(G, match_key(G->v[v].site, G->v[v].occ), v);
    }
  free(count);
  /* chains and vector clocks, in node order (a topological order). A node's clock is the join of
   * its predecessors'; it then extends the chain of a predecessor that ends that chain or, failing
   * that, any chain whose last node its clock covers (that node happens before it), and only
   * else starts a chain. Chains are so reused as soon as what ends them is ordered before the
   * next node, and their number follows the width of the graph, not its length. */
  size_t at = 0, cap = 0;
  uint32_t *dense = NULL, *touched = NULL; /* the clock being built: dense over all chains, zero
                                              but at the chains in touched[0 .. nt) */
  size_t capdense = 0;
  for (uint32_t v = 0; v < G->n; v++) {
    Node *nd = &G->v[v];
    uint32_t nc = (uint32_t)G->nchains;
    if (nc + 1 > capdense) {
      size_t old = capdense;
      capdense = capdense ? 2 * capdense : 64;
      while (capdense < nc + 1)
        capdense *= 2;
      dense = xrealloc(dense, capdense * sizeof *dense);
      memset(dense + old, 0, (capdense - old) * sizeof *dense);
      touched = xrealloc(touched, capdense * sizeof *touched);
    }
    size_t nt = 0;
    uint32_t chain = UINT32_MAX;
#define JOIN_ENTRY(c, x)                                                                           \
  do {                                                                                             \
    uint32_t c_ = (c), x_ = (x);                                                                   \
    if (!dense[c_])                                                                                \
      touched[nt++] = c_;                                                                          \
    if (x_ > dense[c_])                                                                            \
      dense[c_] = x_;                                                                              \
  } while (0)
    for (uint32_t e = nd->first_edge; e; e = G->e[e - 1].next) {
      const Node *p = &G->v[G->e[e - 1].from];
      const uint32_t *pv = G->pool + p->vco;
      if (p->sparse) {
        for (uint32_t i = 0; i < p->nvc; i++)
          JOIN_ENTRY(pv[2 * i], pv[2 * i + 1]);
      } else {
        for (uint32_t c = 0; c < p->nvc; c++)
          if (pv[c])
            JOIN_ENTRY(c, pv[c]);
      }
      if (chain == UINT32_MAX && G->chain_tail[p->chain] == G->e[e - 1].from && p->host == nd->host)
        chain = p->chain;
    }
    /* else the lowest chain whose last node the clock covers: only a nonzero entry can */
    if (chain == UINT32_MAX) {
      uint32_t best = UINT32_MAX;
      for (size_t i = 0; i < nt; i++) {
        uint32_t c = touched[i];
        const Node *t = &G->v[G->chain_tail[c]];
        if (c < best && t->host == nd->host && dense[c] == t->idx)
          best = c;
      }
      chain = best;
    }
    uint32_t idx;
    if (chain == UINT32_MAX) {
      PUSH(G->chain_tail, G->nchains, G->capchains, v);
      chain = nc++;
      idx = 1;
    } else {
      idx = G->v[G->chain_tail[chain]].idx + 1;
      G->chain_tail[chain] = v;
    }
    if (!dense[chain])
      touched[nt++] = chain;
    dense[chain] = idx;
#undef JOIN_ENTRY
    nd->idx = idx;
    nd->chain = chain;
    /* a clock of few entries among many chains (a wide graph) is kept as pairs, so clocks cost
       their nonzero entries, not nodes x width; else dense, one word per chain */
    nd->sparse = 2 * nt < nc;
    size_t words = nd->sparse ? 2 * nt : nc;
    if (at + words > cap) {
      cap = cap ? 2 * cap : 1024;
      while (at + words > cap)
        cap *= 2;
      G->pool = xrealloc(G->pool, cap * sizeof *G->pool);
    }
    uint32_t *vc = G->pool + at;
    if (nd->sparse) {
      qsort(touched, nt, sizeof *touched, by_u32);
      for (size_t i = 0; i < nt; i++) {
        vc[2 * i] = touched[i];
        vc[2 * i + 1] = dense[touched[i]];
      }
      nd->nvc = (uint32_t)nt;
    } else {
      memset(vc, 0, nc * sizeof *vc);
      for (size_t i = 0; i < nt; i++)
        vc[touched[i]] = dense[touched[i]];
      nd->nvc = nc;
    }
    for (size_t i = 0; i < nt; i++)
      dense[touched[i]] = 0;
    nd->vco = at;
    at += words;
  }
  free(dense);
  free(touched);
  for (size_t b = 0; b < G->nbuffers; b++) { /* in node order most often already (serial runs) */
    size_t i = 1;
    while (i < G->nbufacc[b] && G->bufacc[b][i - 1].node <= G->bufacc[b][i].node)
      i++;
    if (i < G->nbufacc[b])
      qsort(G->bufacc[b], G->nbufacc[b], sizeof *G->bufacc[b], by_node);
  }
}

static void graph_free(Graph *G) {
  for (size_t b = 0; b < G->nbuffers; b++)
    free(G->bufacc[b]);
  free(G->bufacc);
  free(G->nbufacc);
  free(G->capbufacc);
  free(G->v);
  free(G->e);
  free(G->chain_tail);
  free(G->pool);
  free(G->match);
  free(G->matchv);
}

/* Node v's clock entry for chain c. */
static uint32_t clock_at(const Graph *G, uint32_t v, uint32_t c) {
  const Node *y = &G->v[v];
  const uint32_t *vc = G->pool + y->vco;
  if (!y->sparse)
    return c < y->nvc ? vc[c] : 0;
  uint32_t lo = 0, hi = y->nvc; /* pairs by chain */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (vc[2 * mid] < c)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < y->nvc && vc[2 * lo] == c ? vc[2 * lo + 1] : 0;
}

/* a happens before b (strictly) */
static bool before(const Graph *G, uint32_t a, uint32_t b) {
  if (a == b)
    return false;
  const Node *x = &G->v[a];
  return clock_at(G, b, x->chain) >= x->idx;
}

static const char *call_of(const char *loc) {
  const char *sp = loc ? strchr(loc, ' ') : NULL;
  return sp ? sp + 1 : "";
}

/* ---- lost ordering ------------------------------------------------------------------------- */

/* The check walks each buffer's accesses in node order (a topological order of the reference)
 * and keeps, for every range of bytes, what a later access must be ordered after: the last plain
 * write and the reads and atomics since it (a frontier, as FastTrack keeps a location's last
 * write and read set). A new access is compared with the frontier of the bytes it touches: a
 * plain write with all of it, a read with the write and the atomics, an atomic with the write
 * and the reads (two atomics do not conflict). Since the reference is race-free, every
 * conflicting pair it has is joined by a path of such compared pairs (through the plain writes
 * of its bytes), and the lowered form's order composes along the path: if it orders every
 * compared pair, it orders them all, and where it does not, a compared pair shows it. A read
 * (an atomic) that the lowered form orders before a newer one of its kind leaves the frontier:
 * what is ordered after the newer is ordered after it too, so the sets hold no two reads the
 * lowered form orders, at most its width. The ranges are a treap by offset, split where an
 * access begins and ends, so an access costs the log of the buffer's ranges plus the ranges it
 * touches, and a kernel's many separate ranges (a strided access) cost one lookup each, not a
 * walk over all the earlier ones. */

typedef struct Touch {
  uint32_t node, lnode; /* the reference's node, its match in the lowered form (UINT32_MAX: none) */
  uint64_t off, size;   /* the whole access, for the message */
  bool atomic;          /* in a frontier's set: an atomic, else a read */
} Touch;

typedef struct Seg {    /* bytes [lo, hi) of a buffer: a treap node, by lo */
  uint64_t lo, hi;
  uint32_t left, right; /* index + 1 into the pool, 0 for none */
  uint32_t prio;
  bool has_w;
  Touch w;              /* the last plain write */
  Touch *set;           /* the reads and atomics since it */
  uint32_t nset, capset;
} Seg;

typedef struct Frontier {
  Seg *s;               /* the pool; s[i - 1] is node i */
  size_t n, cap;
  uint32_t *freed;      /* nodes to reuse */
  size_t nfreed, capfreed;
  uint32_t rng;
  uint32_t *walk, *stack; /* scratch: the nodes of a range in order, an in-order walk's stack */
  size_t nwalk, capwalk, nstack, capstack;
} Frontier;

#define SEG(F, i) (&(F)->s[(i) - 1])

static uint32_t seg_new(Frontier *F, uint64_t lo, uint64_t hi) {
  uint32_t i;
  if (F->nfreed) {
    i = F->freed[--F->nfreed];
  } else {
    PUSH(F->s, F->n, F->cap, ((Seg){0}));
    i = (uint32_t)F->n;
  }
  F->rng ^= F->rng << 13;
  F->rng ^= F->rng >> 17;
  F->rng ^= F->rng << 5;
  *SEG(F, i) = (Seg){.lo = lo, .hi = hi, .prio = F->rng};
  return i;
}

static void seg_drop(Frontier *F, uint32_t i) {
  free(SEG(F, i)->set);
  SEG(F, i)->set = NULL;
  PUSH(F->freed, F->nfreed, F->capfreed, i);
}

/* A copy of node i's state for bytes [lo, hi). */
static uint32_t seg_copy(Frontier *F, uint32_t i, uint64_t lo, uint64_t hi) {
  uint32_t c = seg_new(F, lo, hi);
  Seg *s = SEG(F, i), *t = SEG(F, c);
  t->has_w = s->has_w;
  t->w = s->w;
  if (s->nset) {
    t->set = xrealloc(NULL, s->nset * sizeof *t->set);
    memcpy(t->set, s->set, s->nset * sizeof *t->set);
    t->nset = t->capset = s->nset;
  }
  return c;
}

/* t split into the nodes with lo < key (*a) and the others (*b). */
static void seg_split(Frontier *F, uint32_t t, uint64_t key, uint32_t *a, uint32_t *b) {
  uint32_t *pa = a, *pb = b;
  while (t) {
    Seg *s = SEG(F, t);
    if (s->lo < key) {
      *pa = t;
      pa = &s->right;
      t = s->right;
    } else {
      *pb = t;
      pb = &s->left;
      t = s->left;
    }
  }
  *pa = *pb = 0;
}

/* a and b joined, every lo of a below every lo of b. */
static uint32_t seg_merge(Frontier *F, uint32_t a, uint32_t b) {
  uint32_t root = 0, *p = &root;
  while (a && b) {
    if (SEG(F, a)->prio >= SEG(F, b)->prio) {
      *p = a;
      p = &SEG(F, a)->right;
      a = SEG(F, a)->right;
    } else {
      *p = b;
      p = &SEG(F, b)->left;
      b = SEG(F, b)->left;
    }
  }
  *p = a ? a : b;
  return root;
}

/* The node of t with the highest lo, or 0. */
static uint32_t seg_last(Frontier *F, uint32_t t) {
  while (t && SEG(F, t)->right)
    t = SEG(F, t)->right;
  return t;
}

/* F->walk = t's nodes in order. */
static void seg_walk(Frontier *F, uint32_t t) {
  F->nwalk = F->nstack = 0;
  while (t || F->nstack) {
    while (t) {
      PUSH(F->stack, F->nstack, F->capstack, t);
      t = SEG(F, t)->left;
    }
    t = F->stack[--F->nstack];
    PUSH(F->walk, F->nwalk, F->capwalk, t);
    t = SEG(F, t)->right;
  }
}

/* y joins set s (reads with reads, atomics with atomics), less those the lowered form orders
 * before it; it stays out if the lowered form orders it before one of them. */
static void set_add(Graph *L, Seg *s, const Touch *y) {
  if (y->lnode == UINT32_MAX)
    return; /* no pair with it is compared */
  uint32_t j = 0;
  bool keep = true;
  for (uint32_t i = 0; i < s->nset; i++) {
    Touch *x = &s->set[i];
    if (x->atomic == y->atomic && keep && (x->lnode == y->lnode || before(L, y->lnode, x->lnode)))
      keep = false;
    if (x->atomic == y->atomic && before(L, x->lnode, y->lnode))
      continue;
    s->set[j++] = *x;
  }
  s->nset = j;
  if (keep) {
    if (s->nset == s->capset) {
      s->capset = s->capset ? 2 * s->capset : 2;
      s->set = xrealloc(s->set, s->capset * sizeof *s->set);
    }
    s->set[s->nset++] = *y;
  }
}

/* The reference orders x before y, two conflicting accesses of one buffer: does the lowering? */
static void order_pair(Checker *C, Graph *H, Graph *L, const Touch *x, const Touch *y) {
  if (x->node == y->node || !before(H, x->node, y->node))
    return; /* one op; or a race of the reference, reported as such */
  uint32_t lx = x->lnode, ly = y->lnode;
  if (lx == UINT32_MAX || ly == UINT32_MAX || before(L, lx, ly))
    return;
  if (C->oracle)
    PUSH(C->order_found, C->norder_found, C->caporder_found, ((uint64_t)x->node << 32 | y->node));
  const Node *hx = &H->v[x->node], *hy = &H->v[y->node];
  if (!once(C, 10, hx->site, hy->site))
    return;
  char na[128], nb[128], where[1100];
  once(C, 8, hx->site, hy->site); /* the lowered form's race on them says the same */
  once(C, 8, hy->site, hx->site);
  report(C, DIAG_ERROR, hy->site,
         "the lowering lost the ordering of %s at %s and %s here: the program orders them (both touch bytes [%" PRIu64 ", %" PRIu64 ") of one buffer), the lowered program does not",
         op_name(C, hx->site, na, sizeof na), site_text(C, hx->site, where, sizeof where),
         op_name(C, hy->site, nb, sizeof nb),
         x->off > y->off ? x->off : y->off,
         x->off + x->size < y->off + y->size ? x->off + x->size : y->off + y->size);
  report(C, DIAG_NOTE, hx->site, "%s is here", na);
  const Node *a = &L->v[lx], *bb = &L->v[ly];
  if (before(L, ly, lx))
    ir_diag(C->hi.ctx, DIAG_NOTE, NULL, "the lowered program runs them in the opposite order");
  else if (a->stream && bb->stream && a->stream != bb->stream)
    ir_diag(C->hi.ctx, DIAG_NOTE, NULL,
            "in the lowered program %s runs on stream %" PRIu64 " and %s on stream %" PRIu64
            ", with no mgpuStreamWaitEvent between them",
            a->call[0] ? a->call : na, a->stream, bb->call[0] ? bb->call : nb, bb->stream);
  else
    ir_diag(C->hi.ctx, DIAG_NOTE, NULL, "in the lowered program nothing orders %s and %s",
            a->call[0] ? a->call : na, bb->call[0] ? bb->call : nb);
  witness(C, "serial");
}

/* Access y (of node y->node, in node order) against the frontier of its bytes, which it then
 * joins; returns the new root. */
static uint32_t frontier_access(Checker *C, Graph *H, Graph *L, Frontier *F, uint32_t root,
                                const Touch *y, bool write) {
  uint64_t lo = y->off, hi = y->off + y->size;
  uint32_t a, m, c;
  seg_split(F, root, lo, &a, &m);
  uint32_t t = seg_last(F, a);
  if (t && SEG(F, t)->hi > lo) { /* a range across lo: its part from lo on goes to m */
    uint32_t u = seg_copy(F, t, lo, SEG(F, t)->hi);
    SEG(F, t)->hi = lo;
    m = seg_merge(F, u, m);
  }
  seg_split(F, m, hi, &m, &c);
  t = seg_last(F, m);
  if (t && SEG(F, t)->hi > hi) {
    uint32_t u = seg_copy(F, t, hi, SEG(F, t)->hi);
    SEG(F, t)->hi = hi;
    c = seg_merge(F, u, c);
  }
  seg_walk(F, m);
  bool plain = write && !y->atomic;
  for (size_t k = 0; k < F->nwalk; k++) {
    Seg *s = SEG(F, F->walk[k]);
    if (s->has_w)
      order_pair(C, H, L, &s->w, y);
    for (uint32_t i = 0; i < s->nset; i++)
      if (plain || s->set[i].atomic != y->atomic)
        order_pair(C, H, L, &s->set[i], y);
  }
  if (plain) { /* y is all that later accesses of these bytes must follow */
    for (size_t k = 0; k < F->nwalk; k++)
      seg_drop(F, F->walk[k]);
    m = seg_new(F, lo, hi);
    SEG(F, m)->has_w = true;
    SEG(F, m)->w = *y;
  } else { /* y joins every range's set, and bytes no one touched yet get a range */
    Touch ty = *y;
    ty.atomic = write;
    m = 0;
    uint64_t at = lo;
    for (size_t k = 0; k <= F->nwalk; k++) {
      uint32_t i = k < F->nwalk ? F->walk[k] : 0;
      uint64_t next = i ? SEG(F, i)->lo : hi;
      if (next > at) {
        uint32_t g = seg_new(F, at, next);
        set_add(L, SEG(F, g), &ty);
        SEG(F, g)->left = SEG(F, g)->right = 0;
        m = seg_merge(F, m, g);
      }
      if (!i)
        break;
      set_add(L, SEG(F, i), &ty);
      at = SEG(F, i)->hi;
      SEG(F, i)->left = SEG(F, i)->right = 0;
      m = seg_merge(F, m, i);
    }
  }
  return seg_merge(F, seg_merge(F, a, m), c);
}

static void lost_ordering(Checker *C, Graph *H, Graph *L) {
  Frontier F = {.rng = 2463534242u};
  for (size_t b = 0; b < H->nbuffers; b++) {
    uint32_t root = 0;
    for (size_t j = 0; j < H->nbufacc[b]; j++) {
      const Acc *x = &H->bufacc[b][j];
      const Node *hx = &H->v[x->node];
      Touch y = {x->node, match_get(L, hx->site, hx->occ), x->off, x->size, x->atomic};
      root = frontier_access(C, H, L, &F, root, &y, x->write);
    }
    for (size_t i = 1; i <= F.n; i++)
      free(SEG(&F, i)->set);
    F.n = F.nfreed = 0;
  }
  free(F.s);
  free(F.freed);
  free(F.walk);
  free(F.stack);
}

/* GPUINTERP_DIFF_ORACLE: every node's clock, sparse or dense, against a dense one built again
 * from the chains the nodes were given (the join of the predecessors' clocks, the node's own
 * entry on its chain), entry by entry; so the compact clocks answer as the nodes x width ones
 * did. Skipped (with a note under =stats) past 2^26 entries. */
static void clocks_oracle(const Checker *C, const Graph *G, const char *form) {
  size_t nc = G->nchains;
  if (!G->n || (uint64_t)G->n * nc > ((uint64_t)1 << 26)) {
    if (C->oracle_stats && G->n)
      fprintf(stderr, "gpuinterp: diff oracle: the %s form's clocks are not checked (%zu nodes x %zu chains)\n",
              form, G->n, nc);
    return;
  }
  uint32_t *full = xrealloc(NULL, G->n * nc * sizeof *full);
  memset(full, 0, G->n * nc * sizeof *full);
  size_t sparse = 0;
  for (uint32_t v = 0; v < G->n; v++) {
    uint32_t *vc = full + (size_t)v * nc;
    for (uint32_t e = G->v[v].first_edge; e; e = G->e[e - 1].next) {
      const uint32_t *pv = full + (size_t)G->e[e - 1].from * nc;
      for (size_t c = 0; c < nc; c++)
        if (pv[c] > vc[c])
          vc[c] = pv[c];
    }
    vc[G->v[v].chain] = G->v[v].idx;
    sparse += G->v[v].sparse;
    for (uint32_t c = 0; c < nc; c++)
      if (clock_at(G, v, c) != vc[c]) {
        fprintf(stderr, "gpuinterp: diff oracle: the %s form's node %u has %u for chain %u in its %s clock, "
                "the dense reference %u\n", form, v, clock_at(G, v, c), c, G->v[v].sparse ? "sparse" : "dense",
                vc[c]);
        abort();
      }
  }
  free(full);
  if (C->oracle_stats)
    fprintf(stderr, "gpuinterp: diff oracle: the %s form's clocks agree (%zu nodes, %zu chains, %zu sparse)\n",
            form, G->n, nc, sparse);
}

/* GPUINTERP_DIFF_ORACLE=1: every pair of conflicting accesses compared, the textbook check
 * lost_ordering is pruned from; O(accesses^2), for tests. The verdicts must agree: lost_ordering
 * found a pair iff there is one, and every pair it found is one. */
static void lost_ordering_oracle(Checker *C, Graph *H, Graph *L) {
  size_t lost = 0;
  uint64_t first = 0;
  for (size_t b = 0; b < H->nbuffers; b++) {
    const Acc *acc = H->bufacc[b];
    for (size_t j = 0; j < H->nbufacc[b]; j++)
      for (size_t i = 0; i < j; i++) {
        const Acc *x = &acc[i], *y = &acc[j];
        if (x->node == y->node || !(x->off < y->off + y->size && y->off < x->off + x->size) ||
            (!x->write && !y->write) || (x->atomic && y->atomic) || !before(H, x->node, y->node))
          continue;
        const Node *hx = &H->v[x->node], *hy = &H->v[y->node];
        uint32_t lx = match_get(L, hx->site, hx->occ), ly = match_get(L, hy->site, hy->occ);
        if (lx != UINT32_MAX && ly != UINT32_MAX && !before(L, lx, ly) && !lost++)
          first = (uint64_t)x->node << 32 | y->node;
      }
  }
  for (size_t k = 0; k < C->norder_found; k++) {
    uint32_t x = (uint32_t)(C->order_found[k] >> 32), y = (uint32_t)C->order_found[k];
    if (!before(H, x, y) || before(L, match_get(L, H->v[x].site, H->v[x].occ),
                                   match_get(L, H->v[y].site, H->v[y].occ))) {
      fprintf(stderr, "gpuinterp: diff oracle: the ordering check reports nodes %u and %u, which are no lost ordering\n", x, y);
      abort();
    }
  }
  if (!lost != !C->norder_found) {
    fprintf(stderr, "gpuinterp: diff oracle: the ordering check found %zu lost orderings, the reference %zu "
            "(first: nodes %u and %u)\n", C->norder_found, lost, (uint32_t)(first >> 32), (uint32_t)first);
    abort();
  }
  if (C->oracle_stats)
    fprintf(stderr, "gpuinterp: diff oracle: %zu lost orderings, %zu found by the ordering check, the verdicts agree\n",
            lost, C->norder_found);
}

static void lost_concurrency_pair(Checker *C, const Node *u, const Node *v, const char *why) {
  if (!once(C, 11, u->site, v->site))
    return;
  char na[128], nb[128], where[1100];
  report(C, C->o->strict ? DIAG_ERROR : DIAG_WARNING, v->site,
         "lost concurrency: the program lets %s at %s and %s here run concurrently, the lowering orders them: %s",
         op_name(C, u->site, na, sizeof na), site_text(C, u->site, where, sizeof where),
         op_name(C, v->site, nb, sizeof nb),
         why);
  report(C, DIAG_NOTE, u->site, "%s is here", na);
}

static void lost_concurrency(Checker *C, Graph *H, Graph *L) {
  char why[600];
  for (uint32_t v = 0; v < L->n; v++) {
    const Node *lv = &L->v[v];
    if (!lv->device)
      continue;
    uint32_t hv = match_get(H, lv->site, lv->occ);
    if (hv == UINT32_MAX)
      continue;
    for (uint32_t e = lv->first_edge; e; e = L->e[e - 1].next) {
      const Edge *ed = &L->e[e - 1];
      const Node *lu = &L->v[ed->from];
      if (!lu->device)
        continue;
      uint32_t hu = match_get(H, lu->site, lu->occ);
      if (hu == UINT32_MAX || before(H, hu, hv))
        continue;
      if (ed->kind == TRACE_EDGE_STREAM)
        snprintf(why, sizeof why, "it put both on stream %" PRIu64, lv->stream);
      else if (ed->kind == TRACE_EDGE_EVENT)
        snprintf(why, sizeof why, "an mgpuStreamWaitEvent makes %s wait for %s",
                 lv->call[0] ? lv->call : "the second", lu->call[0] ? lu->call : "the first");
      else
        snprintf(why, sizeof why, "a dependency orders them");
      lost_concurrency_pair(C, lu, lv, why);
    }
  }
  /* synchronizations: the host, and so all it submits next, waits for the op. From each, the
   * ops after it are walked until one the program does not order after the op (the pair to
   * report) or one that the program's host submitted after waiting for the op itself (all that
   * follows is ordered too). The walks go from the last synchronization to the first, and each
   * leaves, per chain of the program's op, the span of ops it crossed: all of them ordered after
   * its op in the program, so after any op earlier on that chain, which a later walk (an earlier
   * synchronization) for such an op steps over at once, knowing from the span's largest host
   * clock entry whether a host wait lay inside. A chain of ops each synchronized on (the walks
   * nested) so costs each op once, not once per synchronization before it. */
  typedef struct Span {
    uint32_t from, to; /* L's nodes [from, to), each ordered after chain's op idx in H */
    uint32_t idx;      /* 0: none */
    uint32_t host;     /* the largest entry for the chain of their hosts' clocks (and to's, if a
                          host wait stopped the walk there) */
  } Span;
  Span *span = xrealloc(NULL, (H->nchains + 1) * sizeof *span);
  memset(span, 0, (H->nchains + 1) * sizeof *span);
  uint32_t *found = xrealloc(NULL, (L->ne + 1) * sizeof *found);
  for (size_t e = 0; e < L->ne; e++)
    found[e] = UINT32_MAX;
  for (uint32_t h = (uint32_t)L->n; h-- > 0;) {
    const Node *lh = &L->v[h];
    if (!lh->host)
      continue;
    for (uint32_t e = lh->first_edge; e; e = L->e[e - 1].next) {
      const Node *lu = &L->v[L->e[e - 1].from];
      if (!lu->device)
        continue;
      uint32_t hu = match_get(H, lu->site, lu->occ);
      if (hu == UINT32_MAX)
        continue;
      uint32_t c = H->v[hu].chain, t = H->v[hu].idx, hostmax = 0, w = h + 1;
      Span *sp = &span[c];
      for (; w < L->n; w++) {
        if (sp->idx >= t && w == sp->from) { /* all of it ordered after hu too */
          if (sp->host > hostmax)
            hostmax = sp->host;
          if (hostmax >= t)
            break;
          if (sp->to > w) {
            w = sp->to - 1;
            continue;
          }
        }
        const Node *lw = &L->v[w];
        if (!lw->device)
          continue;
        uint32_t hw = match_get(H, lw->site, lw->occ);
        if (hw == UINT32_MAX)
          continue;
        uint32_t hh = clock_at(H, H->v[hw].host_at, c);
        if (hh > hostmax)
          hostmax = hh;
        if (hh >= t)
          break; /* the program's host waited for it too: all that follows is ordered */
        if (clock_at(H, hw, c) < t) {
          found[e - 1] = w;
          break;
        }
      }
      *sp = (Span){h + 1, w, t, hostmax};
    }
  }
  for (uint32_t h = 0; h < L->n; h++) {
    const Node *lh = &L->v[h];
    if (!lh->host)
      continue;
    for (uint32_t e = lh->first_edge; e; e = L->e[e - 1].next) {
      if (found[e - 1] == UINT32_MAX)
        continue;
      const char *cl = call_of(lh->call);
      snprintf(why, sizeof why, "the host waits for the first%s%s before it submits the second",
               cl[0] ? " in " : "", cl);
      lost_concurrency_pair(C, &L->v[L->e[e - 1].from], &L->v[found[e - 1]], why);
    }
  }
  free(span);
  free(found);
}

/* ---- driving ------------------------------------------------------------------------------- */

static char *trace_name(const char *path, const char *what) {
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  size_t n = strlen(path), at = dot && (!slash || dot > slash + 1) ? (size_t)(dot - path) : n;
  char *s = xrealloc(NULL, n + strlen(what) + 2);
  snprintf(s, n + strlen(what) + 2, "%.*s.%s%s", (int)at, path, what, path + at);
  return s;
}

static int write_traces(Checker *C, Run *h, Run *l) {
  int st = 0;
  Run *r[2] = {h, l};
  const char *what[2] = {C->lo.backend ? "sim" : "high", C->lo.backend ? C->lo.backend : "lowered"};
  for (int i = 0; i < 2; i++) {
    char *p = trace_name(C->o->trace_path, what[i]);
    errno = 0;
    if (!r[i]->rec || trace_write_path(r[i]->rec, C->o->trace_format, p) != 0) {
      fprintf(stderr, "gpuinterp: error: cannot write to '%s': %s\n", p, strerror(errno ? errno : EIO));
      st = 1;
    }
    free(p);
  }
  return st;
}

static int load(Checker *C) {
  const DiffOptions *o = C->o;
  C->hi.what = "program";
  C->lo.what = "lowered program";
  if (o->against_backend) {
    snprintf(C->lo_what, sizeof C->lo_what, "%s run", o->against_backend);
    C->lo.what = C->lo_what;
    C->lo.backend = o->against_backend;
  }
  C->hi.ctx = ir_ctx_create();
  C->lo.ctx = ir_ctx_create();
  if (!C->hi.ctx || !C->lo.ctx)
    return 1;
  C->hi.top = ir_parse_file(C->hi.ctx, o->input);
  if (!C->hi.top || ir_verify(C->hi.ctx, C->hi.top))
    return 2;
  /* sites quoted in messages ('file:line:col', 'file:line:col mgpuX') name the program's ops */
  C->names = sites_create(C->hi.ctx, C->hi.top, NULL);
  ir_diag_set_rewrite(C->hi.ctx, C->names ? sites_rewrite : NULL, C->names);
  C->hi_file = ir_intern_cstr(C->hi.ctx, o->input);
  C->hi_canon = xstrdup(canon_file(&C->sites, o->input));
  C->sites.anchor = C->hi_canon;
  walk(C->hi.top, index_hi_op, C);
  if (o->against) {
    C->lo.top = ir_parse_file(C->lo.ctx, o->against);
    if (!C->lo.top || ir_verify(C->lo.ctx, C->lo.top))
      return 2;
    LocCount lc = {C, 0, 0};
    walk(C->lo.top, count_locs, &lc);
    if (!lc.ours) {
      fprintf(stderr,
              "%s: error: the lowered file has no locations of '%s', so its ops cannot be matched to "
              "the program's; print it with them: mlir-opt ... -mlir-print-debuginfo\n",
              o->against, o->input);
      return 2;
    }
  } else {
    C->lo.top = ir_parse_file(C->lo.ctx, o->input);
    if (!C->lo.top || ir_verify(C->lo.ctx, C->lo.top))
      return 2;
    if (o->against_backend)
      return 0; /* the program itself, on the device */
    LowerOptions lo = {.mutate = o->mutate};
    if (lower_module(C->lo.ctx, C->lo.top, &lo) || ir_verify(C->lo.ctx, C->lo.top)) {
      fprintf(stderr, "gpuinterp: error: the lowering of '%s' failed; nothing to compare\n", o->input);
      return 1;
    }
  }
  return 0;
}

/* Whether -e's function is one a run can start: a func.func or llvm.func with a body. */
static bool entry_exists(Checker *C) {
  Op *fn = ir_symbol_lookup(C->hi.top, ir_intern_cstr(C->hi.ctx, C->o->entry));
  return fn && (ir_str_eq(fn->name, "func.func") || ir_str_eq(fn->name, "llvm.func")) && fn->nregions &&
         fn->regions[0].first;
}

/* --against-backend: the reference once under serial, the program once on the device. */
static int against_backend(Checker *C) {
  const DiffOptions *o = C->o;
  Run h, l;
  bool trace = o->trace_path != NULL;
  run_form(&C->hi, &C->sites, o, "serial", trace, &h);
  run_form(&C->lo, &C->sites, o, NULL, trace, &l);
  if (!reference_errors(C, &h, "serial")) {
    /* a device run that could not start or ended early differs everywhere: say only why */
    if (!l.interp_errors && !l.launch_failed && compare_values(C, &h, &l, "serial") && !C->witness)
      C->witness = xstrdup("serial");
    lowered_violations(C, &h, &l, "serial");
  }
  if (trace && write_traces(C, &h, &l))
    C->errors++;
  run_free(&h);
  run_free(&l);
  return C->errors ? 1 : 0;
}

int diff_run(const DiffOptions *o) {
  Checker C = {0};
  C.o = o;
  const char *orc = getenv("GPUINTERP_DIFF_ORACLE");
  C.oracle = orc && *orc && strcmp(orc, "0");
  C.oracle_stats = orc && !strcmp(orc, "stats");
  int status = load(&C);
  if (status)
    goto done;
  if (!entry_exists(&C)) {
    fprintf(stderr, "gpuinterp: error: no function '@%s' with a body to run (-e names the entry point; "
                    "default: main)\nTry 'gpuinterp --help' for more information.\n", o->entry);
    status = 2;
    goto done;
  }
  if (o->against_backend) {
    status = against_backend(&C);
    goto done;
  }
  walk(C.lo.top, find_unconverted, &C);

  size_t nsched = 2 + (o->seeds < MAX_SCHEDS ? o->seeds : MAX_SCHEDS);
  char sched[32];
  Run hs, ls; /* the serial runs, kept for their traces */
  bool bad_reference = false;
  Run h, l;
  for (size_t k = 0; k < nsched && !bad_reference; k++) {
    if (k == 0)
      snprintf(sched, sizeof sched, "serial");
    else if (k == 1)
      snprintf(sched, sizeof sched, "threads");
    else
      snprintf(sched, sizeof sched, "random:%zu", k - 1);
    Run *rh = k ? &h : &hs, *rl = k ? &l : &ls;
    run_form(&C.hi, &C.sites, o, sched, k == 0, rh);
    run_form(&C.lo, &C.sites, o, sched, k == 0, rl);
    if (reference_errors(&C, rh, sched)) {
      bad_reference = true;
    } else {
      if (compare_values(&C, rh, rl, sched) && !C.witness)
        C.witness = xstrdup(sched);
      if (k == 0) {
        Graph H, L;
        graph_build(&H, hs.rec, &C.sites);
        graph_build(&L, ls.rec, &C.sites);
        lost_ordering(&C, &H, &L);
        if (C.oracle) {
          clocks_oracle(&C, &H, "reference");
          clocks_oracle(&C, &L, "lowered");
          lost_ordering_oracle(&C, &H, &L);
        }
        lost_concurrency(&C, &H, &L);
        graph_free(&H);
        graph_free(&L);
      }
      lowered_violations(&C, rh, rl, sched);
    }
    if (k) {
      run_free(&h);
      run_free(&l);
    }
  }
  if (o->trace_path) {
    if (!C.witness || !strcmp(C.witness, "serial")) {
      if (write_traces(&C, &hs, &ls))
        C.errors++;
    } else {
      run_form(&C.hi, &C.sites, o, C.witness, true, &h);
      run_form(&C.lo, &C.sites, o, C.witness, true, &l);
      if (write_traces(&C, &h, &l))
        C.errors++;
      run_free(&h);
      run_free(&l);
    }
  }
  run_free(&hs);
  run_free(&ls);
  status = C.errors ? 1 : 0;
done:
  sites_destroy(C.names);
  if (C.hi.ctx)
    ir_ctx_destroy(C.hi.ctx);
  if (C.lo.ctx)
    ir_ctx_destroy(C.lo.ctx);
  free((char *)C.hi_canon);
  free((char *)C.witness);
  free(C.site_op);
  free(C.seen);
  free(C.order_found);
  sites_free(&C.sites);
  return status;
}
