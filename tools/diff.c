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
 *
 * The files: diff.c (this one: sites, runs, reporting, the lowered module's checks and the
 * driver), diff_values.c (comparing by value and by violations), diff_order.c (the happens-before
 * graphs and the two ordering checks); diff_internal.h holds what they share.
 */
#include "tools/diff_internal.h"

#include "lower/lower.h"

#include <errno.h>
#include <stdarg.h>

#define MAX_SCHEDS 1024

/* ---- locations: "file:line:col[ call]" to a site id --------------------------------------- */

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
uint32_t diff_site_of(SiteTab *S, const char *loc, const char **call) {
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

static void on_print(void *user, const char *loc, uint64_t launch, const char *text, size_t len) {
  Run *r = user;
  char *t = xrealloc(NULL, len + 1);
  memcpy(t, text, len);
  t[len] = 0;
  pthread_mutex_lock(&r->mu);
  PUSH(r->prints, r->nprints, r->capprints, ((Print){diff_site_of(r->sites, loc, NULL), launch, t}));
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
  PUSH(r->drains, r->ndrains, r->capdrains, ((struct Drain){r->ndev, diff_site_of(r->sites, loc, NULL)}));
}

static void on_buffer(void *user, const char *loc, uint64_t seq, const void *bytes, size_t size) {
  Run *r = user;
  unsigned char *b = xrealloc(NULL, size);
  if (size)
    memcpy(b, bytes, size);
  PUSH(r->bufs, r->nbufs, r->capbufs, ((HostBuf){diff_site_of(r->sites, loc, NULL), seq, b, size}));
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

bool diff_once(Checker *C, unsigned kind, uint32_t a, uint32_t b) {
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

void diff_report(Checker *C, DiagSeverity sev, uint32_t site, const char *fmt, ...) {
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
const char *diff_site_text(Checker *C, uint32_t site, char *buf, size_t n) {
  const Site *s = &C->sites.v[site];
  if (!s->has_pos)
    return s->key;
  const char *canon = canon_file(&C->sites, s->file);
  snprintf(buf, n, "%s:%u:%u", strcmp(canon, C->hi_canon) ? s->file : C->hi_file.s, s->line, s->col);
  return buf;
}

/* "'gpu.memcpy'" for a site with a high-level op, else "the op". */
const char *diff_op_name(Checker *C, uint32_t site, char *buf, size_t n) {
  Op *op = site < C->nsite_op ? C->site_op[site] : NULL;
  if (op)
    snprintf(buf, n, "'%.*s'", (int)op->name.len, op->name.s);
  else
    snprintf(buf, n, "the op");
  return buf;
}

void diff_witness(Checker *C, const char *sched) {
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
  uint32_t s = diff_site_of(&C->sites, buf, NULL);
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
 * tokens is what MLIR 22 emits for converted launches, and a synchronous one without
 * dependencies it leaves as it was. */
static bool unconverted(const Op *op) {
  if (op->name.len < 4 || memcmp(op->name.s, "gpu.", 4))
    return false;
  if (ir_str_eq(op->name, "gpu.module") || ir_str_eq(op->name, "gpu.binary") || in_gpu_module(op))
    return false;
  if (ir_str_eq(op->name, "gpu.launch_func")) {
    Attr *seg = ir_op_attr(op, "operandSegmentSizes");
    bool nodeps = seg && seg->kind == ATTR_DENSE_ARRAY && seg->u.darr.n == 13 && !seg->u.darr.ivals[0];
    bool stream = nodeps && seg->u.darr.ivals[12] && op->noperands &&
                  op->operands[op->noperands - 1]->type->kind == TY_LLVM_PTR;
    bool sync = nodeps && !seg->u.darr.ivals[12];
    return !(stream || sync) || op->nresults;
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
    s = diff_site_of(&C->sites, buf, NULL);
  }
  diff_report(C, DIAG_ERROR, s, "'%.*s' op was left unconverted by the lowering", (int)op->name.len,
              op->name.s);
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
  ir_ctx_allow_unregistered(C->hi.ctx, o->allow_unregistered);
  ir_ctx_allow_unregistered(C->lo.ctx, o->allow_unregistered);
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
  if (!diff_reference_errors(C, &h, "serial")) {
    /* a device run that could not start or ended early differs everywhere: say only why */
    if (!l.interp_errors && !l.launch_failed && diff_compare_values(C, &h, &l, "serial") && !C->witness)
      C->witness = xstrdup("serial");
    diff_lowered_violations(C, &h, &l, "serial");
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
    if (diff_reference_errors(&C, rh, sched)) {
      bad_reference = true;
    } else {
      if (diff_compare_values(&C, rh, rl, sched) && !C.witness)
        C.witness = xstrdup(sched);
      if (k == 0)
        diff_check_order(&C, &hs, &ls);
      diff_lowered_violations(&C, rh, rl, sched);
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
