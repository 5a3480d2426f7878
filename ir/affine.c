/* affine.c - affine maps and integer sets in the one spelling mlir-opt prints for them.
 *
 * MLIR never keeps an affine expression as it was written: every `+`, `*`, `floordiv`, `ceildiv`
 * and `mod` goes through a constructor that simplifies as it builds (AffineExpr.cpp's
 * simplifyAdd and friends), and the printer then has its own pretty forms (`- 1` for `+ -1`,
 * `-d0` for `d0 * -1`, parentheses only where precedence needs them). So `(s0 - d0, 4 * (d0 + d1))`
 * reads back as `(-d0 + s0, (d0 + d1) * 4)`. The front end keeps affine attributes as text, and
 * text compares equal only when it is spelled the same, so this file does what mlir-opt does:
 * it parses the text the way MLIR's AffineParser does (same precedence, same left-to-right
 * building order, which matters because the simplifications are not associative), builds every
 * node through the same simplifying constructors, and prints the result the way AsmPrinter does.
 *
 * Nodes are hash-consed, so two expressions are equal exactly when their pointers are, as in
 * MLIR's uniquer; the rules compare subexpressions that way. Each node caches whether it is free
 * of dimensions and its largest known divisor, which the rules ask for often.
 *
 * Constant arithmetic follows mlir-opt 22 as observed: folding two constants is skipped when it
 * would overflow (`9223372036854775807 + 1` stays as written), while the rules that merge a
 * constant into an existing one wrap, as the C++ does on two's-complement machines.
 *
 * The text is printed and read again until it no longer changes (see ir_affine_canonicalize).
 *
 * Anything that does not parse (a non-affine product, an unknown name, input too large or too
 * deep) makes ir_affine_canonicalize return its input unchanged: the attribute keeps its text. */
#include "ir/internal.h"

#include <stdlib.h>
#include <string.h>

typedef enum AxKind { AX_CONST, AX_DIM, AX_SYM, AX_ADD, AX_MUL, AX_FLOORDIV, AX_CEILDIV, AX_MOD } AxKind;

typedef struct Ax Ax;
struct Ax {
  AxKind kind;
  int64_t v;        /* the constant, or the dimension's or symbol's position */
  const Ax *l, *r;  /* operands of a binary node */
  bool symbolic;    /* no dimension inside (MLIR's isSymbolicOrConstant) */
  int64_t divisor;  /* MLIR's getLargestKnownDivisor */
  Ax *next;         /* hash chain */
};

enum { MAX_NODES = 1 << 18, MAX_DEPTH = 400, NBUCKETS = 4096 };

typedef struct AxPool {
  Ax *buckets[NBUCKETS];
  Ax **blocks;      /* node storage, freed together */
  uint32_t nblocks, capblocks, used_in_block;
  uint32_t nodes;
  int depth;        /* nesting of constructor calls, bounded */
  bool failed;      /* ran out of budget: the caller keeps the text */
} AxPool;

enum { BLOCK_NODES = 256 };

/* ---- Integer helpers ------------------------------------------------------------------------ */

static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static int64_t wrap_neg(int64_t a) { return (int64_t)(0 - (uint64_t)a); }

/* a % b == 0, without trapping on INT64_MIN % -1 */
static bool divides(int64_t a, int64_t b) { return b == -1 || b == 1 || a % b == 0; }
/* a / b, wrapping INT64_MIN / -1 */
static int64_t wrap_div(int64_t a, int64_t b) { return b == -1 ? wrap_neg(a) : a / b; }

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = wrap_div(a, b);
  return (b != -1 && a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b) {
  int64_t q = wrap_div(a, b);
  return (b != -1 && a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

/* mathematical modulo, b >= 1 */
static int64_t math_mod(int64_t a, int64_t b) {
  int64_t m = a % b;
  return m < 0 ? m + b : m;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* ---- Uniqued nodes -------------------------------------------------------------------------- */

static int64_t known_divisor(AxKind k, int64_t v, const Ax *l, const Ax *r) {
  switch (k) {
  case AX_DIM: case AX_SYM: return 1;
  case AX_CONST: return v < 0 ? wrap_neg(v) : v;
  case AX_FLOORDIV: case AX_CEILDIV:
    if (r->kind == AX_CONST && r->v != 0 && divides(l->divisor, r->v))
      return wrap_div(l->divisor, r->v);
    return 1;
  case AX_MUL: return wrap_mul(l->divisor, r->divisor);
  case AX_ADD: case AX_MOD: return (int64_t)gcd_u64((uint64_t)l->divisor, (uint64_t)r->divisor);
  }
  return 1;
}

static const Ax *node(AxPool *pool, AxKind k, int64_t v, const Ax *l, const Ax *r) {
  uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ULL ^ (uint64_t)v * 0xC2B2AE3D27D4EB4FULL ^
               (uint64_t)(uintptr_t)l * 31 ^ (uint64_t)(uintptr_t)r * 131;
  h ^= h >> 29;
  Ax **slot = &pool->buckets[h % NBUCKETS];
  for (Ax *a = *slot; a; a = a->next)
    if (a->kind == k && a->v == v && a->l == l && a->r == r)
      return a;
  if (pool->nodes >= MAX_NODES) {
    pool->failed = true;
    return NULL;
  }
  if (pool->nblocks == 0 || pool->used_in_block == BLOCK_NODES) {
    if (pool->nblocks == pool->capblocks) {
      pool->capblocks = pool->capblocks ? pool->capblocks * 2 : 16;
      Ax **nb = realloc(pool->blocks, pool->capblocks * sizeof *nb);
      if (!nb)
        abort();
      pool->blocks = nb;
    }
    pool->blocks[pool->nblocks] = malloc(BLOCK_NODES * sizeof(Ax));
    if (!pool->blocks[pool->nblocks])
      abort();
    pool->nblocks++;
    pool->used_in_block = 0;
  }
  Ax *a = &pool->blocks[pool->nblocks - 1][pool->used_in_block++];
  pool->nodes++;
  *a = (Ax){k, v, l, r, true, 1, *slot};
  a->symbolic = k == AX_CONST || k == AX_SYM || (l && r && l->symbolic && r->symbolic);
  if (k == AX_DIM)
    a->symbolic = false;
  a->divisor = known_divisor(k, v, l, r);
  *slot = a;
  return a;
}

static void pool_free(AxPool *pool) {
  for (uint32_t i = 0; i < pool->nblocks; i++)
    free(pool->blocks[i]);
  free(pool->blocks);
}

static const Ax *cst(AxPool *pool, int64_t v) { return node(pool, AX_CONST, v, NULL, NULL); }
static bool is_cst(const Ax *a) { return a && a->kind == AX_CONST; }
static bool is_kind(const Ax *a, AxKind k) { return a && a->kind == k; }

/* ---- Simplifying constructors (MLIR's operator+, operator*, floorDiv, ceilDiv, operator%) ---- */

static const Ax *add(AxPool *pool, const Ax *l, const Ax *r);
static const Ax *mul(AxPool *pool, const Ax *l, const Ax *r);
static const Ax *floordiv(AxPool *pool, const Ax *l, const Ax *r);
static const Ax *ceildiv(AxPool *pool, const Ax *l, const Ax *r);
static const Ax *mod(AxPool *pool, const Ax *l, const Ax *r);

static const Ax *binary(AxPool *pool, AxKind k, const Ax *l, const Ax *r) {
  switch (k) {
  case AX_ADD: return add(pool, l, r);
  case AX_MUL: return mul(pool, l, r);
  case AX_FLOORDIV: return floordiv(pool, l, r);
  case AX_CEILDIV: return ceildiv(pool, l, r);
  case AX_MOD: return mod(pool, l, r);
  default: return NULL;
  }
}

/* Every constructor goes through here: a budget on nesting keeps a hostile input from
 * exhausting the stack; a NULL operand (budget already spent) propagates. */
static bool enter(AxPool *pool, const Ax *l, const Ax *r) {
  if (pool->failed || !l || !r)
    return false;
  if (pool->depth >= MAX_DEPTH) {
    pool->failed = true;
    return false;
  }
  pool->depth++;
  return true;
}

/* The NULL return means "no simplification": the caller builds the plain node. */
static const Ax *simplify_add(AxPool *pool, const Ax *l, const Ax *r) {
  if (is_cst(l) && is_cst(r)) {
    int64_t s;
    if (__builtin_add_overflow(l->v, r->v, &s))
      return NULL;
    return cst(pool, s);
  }
  /* constants, then symbolic terms, go to the right: 4 + d0 is d0 + 4 */
  if (is_cst(l) || (l->symbolic && !r->symbolic))
    return add(pool, r, l);
  if (is_cst(r) && r->v == 0)
    return l;
  /* (d0 + 2) + 3 is d0 + 5 */
  if (is_kind(l, AX_ADD) && is_cst(r) && is_cst(l->r))
    return add(pool, l->l, cst(pool, wrap_add(l->r->v, r->v)));
  /* c1 * e + c2 * e is (c1 + c2) * e */
  int64_t c1 = 1, c2 = 1;
  const Ax *e1 = l, *e2 = r;
  if (is_kind(l, AX_MUL) && is_cst(l->r))
    c1 = l->r->v, e1 = l->l;
  if (is_kind(r, AX_MUL) && is_cst(r->r))
    c2 = r->r->v, e2 = r->l;
  if (e1 == e2)
    return mul(pool, e1, cst(pool, wrap_add(c1, c2)));
  /* (d0 + 2) + d1 is (d0 + d1) + 2 */
  if (is_kind(l, AX_ADD) && is_cst(l->r))
    return add(pool, add(pool, l->l, r), l->r);
  /* e - (e floordiv q) * q, in either shape MLIR builds it, is e mod q */
  if (r->kind < AX_ADD)
    return NULL;
  const Ax *lr = r->l, *rr = r->r;
  if (is_cst(rr) && rr->v == -1 && is_kind(lr, AX_MUL)) {
    const Ax *q = lr->r;
    if (!is_kind(lr->l, AX_FLOORDIV))
      return NULL;
    if (lr->l->r == q && l == lr->l->l)
      return mod(pool, l, q);
  }
  /* the second shape only as a product, and only with a positive constant q */
  if (!is_kind(lr, AX_FLOORDIV) || r->kind != AX_MUL)
    return NULL;
  if (is_cst(lr->r) && lr->r->v >= 1 && l == lr->l && lr->r == mul(pool, rr, cst(pool, -1)))
    return mod(pool, l, lr->r);
  /* (e1 + e2) + r is e1 + (e2 + r) when e2 + r simplifies: (s0 + s1) + (s1 floordiv 4) * -4 is
   * s0 + s1 mod 4 */
  if (is_kind(l, AX_ADD)) {
    const Ax *s = simplify_add(pool, l->r, r);
    if (s)
      return add(pool, l->l, s);
  }
  return NULL;
}

/* Operands of + and * that are both dimensions or symbols are ordered: dimensions first, then
 * by position. */
static bool out_of_order(const Ax *l, const Ax *r) {
  if ((l->kind != AX_DIM && l->kind != AX_SYM) || (r->kind != AX_DIM && r->kind != AX_SYM))
    return false;
  return l->kind != r->kind ? l->kind == AX_SYM : l->v > r->v;
}

static const Ax *add(AxPool *pool, const Ax *l, const Ax *r) {
  if (!enter(pool, l, r))
    return NULL;
  const Ax *s = simplify_add(pool, l, r);
  pool->depth--;
  if (s || pool->failed)
    return s;
  return out_of_order(l, r) ? node(pool, AX_ADD, 0, r, l) : node(pool, AX_ADD, 0, l, r);
}

static const Ax *simplify_mul(AxPool *pool, const Ax *l, const Ax *r) {
  if (is_cst(l) && is_cst(r)) {
    int64_t p;
    if (__builtin_mul_overflow(l->v, r->v, &p))
      return NULL;
    return cst(pool, p);
  }
  if (!l->symbolic && !r->symbolic) { /* not affine; the parser rejects it before */
    pool->failed = true;
    return NULL;
  }
  /* the constant or symbolic factor goes to the right */
  if (!r->symbolic || is_cst(l))
    return mul(pool, r, l);
  if (is_cst(r) && r->v == 1)
    return l;
  if (is_cst(r) && r->v == 0)
    return r;
  /* (d0 * 2) * 3 is d0 * 6 */
  if (is_kind(l, AX_MUL) && is_cst(r) && is_cst(l->r))
    return mul(pool, l->l, cst(pool, wrap_mul(l->r->v, r->v)));
  /* (d0 * 2) * s0 is (d0 * s0) * 2 */
  if (is_kind(l, AX_MUL) && is_cst(l->r))
    return mul(pool, mul(pool, l->l, r), l->r);
  return NULL;
}

static const Ax *mul(AxPool *pool, const Ax *l, const Ax *r) {
  if (!enter(pool, l, r))
    return NULL;
  const Ax *s = simplify_mul(pool, l, r);
  pool->depth--;
  if (s || pool->failed)
    return s;
  return out_of_order(l, r) ? node(pool, AX_MUL, 0, r, l) : node(pool, AX_MUL, 0, l, r);
}

static const Ax *simplify_floordiv(AxPool *pool, const Ax *l, const Ax *r) {
  if (!is_cst(r) || r->v == 0)
    return NULL; /* division by zero is kept as written */
  int64_t c = r->v;
  if (is_cst(l)) {
    if (l->v == INT64_MIN && c == -1)
      return NULL;
    return cst(pool, floor_div(l->v, c));
  }
  if (c == 1)
    return l;
  /* (e * 128) floordiv 64 is e * 2 */
  if (is_kind(l, AX_MUL) && is_cst(l->r) && divides(l->r->v, c))
    return mul(pool, l->l, cst(pool, wrap_div(l->r->v, c)));
  /* (e1 + e2) floordiv c splits when one term is a multiple of c */
  if (is_kind(l, AX_ADD) && (divides(l->l->divisor, c) || divides(l->r->divisor, c)))
    return add(pool, floordiv(pool, l->l, r), floordiv(pool, l->r, r));
  return NULL;
}

static const Ax *floordiv(AxPool *pool, const Ax *l, const Ax *r) {
  if (!enter(pool, l, r))
    return NULL;
  const Ax *s = simplify_floordiv(pool, l, r);
  pool->depth--;
  return s ? s : pool->failed ? NULL : node(pool, AX_FLOORDIV, 0, l, r);
}

static const Ax *simplify_ceildiv(AxPool *pool, const Ax *l, const Ax *r) {
  if (!is_cst(r) || r->v == 0)
    return NULL;
  int64_t c = r->v;
  if (is_cst(l)) {
    if (l->v == INT64_MIN && c == -1)
      return NULL;
    return cst(pool, ceil_div(l->v, c));
  }
  if (c == 1)
    return l;
  if (is_kind(l, AX_MUL) && is_cst(l->r) && divides(l->r->v, c))
    return mul(pool, l->l, cst(pool, wrap_div(l->r->v, c)));
  return NULL;
}

static const Ax *ceildiv(AxPool *pool, const Ax *l, const Ax *r) {
  if (!enter(pool, l, r))
    return NULL;
  const Ax *s = simplify_ceildiv(pool, l, r);
  pool->depth--;
  return s ? s : pool->failed ? NULL : node(pool, AX_CEILDIV, 0, l, r);
}

static const Ax *simplify_mod(AxPool *pool, const Ax *l, const Ax *r) {
  if (!is_cst(r) || r->v < 1)
    return NULL; /* mod by zero or a negative number is kept as written */
  int64_t c = r->v;
  if (is_cst(l))
    return cst(pool, math_mod(l->v, c));
  /* (i * 128) mod 64 is 0 */
  if (l->divisor % c == 0)
    return cst(pool, 0);
  /* (e1 + e2) mod c drops a term that is a multiple of c */
  if (is_kind(l, AX_ADD)) {
    if (l->l->divisor % c == 0)
      return mod(pool, l->r, r);
    if (l->r->divisor % c == 0)
      return mod(pool, l->l, r);
  }
  /* (e mod 8) mod 4 is e mod 4 */
  if (is_kind(l, AX_MOD) && is_cst(l->r) && l->r->v >= 1 && math_mod(l->r->v, c) == 0)
    return mod(pool, l->l, r);
  return NULL;
}

static const Ax *mod(AxPool *pool, const Ax *l, const Ax *r) {
  if (!enter(pool, l, r))
    return NULL;
  const Ax *s = simplify_mod(pool, l, r);
  pool->depth--;
  return s ? s : pool->failed ? NULL : node(pool, AX_MOD, 0, l, r);
}

/* ---- Parser (MLIR's AffineParser over the attribute's text) --------------------------------- */

typedef enum ATok {
  AT_EOF, AT_ERROR, AT_ID, AT_INT, AT_LPAREN, AT_RPAREN, AT_LSQUARE, AT_RSQUARE, AT_COMMA,
  AT_PLUS, AT_MINUS, AT_STAR, AT_ARROW, AT_COLON, AT_LESS, AT_GREATER, AT_EQUAL,
  AT_FLOORDIV, AT_CEILDIV, AT_MOD,
} ATok;

typedef struct AParser {
  const char *cur, *end;
  ATok tok;
  const char *text;   /* the token's spelling */
  uint32_t len;
  AxPool *pool;
  const char *names[64];
  uint32_t name_len[64];
  const Ax *ids[64];
  uint32_t nids;
  int depth;
  bool failed;
} AParser;

static bool id_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool id_char(char c) { return id_start(c) || (c >= '0' && c <= '9') || c == '$' || c == '.'; }

static bool is_hex(char c) {
  return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static void anext(AParser *ap) {
  while (ap->cur < ap->end && (*ap->cur == ' ' || *ap->cur == '\t' || *ap->cur == '\n' || *ap->cur == '\r'))
    ap->cur++;
  ap->text = ap->cur;
  ap->len = 1;
  if (ap->cur >= ap->end) {
    ap->tok = AT_EOF;
    ap->len = 0;
    return;
  }
  char c = *ap->cur++;
  switch (c) {
  case '(': ap->tok = AT_LPAREN; return;
  case ')': ap->tok = AT_RPAREN; return;
  case '[': ap->tok = AT_LSQUARE; return;
  case ']': ap->tok = AT_RSQUARE; return;
  case ',': ap->tok = AT_COMMA; return;
  case '+': ap->tok = AT_PLUS; return;
  case '*': ap->tok = AT_STAR; return;
  case ':': ap->tok = AT_COLON; return;
  case '<': ap->tok = AT_LESS; return;
  case '>': ap->tok = AT_GREATER; return;
  case '=': ap->tok = AT_EQUAL; return;
  case '-':
    if (ap->cur < ap->end && *ap->cur == '>') {
      ap->cur++;
      ap->tok = AT_ARROW;
      ap->len = 2;
      return;
    }
    ap->tok = AT_MINUS;
    return;
  default: break;
  }
  if (c >= '0' && c <= '9') {
    bool hex = c == '0' && ap->cur + 1 < ap->end && ap->cur[0] == 'x' && is_hex(ap->cur[1]);
    if (hex)
      ap->cur++;
    while (ap->cur < ap->end && (hex ? is_hex(*ap->cur) : *ap->cur >= '0' && *ap->cur <= '9'))
      ap->cur++;
    ap->tok = AT_INT;
    ap->len = (uint32_t)(ap->cur - ap->text);
    return;
  }
  if (id_start(c)) {
    while (ap->cur < ap->end && id_char(*ap->cur))
      ap->cur++;
    ap->len = (uint32_t)(ap->cur - ap->text);
    ap->tok = AT_ID;
    if (ap->len == 8 && !memcmp(ap->text, "floordiv", 8))
      ap->tok = AT_FLOORDIV;
    else if (ap->len == 7 && !memcmp(ap->text, "ceildiv", 7))
      ap->tok = AT_CEILDIV;
    else if (ap->len == 3 && !memcmp(ap->text, "mod", 3))
      ap->tok = AT_MOD;
    return;
  }
  ap->tok = AT_ERROR;
}

static const Ax *afail(AParser *ap) {
  ap->failed = true;
  return NULL;
}

static bool aexpect(AParser *ap, ATok t) {
  if (ap->tok != t) {
    ap->failed = true;
    return false;
  }
  anext(ap);
  return true;
}

/* An integer literal: decimal or 0x hex, at most INT64_MAX. */
static const Ax *parse_int(AParser *ap) {
  uint64_t v = 0;
  bool hex = ap->len > 2 && ap->text[1] == 'x';
  for (uint32_t i = hex ? 2 : 0; i < ap->len; i++) {
    char c = ap->text[i];
    unsigned d = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
    uint64_t base = hex ? 16 : 10;
    if (v > (UINT64_MAX - d) / base)
      return afail(ap);
    v = v * base + d;
  }
  if (v > (uint64_t)INT64_MAX)
    return afail(ap);
  anext(ap);
  return cst(ap->pool, (int64_t)v);
}

static const Ax *parse_expr(AParser *ap);

/* operand = integer | bare-id | `(` expr `)` | `-` operand */
static const Ax *parse_operand(AParser *ap) {
  if (ap->depth > MAX_DEPTH)
    return afail(ap);
  switch (ap->tok) {
  case AT_INT: return parse_int(ap);
  case AT_LPAREN: {
    anext(ap);
    ap->depth++;
    const Ax *e = parse_expr(ap);
    ap->depth--;
    if (!e || !aexpect(ap, AT_RPAREN))
      return afail(ap);
    return e;
  }
  case AT_MINUS: {
    anext(ap);
    ap->depth++;
    const Ax *e = parse_operand(ap);
    ap->depth--;
    if (!e)
      return afail(ap);
    return mul(ap->pool, e, cst(ap->pool, -1)); /* (-1) * e is e * -1 */
  }
  case AT_ID: case AT_FLOORDIV: case AT_CEILDIV: case AT_MOD:
    for (uint32_t i = 0; i < ap->nids; i++)
      if (ap->name_len[i] == ap->len && !memcmp(ap->names[i], ap->text, ap->len)) {
        anext(ap);
        return ap->ids[i];
      }
    return afail(ap);
  default: return afail(ap);
  }
}

static AxKind high_op(ATok t) {
  switch (t) {
  case AT_STAR: return AX_MUL;
  case AT_FLOORDIV: return AX_FLOORDIV;
  case AT_CEILDIV: return AX_CEILDIV;
  case AT_MOD: return AX_MOD;
  default: return AX_CONST; /* none */
  }
}

/* The checks AffineParser makes before building a high-precedence op. */
static const Ax *high(AParser *ap, AxKind op, const Ax *l, const Ax *r) {
  if (!l || !r)
    return afail(ap);
  if (op == AX_MUL ? !l->symbolic && !r->symbolic : !r->symbolic)
    return afail(ap);
  const Ax *e = binary(ap->pool, op, l, r);
  return e ? e : afail(ap);
}

static const Ax *low(AParser *ap, ATok op, const Ax *l, const Ax *r) {
  if (!l || !r)
    return afail(ap);
  const Ax *e = op == AT_PLUS ? add(ap->pool, l, r)
                              : add(ap->pool, l, mul(ap->pool, r, cst(ap->pool, -1)));
  return e ? e : afail(ap);
}

/* llhs llhs_op operand (high-op operand)*, folded left to right */
static const Ax *parse_high(AParser *ap, const Ax *llhs, AxKind llhs_op) {
  for (;;) {
    const Ax *lhs = parse_operand(ap);
    if (!lhs)
      return NULL;
    AxKind op = high_op(ap->tok);
    if (op != AX_CONST) {
      anext(ap);
      if (llhs && !(lhs = high(ap, llhs_op, llhs, lhs)))
        return NULL;
      llhs = lhs;
      llhs_op = op;
      continue;
    }
    return llhs ? high(ap, llhs_op, llhs, lhs) : lhs;
  }
}

/* expr = term ((`+` | `-`) term)*, where a term is an operand or a run of high-precedence ops;
 * built in the order AffineParser builds it. */
static const Ax *parse_low(AParser *ap, const Ax *llhs, ATok llhs_op) {
  for (;;) {
    const Ax *lhs = parse_operand(ap);
    if (!lhs)
      return NULL;
    if (ap->tok == AT_PLUS || ap->tok == AT_MINUS) {
      ATok op = ap->tok;
      anext(ap);
      if (llhs && !(lhs = low(ap, llhs_op, llhs, lhs)))
        return NULL;
      llhs = lhs;
      llhs_op = op;
      continue;
    }
    AxKind hop = high_op(ap->tok);
    if (hop != AX_CONST) {
      anext(ap);
      const Ax *h = parse_high(ap, lhs, hop);
      if (!h)
        return NULL;
      const Ax *e = llhs ? low(ap, llhs_op, llhs, h) : h;
      if (!e)
        return NULL;
      if (ap->tok == AT_PLUS || ap->tok == AT_MINUS) {
        llhs = e;
        llhs_op = ap->tok;
        anext(ap);
        continue;
      }
      return e;
    }
    return llhs ? low(ap, llhs_op, llhs, lhs) : lhs;
  }
}

static const Ax *parse_expr(AParser *ap) { return parse_low(ap, NULL, AT_EOF); }

/* `(` id, ... `)` or `[` id, ... `]`; appends dims or symbols to the name table. */
static bool parse_ids(AParser *ap, ATok open, ATok close, AxKind kind, uint32_t *n) {
  if (!aexpect(ap, open))
    return false;
  *n = 0;
  if (ap->tok == close) {
    anext(ap);
    return true;
  }
  for (;;) {
    if (ap->tok != AT_ID && ap->tok != AT_FLOORDIV && ap->tok != AT_CEILDIV && ap->tok != AT_MOD)
      return aexpect(ap, AT_ID);
    for (uint32_t i = 0; i < ap->nids; i++)
      if (ap->name_len[i] == ap->len && !memcmp(ap->names[i], ap->text, ap->len))
        return afail(ap), false;
    if (ap->nids == 64)
      return afail(ap), false;
    ap->names[ap->nids] = ap->text;
    ap->name_len[ap->nids] = ap->len;
    ap->ids[ap->nids++] = node(ap->pool, kind, (int64_t)(*n)++, NULL, NULL);
    anext(ap);
    if (ap->tok == close) {
      anext(ap);
      return true;
    }
    if (!aexpect(ap, AT_COMMA))
      return false;
  }
}

/* ---- Printer (AsmPrinter's printAffineExprInternal) ----------------------------------------- */

typedef struct OutBuf {
  char *s;
  size_t len, cap;
} OutBuf;

static void out_put(OutBuf *o, const char *s, size_t n) {
  if (o->len + n + 1 > o->cap) {
    o->cap = (o->len + n + 1) * 2;
    char *ns = realloc(o->s, o->cap);
    if (!ns)
      abort();
    o->s = ns;
  }
  memcpy(o->s + o->len, s, n);
  o->len += n;
}

static void out_str(OutBuf *o, const char *s) { out_put(o, s, strlen(s)); }

static void out_int(OutBuf *o, int64_t v) {
  char b[32];
  int n = snprintf(b, sizeof b, "%lld", (long long)v);
  out_put(o, b, (size_t)n);
}

/* strong: the enclosing operator binds tighter than `+`, so a compound expression needs
 * parentheses. */
static void print_ax(OutBuf *o, const Ax *e, bool strong) {
  static const char *const spelling[] = {
      [AX_ADD] = " + ", [AX_MUL] = " * ", [AX_FLOORDIV] = " floordiv ", [AX_CEILDIV] = " ceildiv ",
      [AX_MOD] = " mod ",
  };
  switch (e->kind) {
  case AX_SYM: out_put(o, "s", 1); out_int(o, e->v); return;
  case AX_DIM: out_put(o, "d", 1); out_int(o, e->v); return;
  case AX_CONST: out_int(o, e->v); return;
  default: break;
  }
  if (strong)
    out_put(o, "(", 1);
  if (e->kind != AX_ADD) {
    if (e->kind == AX_MUL && is_cst(e->r) && e->r->v == -1) {
      out_put(o, "-", 1);
      print_ax(o, e->l, true);
    } else {
      print_ax(o, e->l, true);
      out_str(o, spelling[e->kind]);
      print_ax(o, e->r, true);
    }
  } else if (is_kind(e->r, AX_MUL) && is_cst(e->r->r) && e->r->r->v == -1) {
    /* e + x * -1 is e - x */
    print_ax(o, e->l, false);
    out_put(o, " - ", 3);
    print_ax(o, e->r->l, e->r->l->kind == AX_ADD);
  } else if (is_kind(e->r, AX_MUL) && is_cst(e->r->r) && e->r->r->v < -1) {
    /* e + x * -c is e - x * c */
    print_ax(o, e->l, false);
    out_put(o, " - ", 3);
    print_ax(o, e->r->l, true);
    out_put(o, " * ", 3);
    out_int(o, wrap_neg(e->r->r->v));
  } else if (is_cst(e->r) && e->r->v < 0) {
    /* e + -c is e - c */
    print_ax(o, e->l, false);
    out_put(o, " - ", 3);
    out_int(o, wrap_neg(e->r->v));
  } else {
    print_ax(o, e->l, false);
    out_put(o, " + ", 3);
    print_ax(o, e->r, false);
  }
  if (strong)
    out_put(o, ")", 1);
}

static void print_ids(OutBuf *o, uint32_t ndims, uint32_t nsyms) {
  out_put(o, "(", 1);
  for (uint32_t i = 0; i < ndims; i++) {
    out_str(o, i ? ", d" : "d");
    out_int(o, i);
  }
  out_put(o, ")", 1);
  if (nsyms) {
    out_put(o, "[", 1);
    for (uint32_t i = 0; i < nsyms; i++) {
      out_str(o, i ? ", s" : "s");
      out_int(o, i);
    }
    out_put(o, "]", 1);
  }
}

/* ---- Entry point ---------------------------------------------------------------------------- */

/* map = `affine_map<` ids `->` `(` (expr (`,` expr)*)? `)` `>`
 * set = `affine_set<` ids `:` `(` (constraint (`,` constraint)*)? `)` `>`
 * constraint = expr (`>=` | `<=` | `==`) expr */
static Str canonical_once(IrCtx *ctx, Str text) {
  static const char map_kw[] = "affine_map<", set_kw[] = "affine_set<";
  bool is_set;
  if (text.len > sizeof map_kw && !memcmp(text.s, map_kw, sizeof map_kw - 1))
    is_set = false;
  else if (text.len > sizeof set_kw && !memcmp(text.s, set_kw, sizeof set_kw - 1))
    is_set = true;
  else
    return text;
  AxPool *pool = calloc(1, sizeof *pool);
  if (!pool)
    abort();
  AParser ap = {.cur = text.s + sizeof map_kw - 1, .end = text.s + text.len, .pool = pool};
  OutBuf o = {0};
  Str result = text;
  uint32_t ndims = 0, nsyms = 0;
  anext(&ap);
  if (!parse_ids(&ap, AT_LPAREN, AT_RPAREN, AX_DIM, &ndims))
    goto done;
  if (ap.tok == AT_LSQUARE && !parse_ids(&ap, AT_LSQUARE, AT_RSQUARE, AX_SYM, &nsyms))
    goto done;
  out_str(&o, is_set ? set_kw : map_kw);
  print_ids(&o, ndims, nsyms);
  out_str(&o, is_set ? " : (" : " -> (");
  if (!aexpect(&ap, is_set ? AT_COLON : AT_ARROW) || !aexpect(&ap, AT_LPAREN))
    goto done;
  if (ap.tok == AT_RPAREN && is_set)
    out_str(&o, "0 == 0");
  for (uint32_t n = 0; ap.tok != AT_RPAREN; n++) {
    if (n && !aexpect(&ap, AT_COMMA))
      goto done;
    const Ax *e = parse_expr(&ap);
    if (!e)
      goto done;
    bool eq = false;
    if (is_set) {
      ATok first = ap.tok;
      if ((first != AT_GREATER && first != AT_LESS && first != AT_EQUAL))
        goto done;
      anext(&ap);
      if (!aexpect(&ap, AT_EQUAL))
        goto done;
      const Ax *rhs = parse_expr(&ap);
      if (!rhs)
        goto done;
      eq = first == AT_EQUAL;
      const Ax *a = first == AT_LESS ? rhs : e, *b = first == AT_LESS ? e : rhs;
      e = add(pool, a, mul(pool, b, cst(pool, -1)));
      if (!e)
        goto done;
    }
    if (n)
      out_str(&o, ", ");
    print_ax(&o, e, false);
    if (is_set)
      out_str(&o, eq ? " == 0" : " >= 0");
  }
  anext(&ap);
  if (ap.tok != AT_GREATER)
    goto done;
  anext(&ap);
  if (ap.tok != AT_EOF || ap.failed || pool->failed)
    goto done;
  out_put(&o, ")>", 2);
  result = ir_intern(ctx, o.s, o.len);
done:
  free(o.s);
  pool_free(pool);
  free(pool);
  return result;
}

/* mlir-opt's own print is not always what mlir-opt reads back: a right-nested sum prints
 * without parentheses (`d0 + -(d0 floordiv 4) + s0`) and reads back as a left-nested one, which
 * simplifies further. Reading and printing again until the text stops changing gives the form
 * that survives any number of trips through mlir-opt, and every spelling along the way reaches
 * it, so gpuinterp(mlir-opt(x)) == gpuinterp(x). It settles within a few rounds. */
Str ir_affine_canonicalize(IrCtx *ctx, Str text) {
  for (int round = 0; round < 16; round++) {
    Str next = canonical_once(ctx, text);
    if (next.len == text.len && !memcmp(next.s, text.s, text.len))
      break;
    text = next;
  }
  return text;
}
