/* parser.c - operations, regions, blocks and SSA names; the top level of a file.
 *
 *   file       ::= (alias-def | `{-#` ... `#-}` | operation)*
 *   operation  ::= (op-result (`,` op-result)* `=`)? (generic-op | custom-op) trailing-loc?
 *   op-result  ::= %name (`:` count)?
 *   generic-op ::= "name" `(` uses? `)` (`[` successors `]`)? (`<` dict `>`)? (`(` regions `)`)?
 *                  dict? `:` function-type
 *   custom-op  ::= bare-id ... (the op's own syntax, see custom.c)
 *   region     ::= `{` entry-block-ops? block* `}`
 *   block      ::= ^name (`(` %arg `:` type loc? (`,` ...)* `)`)? `:` operation*
 *
 * Names: values and blocks live in one chained hash table keyed by (name, frame). A frame is the
 * value namespace of an isolated-from-above region (func bodies, modules), or the block namespace
 * of one region. Definitions are pushed on a stack and popped when their region ends, so a value
 * defined in a region is invisible after it. A use before the definition creates a placeholder
 * Value; the definition takes over its uses. Placeholders still open when their isolated region
 * ends are undeclared names. */
#include "ir/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct SsaEntry {
  SsaEntry *next;
  const char *name;
  uint32_t len, frame, hash;
  bool is_block, forward;
  const char *pos;   /* first mention, for "undefined" errors */
  Value **vals;      /* defined: the values; forward: placeholders by result number */
  uint32_t count;
  Block *block;
};

/* ---- Token plumbing and errors -------------------------------------------------------------- */

void p_next(Parser *p) {
  p->prev_end = p->tok.text ? p->tok.text + p->tok.len : p->src;
  p->tok = lex_next(&p->lx);
  if (p->tok.kind == TOK_ERROR) {
    p_error(p, "%s", p->lx.err);
  }
}

IrCtx *p_ctx(Parser *p) { return p->ctx; }
Token *p_tok(Parser *p) { return &p->tok; }
bool p_failed(Parser *p) { return p->failed; }
bool p_is(Parser *p, TokKind k) { return p->tok.kind == k; }

bool p_is_kw(Parser *p, const char *kw) {
  size_t n = strlen(kw);
  return p->tok.kind == TOK_BARE && p->tok.len == n && memcmp(p->tok.text, kw, n) == 0;
}

bool p_opt(Parser *p, TokKind k) {
  if (p->tok.kind != k)
    return false;
  p_next(p);
  return true;
}

bool p_opt_kw(Parser *p, const char *kw) {
  if (!p_is_kw(p, kw))
    return false;
  p_next(p);
  return true;
}

bool p_expect(Parser *p, TokKind k, const char *what) {
  if (p->tok.kind == k) {
    p_next(p);
    return true;
  }
  return p_error(p, "expected %s", what);
}

bool p_kw(Parser *p, const char *kw) {
  if (p_opt_kw(p, kw))
    return true;
  return p_error(p, "expected '%s'", kw);
}

bool p_bare(Parser *p, Str *out) {
  if (p->tok.kind != TOK_BARE)
    return p_error(p, "expected identifier");
  *out = ir_intern(p->ctx, p->tok.text, p->tok.len);
  p_next(p);
  return true;
}

static Loc *loc_at(Parser *p, const char *pos) {
  /* line/column by scanning from a cached line start: positions mostly move forward */
  if (pos < p->line_start) {
    p->line_start = p->src;
    p->line_no = p->src_line;
  }
  const char *c = p->line_start;
  uint32_t line = p->line_no;
  const char *ls = c;
  for (; c < pos; c++) {
    if (*c == '\n') {
      line++;
      ls = c + 1;
    }
  }
  p->line_start = ls;
  p->line_no = line;
  uint32_t col = (uint32_t)(pos - ls) + 1;
  return ir_loc_file(p->ctx, p->file, line, ls == p->src ? col + p->src_col - 1 : col);
}

Loc *p_loc_here(Parser *p) { return loc_at(p, p->tok.text); }

void p_note_at(Parser *p, const char *pos, const char *msg) { ir_diag(p->ctx, DIAG_NOTE, loc_at(p, pos), "%s", msg); }

static bool verror(Parser *p, const char *pos, const char *fmt, va_list ap) {
  if (p->failed)
    return false; /* one error per op: what follows is usually a consequence */
  p->failed = true;
  p->nerrors_here++;
  p->err_pos = pos;
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  ir_diag(p->ctx, DIAG_ERROR, loc_at(p, pos), "%s", msg);
  return false;
}

/* Like mlir-opt, an "expected ..." error is placed at the end of the previous token when the
 * current token is at the end of the file or on a later line: that is where something is
 * missing. Other errors are about the current token and are placed on it. */
bool p_error(Parser *p, const char *fmt, ...) {
  const char *pos = p->tok.text;
  if (!strncmp(fmt, "expected", 8) && p->prev_end && p->prev_end <= pos &&
      (p->tok.kind == TOK_EOF || memchr(p->prev_end, '\n', (size_t)(pos - p->prev_end))))
    pos = p->prev_end;
  va_list ap;
  va_start(ap, fmt);
  verror(p, pos, fmt, ap);
  va_end(ap);
  return false;
}

bool p_nest_enter(Parser *p, const char *what) {
  if (p->nest >= P_MAX_NEST)
    return p_error(p, "%s nested too deeply", what);
  p->nest++;
  return true;
}

void p_nest_leave(Parser *p) { p->nest--; }

bool p_error_at(Parser *p, const char *pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror(p, pos, fmt, ap);
  va_end(ap);
  return false;
}

bool p_balanced(Parser *p, const char **start, uint32_t *len, const char *msg) {
  if (lex_balanced(&p->lx, start, len))
    return true;
  return p->lx.bad ? p_error_at(p, p->lx.bad, "%s", p->lx.err) : p_error(p, "%s", msg);
}

Str p_default_dialect(Parser *p) {
  Str none = {"", 0};
  return p->ndialect ? p->dialect_stack[p->ndialect - 1] : none;
}

/* ---- The name table ------------------------------------------------------------------------- */

static void table_grow(Parser *p) {
  uint32_t ncap = p->ssacap ? p->ssacap * 2 : 1024;
  SsaEntry **tab = calloc(ncap, sizeof *tab);
  if (!tab)
    abort();
  for (uint32_t i = 0; i < p->ssacap; i++) {
    for (SsaEntry *e = p->ssa[i], *n; e; e = n) {
      n = e->next;
      uint32_t j = e->hash & (ncap - 1);
      e->next = tab[j];
      tab[j] = e;
    }
  }
  free(p->ssa);
  p->ssa = tab;
  p->ssacap = ncap;
}

/* A name's hash: of what precedes its trailing digits, plus the number they spell. Programs
 * number their values (%0, %1, ... or %t0, %t1, ...) and use mostly recent ones, so the names
 * in use lie in neighbouring buckets, which stay in the cache however long the program is; a
 * hash of every byte would scatter them over the whole table. */
static uint32_t name_hash(const char *name, uint32_t len) {
  uint32_t d = len;
  while (d > 0 && len - d < 9 && name[d - 1] >= '0' && name[d - 1] <= '9')
    d--;
  uint32_t num = 0;
  for (uint32_t i = d; i < len; i++)
    num = num * 10 + (uint32_t)(name[i] - '0');
  return ir_hash_bytes(name, d) + num;
}

static SsaEntry *table_find(Parser *p, const char *name, uint32_t len, uint32_t frame, bool is_block,
                            uint32_t *hash_out) {
  uint32_t h = name_hash(name, len) ^ (frame * 0x9e3779b1u) ^ (is_block ? 0x5bd1e995u : 0);
  *hash_out = h;
  if (!p->ssacap)
    return NULL;
  for (SsaEntry *e = p->ssa[h & (p->ssacap - 1)]; e; e = e->next)
    if (e->hash == h && e->frame == frame && e->is_block == is_block && e->len == len &&
        memcmp(e->name, name, len) == 0)
      return e;
  return NULL;
}

static SsaEntry *table_add(Parser *p, const char *name, uint32_t len, uint32_t frame, bool is_block,
                           uint32_t hash) {
  if (p->nssa >= p->ssacap)
    table_grow(p);
  SsaEntry *e = calloc(1, sizeof *e);
  if (!e)
    abort();
  e->name = name;
  e->len = len;
  e->frame = frame;
  e->is_block = is_block;
  e->hash = hash;
  uint32_t j = hash & (p->ssacap - 1);
  e->next = p->ssa[j];
  p->ssa[j] = e;
  p->nssa++;
  return e;
}

static void table_remove(Parser *p, SsaEntry *e) {
  SsaEntry **pp = &p->ssa[e->hash & (p->ssacap - 1)];
  while (*pp != e)
    pp = &(*pp)->next;
  *pp = e->next;
  p->nssa--;
  free(e->vals);
  free(e);
}

static void stack_push(Parser *p, SsaEntry *e) {
  if (p->nstack == p->capstack) {
    p->capstack = p->capstack ? p->capstack * 2 : 256;
    SsaEntry **s = realloc(p->stack, p->capstack * sizeof *s);
    if (!s)
      abort();
    p->stack = s;
  }
  p->stack[p->nstack++] = e;
}

/* A placeholder stands for a value used before its definition. */
static Value *placeholder(Parser *p, Type *type) {
  Value *v = ir_alloc(p->ctx, sizeof *v);
  v->type = type;
  v->index = UINT32_MAX;
  return v;
}

/* mlir-opt's message for a use whose type disagrees with the definition or an earlier use */
static bool type_clash(Parser *p, const OperandRef *ref, Type *want, Type *have, const char *prior) {
  bool reported_before = p->failed;
  p_error_at(p, ref->pos, "use of value '%%%.*s' expects different type than prior uses: '%s' vs '%s'",
             (int)ref->len, ref->name, ir_type_str(p->ctx, want), ir_type_str(p->ctx, have));
  if (!reported_before && prior)
    ir_diag(p->ctx, DIAG_NOTE, loc_at(p, prior), "prior use here");
  return false;
}

bool p_resolve(Parser *p, const OperandRef *ref, Type *type, Value **out) {
  uint32_t h;
  SsaEntry *e = table_find(p, ref->name, ref->len, p->frame, false, &h);
  if (!e || e->forward) {
    /* A value of an enclosing scope: MLIR's parser takes it, and the verifier then reports the
     * use across an isolated-from-above op. */
    for (uint32_t f = p->frame < p->cap_frames ? p->frame_parent[p->frame] : 0; f;
         f = f < p->cap_frames ? p->frame_parent[f] : 0) {
      uint32_t h2;
      SsaEntry *outer = table_find(p, ref->name, ref->len, f, false, &h2);
      if (outer && !outer->forward && ref->number < outer->count) {
        *out = outer->vals[ref->number];
        return true;
      }
    }
  }
  if (e && !e->forward) {
    if (ref->number >= e->count)
      return p_error_at(p, ref->pos, "reference to invalid result number");
    Value *v = e->vals[ref->number];
    if (!v->type)
      v->type = type; /* a poison value from a failed op takes the type its first use wants */
    else if (type && v->type != type)
      return type_clash(p, ref, type, v->type, e->pos);
    *out = v;
    return true;
  }
  if (!e) {
    e = table_add(p, ref->name, ref->len, p->frame, false, h);
    e->forward = true;
    e->pos = ref->pos;
  }
  if (ref->number >= e->count) {
    Value **nv = realloc(e->vals, (ref->number + 1) * sizeof *nv);
    if (!nv)
      abort();
    memset(nv + e->count, 0, (ref->number + 1 - e->count) * sizeof *nv);
    e->vals = nv;
    e->count = ref->number + 1;
  }
  if (!e->vals[ref->number])
    e->vals[ref->number] = placeholder(p, type);
  else if (type && e->vals[ref->number]->type != type)
    return type_clash(p, ref, type, e->vals[ref->number]->type, e->pos);
  *out = e->vals[ref->number];
  return true;
}

static void replace_uses(Value *from, Value *to) {
  for (Use *u = from->uses, *n; u; u = n) {
    n = u->next;
    u->user->operands[u->index] = to;
    u->next = to->uses;
    to->uses = u;
  }
  from->uses = NULL;
}

/* Binds name to vals (the results of an op, or one block argument). */
static bool define_values(Parser *p, const char *name, uint32_t len, const char *pos, Value **vals,
                          uint32_t count, bool entry) {
  uint32_t h;
  SsaEntry *e = table_find(p, name, len, p->frame, false, &h), *seen = e && !e->forward ? e : NULL;
  /* nor may a value, a region's entry argument included, take a name an enclosing scope has
   * defined so far: mlir-opt's names of a function's body are those around it too (p_resolve) */
  for (uint32_t f = p->frame < p->cap_frames ? p->frame_parent[p->frame] : 0; !seen && f;
       f = f < p->cap_frames ? p->frame_parent[f] : 0) {
    uint32_t h2;
    SsaEntry *outer = table_find(p, name, len, f, false, &h2);
    seen = outer && !outer->forward ? outer : NULL;
  }
  if (seen) {
    e = seen;
    bool first = !p->failed;
    if (entry) /* a region's entry argument, in mlir-opt's words */
      p_error_at(p, pos, "region entry argument '%%%.*s' is already in use", (int)len, name);
    else
      p_error_at(p, pos, "redefinition of SSA value '%%%.*s'", (int)len, name);
    if (first)
      ir_diag(p->ctx, DIAG_NOTE, loc_at(p, e->pos), entry ? "previously referenced here" : "previously defined here");
    return false;
  }
  if (e) {
    for (uint32_t i = 0; i < e->count; i++) {
      Value *ph = e->vals[i];
      if (!ph)
        continue;
      if (i >= count)
        return p_error_at(p, e->pos, "operation result #%u used but only %u defined", i, count);
      if (ph->type && ph->type != vals[i]->type)
        return p_error_at(p, pos,
                          "definition of SSA value '%%%.*s#%u' has type different from prior uses",
                          (int)len, name, i);
      replace_uses(ph, vals[i]);
    }
    free(e->vals);
    e->forward = false;
  } else {
    e = table_add(p, name, len, p->frame, false, h);
  }
  e->vals = malloc(count * sizeof *e->vals + 1);
  if (!e->vals)
    abort();
  memcpy(e->vals, vals, count * sizeof *vals);
  e->count = count;
  e->pos = pos;
  stack_push(p, e);
  return true;
}

/* ---- Operands ------------------------------------------------------------------------------- */

bool p_opt_operand(Parser *p, OperandRef *out) {
  if (p->tok.kind != TOK_PERCENT)
    return false;
  return p_operand(p, out);
}

bool p_operand(Parser *p, OperandRef *out) {
  if (p->tok.kind != TOK_PERCENT)
    return p_error(p, "expected SSA operand");
  out->name = p->tok.text;
  out->len = p->tok.len;
  out->pos = p->tok.text - 1;
  out->number = 0;
  /* %name#N: the # is not lexed as part of the name */
  const char *c = p->lx.cur;
  if (*c == '#' && c[1] >= '0' && c[1] <= '9') {
    uint64_t n = 0;
    for (c++; *c >= '0' && *c <= '9'; c++)
      n = n * 10 + (uint64_t)(*c - '0');
    if (n > UINT32_MAX / 2)
      return p_error(p, "invalid result number");
    out->number = (uint32_t)n;
    p->lx.cur = c;
  }
  p_next(p);
  return !p->failed;
}

bool p_operand_list(Parser *p, OperandRef **out, uint32_t *n) {
  OperandRef small[16] = {{0}};
  OperandRef *refs = small;
  uint32_t cnt = 0, cap = 16;
  if (p->tok.kind == TOK_PERCENT) {
    do {
      if (cnt == cap) {
        OperandRef *nr = malloc(cap * 2 * sizeof *nr);
        if (!nr)
          abort();
        memcpy(nr, refs, cnt * sizeof *nr);
        if (refs != small)
          free(refs);
        refs = nr;
        cap *= 2;
      }
      if (!p_operand(p, &refs[cnt++])) {
        if (refs != small)
          free(refs);
        return false;
      }
    } while (p_opt(p, TOK_COMMA));
  }
  *out = ir_dup(p->ctx, refs, cnt * sizeof *refs);
  *n = cnt;
  if (refs != small)
    free(refs);
  return true;
}

/* Grows one of an OpState's arrays: its first storage is the OpState's own (arr##0, on the
 * stack while the op is parsed), later ones come from the arena; build_op copies what the op
 * keeps, so most ops leave nothing of their OpState behind. */
#define GROW(arr, n, cap)                                              \
  do {                                                                 \
    if ((n) == 0 && (cap) == 0) {                                      \
      (arr) = arr##0;                                                  \
      (cap) = sizeof arr##0 / sizeof *arr##0;                          \
    } else if ((n) == (cap)) {                                         \
      uint32_t nc_ = (cap) * 2;                                        \
      void *na_ = ir_alloc(p->ctx, nc_ * sizeof *(arr));               \
      if (n)                                                           \
        memcpy(na_, (arr), (n) * sizeof *(arr));                       \
      (arr) = na_;                                                     \
      (cap) = nc_;                                                     \
    }                                                                  \
  } while (0)

void st_add_operand(Parser *p, OpState *st, Value *v) {
  GROW(st->operands, st->noperands, st->capoperands);
  st->operands[st->noperands++] = v;
}

void st_add_result_type(Parser *p, OpState *st, Type *t) {
  GROW(st->result_types, st->nresults, st->capresults);
  st->result_types[st->nresults++] = t;
}

void st_add_prop(Parser *p, OpState *st, const char *name, Attr *value) {
  GROW(st->props, st->nprops, st->capprops);
  st->props[st->nprops++] = (NamedAttr){ir_intern_cstr(p->ctx, name), value};
}

void st_set_segments(Parser *p, OpState *st, const uint32_t *sizes, uint32_t n) {
  int64_t v[32];
  for (uint32_t i = 0; i < n && i < 32; i++)
    v[i] = sizes[i];
  st_add_prop(p, st, "operandSegmentSizes", ir_attr_dense_i32(p->ctx, v, n));
}

Region *st_add_region(Parser *p, OpState *st) {
  GROW(st->regions, st->nregions, st->capregions);
  Region *r = ir_alloc(p->ctx, sizeof *r);
  st->regions[st->nregions++] = r;
  return r;
}

bool p_resolve_onto(Parser *p, OpState *st, const OperandRef *refs, uint32_t n, Type **types,
                    uint32_t ntypes) {
  if (ntypes != n && !(ntypes == 1 && n > 0) && !(n == 0))
    return p_error_at(p, n ? refs[0].pos : p->tok.text, "%u operands present, but expected %u", n,
                      ntypes);
  for (uint32_t i = 0; i < n; i++) {
    Value *v;
    if (!p_resolve(p, &refs[i], types[ntypes == n ? i : 0], &v))
      return false;
    st_add_operand(p, st, v);
  }
  return true;
}

bool p_opt_attr_dict(Parser *p, OpState *st) {
  if (!p_is(p, TOK_LBRACE))
    return true;
  NamedAttr *e;
  uint32_t n;
  if (!p_attr_dict(p, &e, &n))
    return false;
  for (uint32_t i = 0; i < n; i++) {
    GROW(st->attrs, st->nattrs, st->capattrs);
    st->attrs[st->nattrs++] = e[i];
  }
  return true;
}

bool p_opt_attr_dict_with_keyword(Parser *p, OpState *st) {
  if (!p_opt_kw(p, "attributes"))
    return true;
  if (!p_is(p, TOK_LBRACE))
    return p_error(p, "expected '{'");
  return p_opt_attr_dict(p, st);
}

/* ---- Blocks and successors ------------------------------------------------------------------ */


static Block *block_ref(Parser *p, const char *name, uint32_t len, const char *pos, uint32_t frame) {
  uint32_t h;
  SsaEntry *e = table_find(p, name, len, frame, true, &h);
  if (!e) {
    e = table_add(p, name, len, frame, true, h);
    e->forward = true;
    e->pos = pos;
    e->block = ir_alloc(p->ctx, sizeof(Block));
    stack_push(p, e);
  }
  return e->block;
}

bool p_successor(Parser *p, Block **out) {
  if (p->tok.kind != TOK_CARET)
    return p_error(p, "expected block name");
  if (p->depth == 0)
    return p_error(p, "successor outside a region");
  *out = block_ref(p, p->tok.text, p->tok.len, p->tok.text - 1, p->marks[p->depth - 1].block_frame);
  p_next(p);
  return !p->failed;
}

bool p_successor_with_args(Parser *p, OpState *st, uint32_t *nargs) {
  Block *b;
  if (!p_successor(p, &b))
    return false;
  GROW(st->succs, st->nsuccs, st->capsuccs);
  st->succs[st->nsuccs++] = b;
  *nargs = 0;
  if (!p_opt(p, TOK_LPAREN))
    return true;
  OperandRef *refs;
  uint32_t n;
  if (!p_operand_list(p, &refs, &n))
    return false;
  Type **types = NULL;
  uint32_t nt = 0;
  if (!p_expect(p, TOK_COLON, "':'") || !p_type_list(p, &types, &nt) || !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  if (nt != n)
    return p_error(p, "expected %u types to match operand list", n);
  if (!p_resolve_onto(p, st, refs, n, types, nt))
    return false;
  *nargs = n;
  return true;
}

/* ---- Operations ----------------------------------------------------------------------------- */

static bool parse_op(Parser *p, Block *block);

/* The operand segments of the ops with operandSegmentSizes, as MLIR defines them. */
static const struct {
  const char *name;
  uint32_t n;
} op_segments[] = {
  {"async.execute", 2}, {"cf.cond_br", 3}, {"cf.switch", 3}, {"gpu.alloc", 3}, {"gpu.launch", 11},
  {"gpu.launch_func", 13}, {"llvm.call", 2},
  {"llvm.cond_br", 3}, {"llvm.switch", 3}, {"memref.alloc", 2}, {"memref.alloca", 2},
  {"memref.reinterpret_cast", 4}, {"memref.subview", 4}, {"scf.forall", 4}, {"scf.parallel", 4},
  {"vector.transfer_read", 4}, {"vector.transfer_write", 4},
};

/* The op's operand segments when it has operandSegmentSizes, else 0. */
static uint32_t op_segment_count(const OpInfo *info) {
  for (size_t k = 0; info && k < sizeof op_segments / sizeof *op_segments; k++)
    if (!strcmp(op_segments[k].name, info->name))
      return op_segments[k].n;
  return 0;
}

static Op *build_op(Parser *p, OpState *st) {
  IrCtx *ctx = p->ctx;
  Op *op = ir_alloc_op(ctx, st->nresults);
  op->info = st->info;
  op->name = st->name;
  op->src = st->src;
  op->loc = st->src;
  op->noperands = st->noperands;
  op->operands = ir_dup(ctx, st->operands, st->noperands * sizeof(Value *));
  op->operand_uses = ir_alloc(ctx, st->noperands * sizeof(Use));
  for (uint32_t i = 0; i < st->noperands; i++) {
    Use *u = &op->operand_uses[i];
    u->user = op;
    u->index = i;
    u->next = op->operands[i]->uses;
    op->operands[i]->uses = u;
  }
  op->nresults = st->nresults;
  for (uint32_t i = 0; i < st->nresults; i++) {
    op->results[i].type = st->result_types[i];
    op->results[i].def = op;
    op->results[i].index = i;
  }
  op->nsuccs = st->nsuccs;
  op->succs = ir_dup(ctx, st->succs, st->nsuccs * sizeof(Block *));
  op->nregions = st->nregions;
  op->regions = ir_alloc(ctx, st->nregions * sizeof(Region));
  for (uint32_t i = 0; i < st->nregions; i++) {
    op->regions[i] = *st->regions[i];
    op->regions[i].parent = op;
    for (Block *b = op->regions[i].first; b; b = b->next)
      b->parent = &op->regions[i];
  }
  /* inherent attributes written in the attribute dictionary belong to the properties */
  uint32_t na = 0;
  for (uint32_t i = 0; i < st->nattrs; i++) {
    NamedAttr a = st->attrs[i];
    /* MLIR drops an operandSegmentSizes of the wrong length found here: the op's segments stay
     * empty, which the verifier then compares with the operands */
    uint32_t nseg = op_segment_count(st->info);
    if (nseg && ir_str_eq(a.name, "operandSegmentSizes") && a.value->kind == ATTR_DENSE_ARRAY &&
        a.value->u.darr.n != nseg) {
      int64_t zero[16] = {0};
      a.value = ir_attr_dense_i32(ctx, zero, nseg);
    }
    if (!st->props_attr && ir_op_info_inherent(st->info, a.name)) {
      GROW(st->props, st->nprops, st->capprops);
      st->props[st->nprops++] = a;
    } else {
      st->attrs[na++] = a;
    }
  }
  /* `#arith.fastmath<none>`, `#arith.overflow<none>` and memref's `nontemporal = false` are
   * defaults: mlir-opt writes them in the generic form and leaves them out of the custom one;
   * keep neither, so both read the same */
  uint32_t np = 0;
  for (uint32_t i = 0; i < st->nprops; i++) {
    Attr *v = st->props[i].value;
    if (v->kind == ATTR_OPAQUE && (ir_str_eq(v->u.str, "#arith.fastmath<none>") ||
                                   ir_str_eq(v->u.str, "#arith.overflow<none>")))
      continue;
    if (v->kind == ATTR_BOOL && !v->u.b && ir_str_eq(st->props[i].name, "nontemporal") &&
        (ir_str_eq(st->name, "memref.load") || ir_str_eq(st->name, "memref.store")))
      continue;
    st->props[np++] = st->props[i];
  }
  st->nprops = np;
  if (st->props_attr)
    op->props = st->props_attr;
  else if (st->nprops)
    op->props = ir_attr_dict(ctx, st->props, st->nprops);
  if (na)
    op->attrs = ir_attr_dict(ctx, st->attrs, na);
  op->parent = NULL;
  return op;
}

static void block_append(Block *b, Op *op) {
  op->parent = b;
  op->prev = b->last;
  if (b->last)
    b->last->next = op;
  else
    b->first = op;
  b->last = op;
}

/* A generic op's operandSegmentSizes in its <{properties}> with as many entries as the op has
 * segments: MLIR reads properties into the op's own storage, and says so when they do not fit. */
static bool segments_fit(Parser *p, const OpState *st) {
  if (!st->props_dict || !st->info)
    return true;
  Attr *seg = NULL;
  for (uint32_t i = 0; i < st->props_dict->u.dict.n; i++)
    if (ir_str_eq(st->props_dict->u.dict.entries[i].name, "operandSegmentSizes"))
      seg = st->props_dict->u.dict.entries[i].value;
  if (!seg || seg->kind != ATTR_DENSE_ARRAY)
    return true;
  uint32_t n = op_segment_count(st->info);
  if (n && seg->u.darr.n != n)
    return p_error_at(p, st->at, "invalid properties %s for op %s: size mismatch in attribute conversion: %u vs %u",
                      ir_attr_str(p->ctx, st->props_dict), st->info->name, seg->u.darr.n, n);
  return true;
}

static bool parse_generic_body(Parser *p, OpState *st) {
  OperandRef *refs;
  uint32_t nrefs;
  if (!p_expect(p, TOK_LPAREN, "'(' to start operand list") || !p_operand_list(p, &refs, &nrefs) ||
      !p_expect(p, TOK_RPAREN, "')' to end operand list"))
    return false;
  if (p_opt(p, TOK_LSQUARE)) {
    do {
      Block *b;
      if (!p_successor(p, &b))
        return false;
      GROW(st->succs, st->nsuccs, st->capsuccs);
      st->succs[st->nsuccs++] = b;
    } while (p_opt(p, TOK_COMMA));
    if (!p_expect(p, TOK_RSQUARE, "']'"))
      return false;
  }
  if (p_is(p, TOK_LESS)) {
    p_next(p);
    Attr *a;
    if (!p_attr(p, NULL, &a) || !p_expect(p, TOK_GREATER, "'>' to close properties"))
      return false;
    if (a->kind == ATTR_DICT) {
      st->props_dict = a;
      for (uint32_t i = 0; i < a->u.dict.n; i++) {
        GROW(st->props, st->nprops, st->capprops);
        st->props[st->nprops++] = a->u.dict.entries[i];
      }
    } else {
      st->props_attr = a;
    }
  }
  if (p_is(p, TOK_LPAREN)) {
    p_next(p);
    bool iso = st->info && (st->info->flags & OPF_ISOLATED);
    do {
      Region *r = st_add_region(p, st);
      if (!p_region(p, r, NULL, 0, iso))
        return false;
    } while (p_opt(p, TOK_COMMA));
    if (!p_expect(p, TOK_RPAREN, "')' to end region list"))
      return false;
  }
  if (!p_opt_attr_dict(p, st))
    return false;
  if (!p_expect(p, TOK_COLON, "':' followed by operation type"))
    return false;
  const char *tpos = p->tok.text;
  Type *fn;
  if (!p_type(p, &fn))
    return false;
  if (fn->kind != TY_FUNC)
    return p_error_at(p, tpos, "expected function type");
  if (fn->u.fn.nin != nrefs)
    return p_error_at(p, tpos, "expected %u operand type%s but had %u", nrefs, nrefs == 1 ? "" : "s",
                      fn->u.fn.nin);
  for (uint32_t i = 0; i < fn->u.fn.nout; i++)
    st_add_result_type(p, st, fn->u.fn.out[i]);
  if (!p_resolve_onto(p, st, refs, nrefs, fn->u.fn.in, fn->u.fn.nin))
    return false;
  return segments_fit(p, st);
}

typedef struct ResultName {
  const char *name;
  uint32_t len, count;
  const char *pos;
} ResultName;

static bool parse_op_names(Parser *p, Block *block, ResultName *names, uint32_t *nnames_out);

/* The dialects mlir-opt 22 registers (`mlir-opt --show-dialects`): an op of one of them that the
 * front end does not know is "unknown", an op of any other dialect names a dialect that "is not
 * found", and the generic ops, types and attributes of any other are errors unless the context
 * allows unregistered dialects. */
static const char *const registered_dialects[] = {
  "acc", "affine", "amdgpu", "amx", "arith", "arm_neon", "arm_sme", "arm_sve", "async",
  "bufferization", "builtin", "cf", "complex", "dlti", "emitc", "func", "gpu", "index", "irdl",
  "linalg", "llvm", "math", "memref", "ml_program", "mpi", "nvgpu", "nvvm", "omp", "pdl",
  "pdl_interp", "ptr", "quant", "rocdl", "scf", "shape", "shard", "smt", "sparse_tensor", "spirv",
  "tensor", "test", "test_dyn", "test_irdl_to_cpp", "tosa", "transform", "ub", "vector", "wasmssa",
  "x86vector", "xegpu", "xevm", NULL};

bool p_dialect_registered(Str dialect) {
  for (int i = 0; registered_dialects[i]; i++)
    if (strlen(registered_dialects[i]) == dialect.len && !memcmp(registered_dialects[i], dialect.s, dialect.len))
      return true;
  return false;
}

bool p_unregistered(Parser *p, const char *pos, char sigil, Str text, const char *attr_type) {
  if (p->ctx->allow_unregistered)
    return true;
  /* mlir-opt names the thing as an opaque one: !"dialect"<"rest">, the rest as written */
  const char *dot = memchr(text.s, '.', text.len), *lt = memchr(text.s, '<', text.len);
  uint32_t dl = dot && (!lt || dot < lt) ? (uint32_t)(dot - text.s) : lt ? (uint32_t)(lt - text.s) : text.len;
  const char *rest = text.s + dl + (dl < text.len && text.s[dl] == '.');
  uint32_t rl = (uint32_t)(text.s + text.len - rest);
  if (dl < text.len && text.s[dl] == '<' && rl >= 2) { /* !foo<body>: the body, in quotes */
    rest++;
    rl -= 2;
  }
  static const char tail[] = "created with unregistered dialect. If this is intended, please call "
                             "allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect "
                             "with the MLIR opt tool used";
  if (sigil == '!')
    return p_error_at(p, pos, "`!\"%.*s\"<\"%.*s\">` type %s", (int)dl, text.s, (int)rl, rest, tail);
  return p_error_at(p, pos, "#\"%.*s\"<\"%.*s\"> : '%s' attribute %s", (int)dl, text.s, (int)rl, rest,
                    attr_type ? attr_type : "none", tail);
}

static bool unknown_op(Parser *p, Str name, const OpInfo *info) {
  if (info)
    return p_error(p, "custom assembly of '%s' is not supported yet; use the generic form", info->name);
  const char *dot = memchr(name.s, '.', name.len);
  if (dot) {
    if (!p_dialect_registered((Str){name.s, (uint32_t)(dot - name.s)}))
      return p_error(p, "Dialect `%.*s' not found for custom op '%.*s'", (int)(dot - name.s), name.s,
                     (int)name.len, name.s);
    return p_error(p, "custom op '%.*s' is unknown", (int)name.len, name.s);
  }
  if (!p->ndialect) /* the top level: builtin */
    return p_error(p, "custom op '%.*s' is unknown (tried 'builtin.%.*s' as well)", (int)name.len, name.s,
                   (int)name.len, name.s);
  Str d = p_default_dialect(p);
  if (!d.len) /* in a region of a custom op with no default dialect; mlir-opt's words */
    return p_error(p, "Dialect `' not found for custom op '%.*s'  (tried '.%.*s' as well)", (int)name.len, name.s,
                   (int)name.len, name.s);
  return p_error(p, "custom op '%.*s' is unknown (tried '%.*s.%.*s' as well)", (int)name.len, name.s,
                 (int)d.len, d.s, (int)name.len, name.s);
}

/* After a failed op, its result names stand for poison values (no type, accepted by any use),
 * so that its users do not report them again as undeclared. */
static bool parse_op(Parser *p, Block *block) {
  ResultName names[64];
  uint32_t nnames = 0;
  if (parse_op_names(p, block, names, &nnames))
    return true;
  bool failed = p->failed;
  p->failed = false;
  for (uint32_t i = 0; i < nnames; i++) {
    uint32_t h;
    SsaEntry *e = table_find(p, names[i].name, names[i].len, p->frame, false, &h);
    if (e && !e->forward)
      continue;
    Value **vals = malloc(names[i].count * sizeof *vals);
    if (!vals)
      abort();
    for (uint32_t k = 0; k < names[i].count; k++) {
      vals[k] = ir_alloc(p->ctx, sizeof(Value));
      vals[k]->index = k;
    }
    if (e) {
      for (uint32_t k = 0; k < e->count; k++)
        if (e->vals[k] && k < names[i].count)
          replace_uses(e->vals[k], vals[k]);
      free(e->vals);
      e->forward = false;
    } else {
      e = table_add(p, names[i].name, names[i].len, p->frame, false, h);
    }
    e->vals = vals;
    e->count = names[i].count;
    e->pos = names[i].pos;
    stack_push(p, e);
  }
  p->failed = failed;
  return false;
}

static bool parse_op_names(Parser *p, Block *block, ResultName *names, uint32_t *nnames_out) {
  uint32_t nnames = 0, nexpected = 0;
  const char *start = p->tok.text - (p->tok.kind == TOK_PERCENT);
  if (p->tok.kind == TOK_PERCENT) {
    do {
      if (p->tok.kind != TOK_PERCENT)
        return p_error(p, "expected valid ssa identifier");
      if (nnames == 64)
        return p_error(p, "too many result groups");
      ResultName *rn = &names[nnames++];
      *nnames_out = nnames;
      rn->name = p->tok.text;
      rn->len = p->tok.len;
      rn->pos = p->tok.text - 1;
      rn->count = 1;
      p_next(p);
      if (p->tok.kind == TOK_COLON) {
        p_next(p);
        int64_t c;
        if (p->tok.kind != TOK_INT || !p_int(p, &c) || c < 1 || c > (1 << 24))
          return p_error(p, "expected integer number of results");
        rn->count = (uint32_t)c;
      }
      nexpected += rn->count;
    } while (p_opt(p, TOK_COMMA));
    if (!p_expect(p, TOK_EQUAL, "'=' after SSA name"))
      return false;
  }
  OpState st = {0};
  st.at = p->tok.text;
  st.src = loc_at(p, st.at);
  st.num_results_expected = nexpected;
  bool pushed = false;
  if (p->tok.kind == TOK_STRING) {
    if (!p_string(p, &st.name))
      return false;
    const char *dot = memchr(st.name.s, '.', st.name.len);
    if (!p->ctx->allow_unregistered &&
        !p_dialect_registered((Str){st.name.s, dot ? (uint32_t)(dot - st.name.s) : st.name.len}))
      return p_error(p, "operation being parsed with an unregistered dialect. If this is intended, please use "
                        "-allow-unregistered-dialect with the MLIR tool used");
    st.info = ir_op_info(st.name); /* the generic form keeps the enclosing default dialect */
    if (!parse_generic_body(p, &st))
      goto fail;
  } else if (p->tok.kind == TOK_BARE) {
    Str name = ir_intern(p->ctx, p->tok.text, p->tok.len);
    const OpInfo *info = ir_op_info(name);
    if (!info && !memchr(name.s, '.', name.len)) { /* the default dialect's, as mlir-opt looks */
      Str d = p->ndialect ? p_default_dialect(p) : ir_intern_cstr(p->ctx, "builtin");
      char buf[256];
      int n = snprintf(buf, sizeof buf, "%.*s.%.*s", (int)d.len, d.s, (int)name.len, name.s);
      if (d.len && n < (int)sizeof buf)
        info = ir_op_info(ir_intern_cstr(p->ctx, buf));
    }
    if (!info && ir_str_eq(name, "func"))
      info = ir_op_info(ir_intern_cstr(p->ctx, "func.func")); /* the spelling before func.func */
    if (!info || !info->parse)
      return unknown_op(p, name, info);
    st.info = info;
    st.name = ir_intern_cstr(p->ctx, info->name);
    p_next(p);
    /* a custom form sets its regions' default dialect: its own, or none (builtin), as MLIR's
     * OpAsmOpInterface::getDefaultDialect does; so `call` is `func.call` in a func.func's body but
     * unknown inside an scf.for there */
    if (p->ndialect < 64) {
      p->dialect_stack[p->ndialect++] = ir_intern_cstr(p->ctx, info->dialect ? info->dialect : "");
      pushed = true;
    }
    if (!info->parse(p, &st))
      goto fail;
  } else {
    return p_error(p, "expected operation name in quotes");
  }
  if (pushed)
    p->ndialect--;
  pushed = false;
  if (p->failed)
    return false;
  if (nnames && !st.nresults)
    return p_error_at(p, start, "cannot name an operation with no results");
  if (nnames && st.nresults != nexpected)
    return p_error_at(p, start, "operation defines %u results but was provided %u to bind", st.nresults,
                      nexpected);
  Op *op = build_op(p, &st);
  if (p_is_kw(p, "loc")) {
    Loc *l;
    if (!p_loc(p, &l))
      return false;
    op->loc = l;
  }
  block_append(block, op);
  uint32_t r = 0;
  for (uint32_t i = 0; i < nnames; i++) {
    Value *vals[64];
    Value **vp = names[i].count <= 64 ? vals : malloc(names[i].count * sizeof *vp);
    if (!vp)
      abort();
    for (uint32_t k = 0; k < names[i].count; k++)
      vp[k] = &op->results[r + k];
    bool ok = define_values(p, names[i].name, names[i].len, names[i].pos, vp, names[i].count, false);
    if (vp != vals)
      free(vp);
    if (!ok)
      return false;
    r += names[i].count;
  }
  return true;
fail:
  if (pushed)
    p->ndialect--;
  return false;
}

/* ---- Regions -------------------------------------------------------------------------------- */

/* Gives block b its arguments and binds their names. */
static bool define_block_args(Parser *p, Block *b, const RegionArg *args, uint32_t n, bool entry) {
  b->args = ir_alloc(p->ctx, n * sizeof(Value) + 1);
  b->nargs = n;
  for (uint32_t i = 0; i < n; i++) {
    Value *v = &b->args[i];
    v->type = args[i].type;
    v->block = b;
    v->index = i;
    v->loc = args[i].loc;
    if (!v->loc && args[i].ref.name) /* MLIR: an argument without loc(...) is located at its name */
      v->loc = loc_at(p, args[i].ref.pos);
    if (args[i].ref.name && !define_values(p, args[i].ref.name, args[i].ref.len, args[i].ref.pos, &v, 1, entry))
      return false;
  }
  return true;
}

static bool parse_block_args(Parser *p, Block *b) {
  /* `(` %a `:` type loc? (`,` ...)* `)` */
  RegionArg *args;
  uint32_t n;
  return p_arg_list(p, &args, &n, NULL, NULL, false) && define_block_args(p, b, args, n, false);
}

static void region_append(Region *r, Block *b) {
  b->parent = r;
  if (r->last)
    r->last->next = b;
  else
    r->first = b;
  r->last = b;
}

static int by_pos(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  return (x > y) - (x < y);
}

/* Values used and never defined (in the current frame only, when in_frame): every one is an
 * error, in source order, as mlir-opt reports them. Returns false if there was one. */
static bool report_undeclared(Parser *p, bool in_frame) {
  size_t n = 0, cap = 0;
  const char **pos = NULL;
  for (uint32_t i = 0; i < p->ssacap; i++)
    for (SsaEntry *e = p->ssa[i]; e; e = e->next)
      if (!e->is_block && e->forward && (!in_frame || e->frame == p->frame)) {
        if (n == cap) {
          cap = cap ? cap * 2 : 8;
          pos = realloc(pos, cap * sizeof *pos);
          if (!pos)
            abort();
        }
        pos[n++] = e->pos;
      }
  if (n > 1)
    qsort(pos, n, sizeof *pos, by_pos);
  for (size_t i = 0; i < n; i++) {
    p->failed = false; /* each is an error of its own */
    p_error_at(p, pos[i], "use of undeclared SSA value name");
  }
  free(pos);
  return n == 0;
}

/* Parsing stops at the first error, as mlir-opt's parser does: what follows an error is most
 * often a consequence of it. (The one exception, as upstream: every value used and never
 * defined is reported, report_undeclared.) */
static bool parse_block_body(Parser *p, Block *b) {
  while (p->tok.kind != TOK_CARET && p->tok.kind != TOK_RBRACE) {
    if (!parse_op(p, b))
      return false;
  }
  return true;
}

bool p_region(Parser *p, Region *out, RegionArg *args, uint32_t nargs, bool isolated) {
  if (!p_expect(p, TOK_LBRACE, "'{' to begin a region"))
    return false;
  if (p->depth == 256)
    return p_error(p, "regions nested too deeply");
  RegionMark *m = &p->marks[p->depth++];
  m->stack_mark = p->nstack;
  m->block_frame = ++p->next_frame;
  m->saved_frame = p->frame;
  if (isolated) {
    uint32_t f = ++p->next_frame;
    if (f >= p->cap_frames) {
      uint32_t ncap = f * 2 + 16;
      uint32_t *np = realloc(p->frame_parent, ncap * sizeof *np);
      if (!np)
        abort();
      memset(np + p->cap_frames, 0, (ncap - p->cap_frames) * sizeof *np);
      p->frame_parent = np;
      p->cap_frames = ncap;
    }
    p->frame_parent[f] = p->frame;
    p->frame = f;
  }
  bool ok = true;
  if (args && nargs == 0 && p->tok.kind == TOK_CARET)
    args = NULL; /* no named arguments: the entry block may carry a label */
  if (args) {
    Block *entry = ir_alloc(p->ctx, sizeof *entry);
    ok = define_block_args(p, entry, args, nargs, true);
    region_append(out, entry);
    if (ok && p->tok.kind == TOK_CARET && p->tok.len && !p->failed) {
      /* MLIR: a region with named arguments has an unnamed entry block */
      if (nargs)
        ok = p_error(p, "invalid block name in region with named arguments");
    }
    if (ok && p->tok.kind != TOK_CARET)
      ok = parse_block_body(p, entry);
  } else if (p->tok.kind != TOK_CARET && p->tok.kind != TOK_RBRACE) {
    Block *entry = ir_alloc(p->ctx, sizeof *entry);
    region_append(out, entry);
    ok = parse_block_body(p, entry);
  }
  while (ok && p->tok.kind == TOK_CARET) {
    const char *pos = p->tok.text - 1;
    uint32_t h;
    SsaEntry *e = table_find(p, p->tok.text, p->tok.len, m->block_frame, true, &h);
    if (e && !e->forward) {
      ok = p_error_at(p, pos, "redefinition of block '^%.*s'", (int)p->tok.len, p->tok.text);
      break;
    }
    Block *b = block_ref(p, p->tok.text, p->tok.len, pos, m->block_frame);
    e = table_find(p, p->tok.text, p->tok.len, m->block_frame, true, &h);
    e->forward = false;
    p_next(p);
    if (p->tok.kind == TOK_LPAREN && !parse_block_args(p, b)) {
      ok = false;
      break;
    }
    if (!p_expect(p, TOK_COLON, "':' after block name")) {
      ok = false;
      break;
    }
    region_append(out, b);
    ok = parse_block_body(p, b);
  }
  if (ok)
    ok = p_expect(p, TOK_RBRACE, "'}' to end region");
  /* undefined blocks, then (for isolated regions) undefined values */
  for (uint32_t k = m->stack_mark; ok && k < p->nstack; k++) {
    SsaEntry *e = p->stack[k];
    if (e->is_block && e->forward && e->frame == m->block_frame)
      ok = p_error_at(p, e->pos, "reference to an undefined block");
  }
  if (ok && isolated)
    ok = report_undeclared(p, true);
  while (p->nstack > m->stack_mark)
    table_remove(p, p->stack[--p->nstack]);
  p->frame = m->saved_frame;
  p->depth--;
  return ok;
}

/* MLIR's ensureTerminator: gives an empty region one block and appends an operand-free `name`
 * op to a last block that does not end in a terminator (ops the table does not know count as
 * non-terminators). */
void p_ensure_terminator(Parser *p, Region *r, const char *name, Loc *loc) {
  if (!r->first)
    region_append(r, ir_alloc(p->ctx, sizeof(Block)));
  Block *b = r->last;
  if (b->last && b->last->info && (b->last->info->flags & OPF_TERMINATOR))
    return;
  OpState st = {0};
  st.name = ir_intern_cstr(p->ctx, name);
  st.info = ir_op_info(st.name);
  st.src = loc;
  block_append(b, build_op(p, &st));
}

Op *p_append_op(Parser *p, Block *b, const char *name, Loc *loc, Value *const *operands,
                uint32_t n) {
  OpState st = {0};
  st.name = ir_intern_cstr(p->ctx, name);
  st.info = ir_op_info(st.name);
  st.src = loc;
  st.operands = (Value **)operands;
  st.noperands = n;
  Op *op = build_op(p, &st);
  block_append(b, op);
  return op;
}

bool p_arg_list(Parser *p, RegionArg **args, uint32_t *n, NamedAttr ***arg_attrs, bool *vararg,
                bool allow_nameless) {
  if (!p_expect(p, TOK_LPAREN, "'('"))
    return false;
  RegionArg small[16];
  RegionArg *a = small;
  NamedAttr *attr_small[16];
  NamedAttr **attrs = attr_small;
  uint32_t cnt = 0, cap = 16, nattr_lists = 0;
  bool ok = true, any_attrs = false;
  (void)nattr_lists;
  if (vararg)
    *vararg = false;
  if (!p_opt(p, TOK_RPAREN)) {
    do {
      if (vararg && p_opt(p, TOK_ELLIPSIS)) {
        *vararg = true;
        break;
      }
      if (cnt == cap) {
        RegionArg *na = malloc(cap * 2 * sizeof *na);
        NamedAttr **nat = malloc(cap * 2 * sizeof *nat);
        if (!na || !nat)
          abort();
        memcpy(na, a, cnt * sizeof *na);
        memcpy(nat, attrs, cnt * sizeof *nat);
        if (a != small) {
          free(a);
          free(attrs);
        }
        a = na;
        attrs = nat;
        cap *= 2;
      }
      RegionArg *ra = &a[cnt];
      memset(ra, 0, sizeof *ra);
      attrs[cnt] = NULL;
      if (p->tok.kind == TOK_PERCENT) {
        if (!p_operand(p, &ra->ref) || !p_expect(p, TOK_COLON, "':'")) {
          ok = false;
          break;
        }
      } else if (!allow_nameless) {
        ok = p_error(p, "expected SSA identifier");
        break;
      }
      if (!p_type(p, &ra->type)) {
        ok = false;
        break;
      }
      if (p->tok.kind == TOK_LBRACE) {
        NamedAttr *e;
        uint32_t ne;
        if (!p_attr_dict(p, &e, &ne)) {
          ok = false;
          break;
        }
        /* stash the dictionary: a NamedAttr whose value is the dict attr */
        NamedAttr *holder = ir_alloc(p->ctx, sizeof *holder);
        holder->value = ir_attr_dict(p->ctx, e, ne);
        attrs[cnt] = holder;
        any_attrs = true;
      }
      if (p_is_kw(p, "loc") && !p_loc(p, &ra->loc)) {
        ok = false;
        break;
      }
      cnt++;
    } while (p_opt(p, TOK_COMMA));
    if (ok)
      ok = p_expect(p, TOK_RPAREN, "')'");
  }
  if (ok) {
    *args = ir_dup(p->ctx, a, cnt * sizeof *a);
    *n = cnt;
    if (arg_attrs)
      *arg_attrs = any_attrs ? ir_dup(p->ctx, attrs, cnt * sizeof *attrs) : NULL;
  }
  if (a != small) {
    free(a);
    free(attrs);
  }
  return ok;
}

/* ---- Top level ------------------------------------------------------------------------------ */

static bool skip_file_metadata(Parser *p) {
  /* {-# dialect_resources: {...} #-} : skipped whole; resources are not used */
  const char *c = p->lx.cur;
  const char *e = strstr(c, "#-}");
  if (!e)
    return p_error(p, "expected '#-}' to end file metadata");
  p->lx.cur = e + 3;
  p_next(p);
  return true;
}

static Op *parse_buffer(IrCtx *ctx, const char *filename, const char *buf, size_t len, uint32_t line,
                        uint32_t col);

Op *ir_parse(IrCtx *ctx, const char *filename, const char *text, size_t len) {
  return parse_buffer(ctx, filename, ir_ctx_add_source(ctx, filename, text, len, 1, 1, true), len, 1, 1);
}

Op *ir_parse_part(IrCtx *ctx, const char *filename, const char *text, size_t len, uint32_t line, uint32_t col) {
  return parse_buffer(ctx, filename, ir_ctx_add_source(ctx, filename, text, len, line, col, false), len, line,
                      col);
}

static Op *parse_buffer(IrCtx *ctx, const char *filename, const char *buf, size_t len, uint32_t line,
                        uint32_t col) {
  Parser p = {0};
  p.ctx = ctx;
  p.file = ir_intern_cstr(ctx, filename);
  p.src = buf;
  p.src_line = line;
  p.src_col = col;
  p.line_start = buf;
  p.line_no = line;
  lex_init(&p.lx, buf, len);
  p_next(&p);
  Op *top = NULL;
  /* the file's ops go into a block of a synthetic region, then into a module if needed */
  Block file_block = {0};
  RegionMark *m = &p.marks[p.depth++];
  m->stack_mark = 0;
  m->block_frame = ++p.next_frame;
  m->saved_frame = 0;
  p.frame = ++p.next_frame;
  bool ok = !p.failed;
  while (ok && p.tok.kind != TOK_EOF) {
    if (p.tok.kind == TOK_HASH || p.tok.kind == TOK_BANG)
      ok = p_alias_def(&p);
    else if (p.tok.kind == TOK_FILE_META_BEGIN)
      ok = skip_file_metadata(&p);
    else
      ok = parse_op(&p, &file_block);
  }
  ok = ok && !p.nerrors_here;
  if (ok)
    ok = report_undeclared(&p, false);
  if (ok)
    ok = p_resolve_loc_aliases(&p);
  if (ok) {
    Op *first = file_block.first;
    if (first && first == file_block.last && ir_str_eq(first->name, "builtin.module")) {
      top = first;
      top->parent = NULL;
      top->prev = top->next = NULL;
    } else {
      /* an implicit module around the file's ops */
      OpState st = {0};
      st.name = ir_intern_cstr(ctx, "builtin.module");
      st.info = ir_op_info(st.name);
      st.src = ir_loc_file(ctx, p.file, 1, 1);
      Region *r = st_add_region(&p, &st);
      Block *b = ir_alloc(ctx, sizeof *b);
      *b = file_block;
      for (Op *o = b->first; o; o = o->next)
        o->parent = b;
      region_append(r, b);
      top = build_op(&p, &st);
      top->loc = ir_loc_file(ctx, p.file, 0, 0); /* what MLIR gives the module it adds */
    }
  }
  for (uint32_t i = 0; i < p.ssacap; i++)
    for (SsaEntry *e = p.ssa[i], *n; e; e = n) {
      n = e->next;
      free(e->vals);
      free(e);
    }
  free(p.ssa);
  free(p.stack);
  free(p.frame_parent);
  p_free_aliases(&p);
  return top;
}

/* Reads path (`-`: standard input) whole. A file that cannot be opened or read (a directory, a
 * closed standard input) is an error, not an empty program. */
Op *ir_parse_file(IrCtx *ctx, const char *path) {
  bool is_stdin = strcmp(path, "-") == 0;
  const char *name = is_stdin ? "<stdin>" : path;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    ir_diag(ctx, DIAG_ERROR, NULL, "cannot read '%s': %s", name, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  if (!buf)
    abort();
  int err = 0;
  for (;;) {
    errno = 0;
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (n == 0) {
      if (ferror(f))
        err = errno ? errno : EIO;
      break;
    }
    if (len == cap) {
      cap *= 2;
      char *nb = realloc(buf, cap);
      if (!nb)
        abort();
      buf = nb;
    }
  }
  if (f != stdin)
    fclose(f);
  if (err) {
    ir_diag(ctx, DIAG_ERROR, NULL, "cannot read '%s': %s", name, strerror(err));
    free(buf);
    return NULL;
  }
  Op *top = ir_parse(ctx, name, buf, len);
  free(buf);
  return top;
}

/* ---- Queries -------------------------------------------------------------------------------- */

Attr *ir_op_attr(const Op *op, const char *name) {
  Attr *a = ir_dict_get(op->props, name);
  return a ? a : ir_dict_get(op->attrs, name);
}

Op *ir_op_parent_op(const Op *op) {
  return op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
}

Op *ir_symbol_lookup(const Op *table, Str name) {
  if (!table || !table->nregions || !table->regions[0].first)
    return NULL;
  for (Op *o = table->regions[0].first->first; o; o = o->next) {
    Attr *s = ir_op_attr(o, "sym_name");
    if (s && s->kind == ATTR_STRING && s->u.str.s == name.s)
      return o;
  }
  return NULL;
}
