/* sites.c - the runtime's diagnostics in the front end's shape, ops named by what they are.
 *
 * The interpreter gives the device each op's site as a string, "file:line:col" (interp_loc), and
 * for a lowered program's runtime call "file:line:col mgpuStreamWaitEvent" (the same location is
 * shared by every call one high-level op was lowered to, so the callee tells them apart). The
 * device's diagnostics carry those strings: where the diagnostic is, the other party (the other
 * op of a race, where a handle was made) and where the memory was allocated, and its messages
 * quote sites as 'file:line:col'.
 *
 * Here each diagnostic of the device becomes ir_diag calls, so that it is printed by the one
 * printer (ir/diag.c) with its source line and caret, counted in the closing summary and matched
 * by --verify-diagnostics like any other: an error or warning at its site, then a note at the
 * other party and one at the allocation. A site the device could not tie to an op (what is found
 * at exit: leaks, work still pending) is put at the entry function's return op.
 *
 * Every message written for this program, the device's and the interpreter's own, goes through
 * sites_rewrite (an ir_diag_set_rewrite hook): each quoted site that is an op of the program is
 * replaced by the op's name, and its symbol where it has one, with its position in parentheses:
 *   'gpu.launch_func' @kernels::@vadd (27:10), 'gpu.memcpy' (29:10),
 *   'llvm.call' @mgpuStreamCreate (37:11)
 * The file is left out when it is the diagnostic's own; "allocated at" such a site becomes
 * "allocated by" (created, freed, released, destroyed, made, registered, launched likewise). The index from site to op is built once
 * before the run and only read afterwards; the device calls the sink from its worker threads,
 * and ir/diag.c serializes the writing. */
#include "tools/sites.h"

#include <stdlib.h>
#include <string.h>

typedef struct Entry {
  char *key; /* "file:line:col" */
  const Op *op;
  size_t seq; /* walk order: among ops at one location, the outermost comes first */
} Entry;

struct Sites {
  IrCtx *ctx;
  Entry *v;
  size_t n, cap;
  const Op *exit_op; /* the entry function's return, for diagnostics no op caused */
};

static int by_key(const void *a, const void *b) {
  const Entry *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static void add(Sites *s, const Op *op) {
  const Loc *f = ir_loc_file_of(op->loc);
  if (!f)
    f = ir_loc_file_of(op->src);
  if (!f || !f->line)
    return;
  char buf[1200];
  snprintf(buf, sizeof buf, "%.*s:%u:%u", (int)f->file.len, f->file.s, f->line, f->col);
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 256;
    Entry *v = realloc(s->v, cap * sizeof *v);
    if (!v)
      return;
    s->v = v;
    s->cap = cap;
  }
  char *key = strdup(buf);
  if (key)
    s->v[s->n] = (Entry){key, op, s->n}, s->n++;
}

static void walk(Sites *s, const Op *op) {
  add(s, op);
  for (uint32_t r = 0; r < op->nregions; r++)
    for (Block *b = op->regions[r].first; b; b = b->next)
      for (Op *o = b->first; o; o = o->next)
        walk(s, o);
}

static const Op *find(const Sites *s, const char *key, size_t len) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strncmp(s->v[mid].key, key, len);
    if (c == 0 && s->v[mid].key[len])
      c = 1;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < s->n && !strncmp(s->v[lo].key, key, len) && !s->v[lo].key[len])
    return s->v[lo].op;
  return NULL;
}

/* The return op that ends the entry function's body, or NULL. */
static const Op *exit_op_of(const Op *top, const char *entry) {
  Str name = {entry, strlen(entry)};
  const Op *fn = ir_symbol_lookup(top, name);
  if (!fn || !fn->nregions)
    return NULL;
  const Op *ret = NULL;
  for (Block *b = fn->regions[0].first; b; b = b->next)
    if (b->last && b->last->name.len >= 6 && !memcmp(b->last->name.s + b->last->name.len - 6, "return", 6))
      ret = b->last;
  return ret;
}

Sites *sites_create(IrCtx *ctx, const Op *top, const char *entry) {
  Sites *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->ctx = ctx;
  walk(s, top);
  qsort(s->v, s->n, sizeof *s->v, by_key);
  s->exit_op = entry ? exit_op_of(top, entry) : NULL;
  return s;
}

void sites_destroy(Sites *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->n; i++)
    free(s->v[i].key);
  free(s->v);
  free(s);
}

/* ---- a site string ---- */

typedef struct Site {
  const char *file;
  size_t file_len, key_len; /* key: "file:line:col" */
  unsigned line, col;
  const char *callee; /* the runtime function of a lowered call, or NULL */
  size_t callee_len;
} Site;

/* Parses "file:line:col" or "file:line:col name" (len bytes of s). */
static bool parse_site(const char *s, size_t len, Site *out) {
  const char *end = s + len, *sp = memchr(s, ' ', len);
  const char *key_end = sp ? sp : end;
  const char *c2 = key_end;
  while (c2 > s && c2[-1] >= '0' && c2[-1] <= '9')
    c2--;
  if (c2 == key_end || c2 == s || c2[-1] != ':')
    return false;
  const char *c1 = c2 - 1;
  while (c1 > s && c1[-1] >= '0' && c1[-1] <= '9')
    c1--;
  if (c1 == c2 - 1 || c1 <= s + 1 || c1[-1] != ':')
    return false;
  *out = (Site){.file = s, .file_len = (size_t)(c1 - 1 - s), .key_len = (size_t)(key_end - s),
                .line = (unsigned)strtoul(c1, NULL, 10), .col = (unsigned)strtoul(c2, NULL, 10)};
  if (sp) {
    const char *n = sp + 1;
    size_t nl = (size_t)(end - n);
    if (!nl || memchr(n, ' ', nl) || memchr(n, '\'', nl))
      return false;
    out->callee = n;
    out->callee_len = nl;
  }
  return out->line != 0;
}

/* Whether ops of different names share op's location: a program lowered with
 * -mlir-print-debuginfo, where every op made from one op carries its location. */
static bool ambiguous(const Sites *s, const Op *op, const Site *st) {
  size_t i = 0;
  while (i < s->n && s->v[i].op != op)
    i++;
  for (size_t j = i + 1; j < s->n && !strncmp(s->v[j].key, st->file, st->key_len) && !s->v[j].key[st->key_len]; j++)
    if (s->v[j].op->name.len != op->name.len || memcmp(s->v[j].op->name.s, op->name.s, op->name.len))
      return true;
  return false;
}

/* The op the source shows at the site: "%a, %b = gpu.launch_func async ... @k::@fill" gives
 * "'gpu.launch_func' @k::@fill". */
static bool from_source(const Sites *s, const Site *st, char *buf, size_t n) {
  size_t len;
  const char *l = ir_diag_source_line(s->ctx, (Str){st->file, st->file_len}, st->line, &len);
  if (!l || st->col < 1 || st->col > len)
    return false;
  const char *c = l + st->col - 1, *end = l + len;
  const char *eq = memchr(c, '=', (size_t)(end - c));
  if (*c == '%' && eq)
    for (c = eq + 1; c < end && *c == ' ';)
      c++;
  if (c < end && *c == '"')
    c++;
  const char *w = c;
  while (c < end && (*c == '.' || *c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
    c++;
  if (c == w || !memchr(w, '.', (size_t)(c - w)))
    return false;
  int k = snprintf(buf, n, "'%.*s'", (int)(c - w), w);
  bool sym = (c - w == 15 && !memcmp(w, "gpu.launch_func", 15)) || (c - w == 9 && !memcmp(w + 4, ".call", 5));
  const char *at = sym ? memchr(c, '@', (size_t)(end - c)) : NULL;
  if (at && k > 0 && (size_t)k < n) {
    const char *e = at;
    while (e < end && (*e == '@' || *e == ':' || *e == '_' || *e == '.' || *e == '$' || (*e >= 'a' && *e <= 'z') ||
                       (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9')))
      e++;
    snprintf(buf + k, n - (size_t)k, " %.*s", (int)(e - at), at);
  }
  return true;
}

/* A PTX instruction at the site, as its op is named: "'ld.shared.u32'". A PTX kernel's ops are made
 * when it is compiled, during the run, after the index was built; its text is a source buffer
 * named "@BINARY.ptx" (kernel_ptx.c), and the instruction is written there, after any guard. */
static bool from_ptx(const Sites *s, const Site *st, char *buf, size_t n) {
  if (st->file_len < 5 || st->file[0] != '@' || memcmp(st->file + st->file_len - 4, ".ptx", 4))
    return false;
  size_t len;
  const char *l = ir_diag_source_line(s->ctx, (Str){st->file, st->file_len}, st->line, &len);
  if (!l || st->col < 1 || st->col > len)
    return false;
  const char *c = l + st->col - 1, *end = l + len;
  if (*c == '@') { /* the guard: @p or @!p */
    while (c < end && *c != ' ' && *c != '\t')
      c++;
    while (c < end && (*c == ' ' || *c == '\t'))
      c++;
  }
  const char *w = c;
  while (c < end && (*c == '.' || *c == '_' || *c == ':' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                     (*c >= '0' && *c <= '9')))
    c++;
  if (c == w || *w < 'a' || *w > 'z')
    return false;
  snprintf(buf, n, "'%.*s'", (int)(c - w), w);
  return true;
}

/* What the op at a site is: "'gpu.launch_func' @k::@fill", "'llvm.call' @mgpuMemcpy",
 * "'gpu.memcpy'"; false when no op of the program is there. */
static bool describe(const Sites *s, const Site *st, char *buf, size_t n) {
  if (st->callee) {
    snprintf(buf, n, "'llvm.call' @%.*s", (int)st->callee_len, st->callee);
    return true;
  }
  const Op *op = find(s, st->file, st->key_len);
  if (!op)
    return from_ptx(s, st, buf, n);
  if (ambiguous(s, op, st))
    return from_source(s, st, buf, n);
  int k = snprintf(buf, n, "'%.*s'", (int)op->name.len, op->name.s);
  Attr *sym = ir_op_attr(op, "kernel");
  if (!sym || sym->kind != ATTR_SYMREF)
    sym = ir_op_attr(op, "callee");
  if (sym && sym->kind == ATTR_SYMREF)
    for (uint32_t i = 0; i < sym->u.sym.n && k > 0 && (size_t)k < n; i++)
      k += snprintf(buf + k, n - (size_t)k, "%s@%.*s", i ? "::" : " ", (int)sym->u.sym.path[i].len,
                    sym->u.sym.path[i].s);
  return true;
}

typedef struct Buf {
  char *s;
  size_t n, cap;
} Buf;

static void put(Buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = (b->n + n + 1) * 2;
    char *t = realloc(b->s, cap);
    if (!t)
      return;
    b->s = t;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

char *sites_rewrite(void *user, const Loc *loc, const char *msg) {
  const Sites *s = user;
  const Loc *here = ir_loc_file_of(loc);
  Buf b = {0};
  const char *done = msg;
  for (const char *q = strchr(msg, '\''); q; q = strchr(q + 1, '\'')) {
    const char *e = strchr(q + 1, '\'');
    if (!e)
      break;
    Site st;
    char what[600];
    if (!parse_site(q + 1, (size_t)(e - q - 1), &st) || !describe(s, &st, what, sizeof what))
      continue;
    /* "allocated at 'gpu.alloc' (24:10)" reads better as "allocated by ..." */
    static const char *const verbs[] = {"allocated at ", "created at ", "freed at ", "released at ",
                                        "destroyed at ", "made at ", "registered at ", "launched at "};
    size_t keep = (size_t)(q - done);
    const char *by = "";
    for (size_t v = 0; v < sizeof verbs / sizeof *verbs; v++) {
      size_t vl = strlen(verbs[v]);
      if (keep >= vl && !memcmp(q - vl, verbs[v], vl)) {
        keep -= 3;
        by = "by ";
        break;
      }
    }
    put(&b, done, keep);
    put(&b, by, strlen(by));
    put(&b, what, strlen(what));
    /* "'x.mlir:71:12' (host) reads" (the simulator's words for the host's access) */
    bool host = !strncmp(e + 1, " (host)", 7);
    char pos[700];
    bool same = here && here->file.len == st.file_len && !memcmp(here->file.s, st.file, st.file_len);
    if (same)
      snprintf(pos, sizeof pos, " (%u:%u%s)", st.line, st.col, host ? ", host" : "");
    else
      snprintf(pos, sizeof pos, " (%.*s:%u:%u%s)", (int)st.file_len, st.file, st.line, st.col, host ? ", host" : "");
    put(&b, pos, strlen(pos));
    done = e + 1 + (host ? 7 : 0);
    q = e;
  }
  if (!b.s)
    return NULL;
  put(&b, done, strlen(done));
  return b.s;
}

/* ---- the device's diagnostics ---- */

/* Where a device diagnostic is: its site as a file location (on the stack, in *l), or the entry
 * function's return when it has none. */
static const Loc *where(const Sites *s, const char *site, Loc *l, Site *st) {
  *st = (Site){0};
  if (site && parse_site(site, strlen(site), st)) {
    *l = (Loc){.kind = LOC_FILE, .file = {st->file, st->file_len}, .line = st->line, .col = st->col};
    return l;
  }
  return s->exit_op ? ir_op_loc(s->exit_op) : NULL;
}

void sites_sink(const BeDiag *d, void *user) {
  Sites *s = user;
  const char *kind = d->kind ? d->kind : "error";
  bool labelled = strcmp(kind, "error") != 0;
  Loc l;
  Site st;
  const Loc *at = where(s, d->loc, &l, &st);
  char who[600] = "";
  char quoted[1200];
  snprintf(quoted, sizeof quoted, "'%s'", d->loc ? d->loc : "");
  if (st.callee && !(d->message && strstr(d->message, quoted)))
    snprintf(who, sizeof who, "'llvm.call' @%.*s: ", (int)st.callee_len, st.callee);
  ir_diag(s->ctx, d->error ? DIAG_ERROR : DIAG_WARNING, at, "%s%s%s%s%s", who, d->message ? d->message : "",
          labelled ? " [" : "", labelled ? kind : "", labelled ? "]" : "");
  if (d->loc2) {
    const char *what = be_diag_other_note(kind);
    Loc l2;
    Site st2;
    const Loc *at2 = where(s, d->loc2, &l2, &st2);
    ir_diag(s->ctx, DIAG_NOTE, at2, "%s", what);
  }
  if (d->alloc_loc && !(d->loc && strcmp(d->alloc_loc, d->loc) == 0)) {
    Loc l3;
    Site st3;
    ir_diag(s->ctx, DIAG_NOTE, where(s, d->alloc_loc, &l3, &st3), "the memory was allocated here");
  }
}
