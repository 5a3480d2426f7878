/* parser.c - PTX text to a PtxModule, by recursive descent over the lexer's tokens.
 *
 * module     ::= { header | var-decl ';' | func | '.file' int string {',' int} | '.section' name '{' ... '}'
 *                  | '.pragma' string ';' | '.loc' ... }
 * header     ::= '.version' N.M | '.target' name {',' name} | '.address_size' int
 * func       ::= linkage? ('.entry' | '.func' ret-list?) name param-list? { '.noreturn' | perf | pragma }
 *                (';' | body)
 * body       ::= '{' { stmt } '}'
 * stmt       ::= '{' | '}' | reg-decl ';' | var-decl ';' | label ':' | name ':' '.callprototype' sig ';'
 *              | '.loc' ... | '.pragma' string ';' | ('@' '!'? reg)? opcode {dotname} operands? ';'
 * operand    ::= '!'? reg ['.' comp] ['|' operand] | '-'? number | sym | '_' | '{' operands '}'
 *              | '(' operands? ')' | '[' (reg | sym | int) (('+' | '-') int)? ']'
 * init       ::= '{' init {',' init} '}' | '-'? number | address | mask '(' address ')'
 * address    ::= name ('+' int)? | 'generic(' name ('+' int)? ')' ('+' int)?      (mask: 0xFF << 8k)
 *
 * The parser stops at the first error: it records the message and its place and longjmps to the one
 * exit in ptx_parse, which frees the module (everything is in its arena) and the parser's scratch
 * stacks. Registers are bound to Names while a scope is open (a Name carries its innermost binding;
 * closing a scope restores what the names had); labels and symbols are checked when the function, or
 * the module, ends, since both may be used before they are defined. */
#include "ptx/internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
  MAX_NEST = 64,        /* operand nesting ({...} inside (...)) */
  MAX_SCOPES = 4096,    /* nested { } in a body */
  MAX_REGS = 1u << 24,  /* registers in one function */
  MAX_FILES = 1u << 16, /* .file index */
};

/* A growing array on the heap, freed by the parser's exit. */
typedef struct Vec {
  void *data;
  size_t len, cap, elem;
} Vec;

typedef struct Binding {
  Name *name;
  PtxRegDecl *prev;
  uint32_t prev_depth;
} Binding;

typedef struct Pending {
  PtxOperand *opd;
  Name *name;
} Pending;

typedef struct Parser {
  Lexer lx;
  Token tok;
  PtxModule *m;
  PtxArena *a;
  NameTab names;
  PtxError *err;
  jmp_buf fail;
  /* scratch stacks */
  Vec opds;     /* PtxOperand: elements of operand lists being parsed */
  Vec inits;    /* PtxInit */
  Vec decls;    /* PtxDecl of the module */
  Vec stmts;    /* PtxStmt of the current function */
  Vec labels;   /* PtxLabel of the current function */
  Vec bindings; /* Binding: register bindings of open scopes */
  Vec scopes;   /* size_t: bindings.len when each scope opened */
  Vec touched;  /* Name *: names given a label or a local symbol in the current function */
  Vec pending;  /* Pending: symbols to check against the module's names at its end */
  Vec fsyms;    /* Pending: symbols of the current function, checked at its end */
  Vec files;    /* const char *: the .file table */
  Vec params;   /* PtxVar: parameters being parsed */
  Vec pragmas;  /* const char *: .pragma strings of a function header */
  PtxFunc *fn;  /* the function whose body is being parsed */
  uint32_t loc_file, loc_line, loc_col;
} Parser;

static void vec_init(Vec *v, size_t elem) {
  v->data = NULL;
  v->len = v->cap = 0;
  v->elem = elem;
}

static void *vec_push(Vec *v) {
  if (v->len == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 16;
    void *d = realloc(v->data, cap * v->elem);
    if (!d) {
      fputs("gpuinterp: out of memory\n", stderr);
      abort();
    }
    v->data = d;
    v->cap = cap;
  }
  void *p = (char *)v->data + v->len++ * v->elem;
  memset(p, 0, v->elem);
  return p;
}

static void *vec_at(Vec *v, size_t i) { return (char *)v->data + i * v->elem; }

/* Copies v[from..] into the arena and pops it. */
static void *vec_take(Parser *ps, Vec *v, size_t from) {
  if (v->len == from)
    return ptx_alloc(ps->a, 0);
  void *p = ptx_dup(ps->a, vec_at(v, from), (v->len - from) * v->elem);
  v->len = from;
  return p;
}

static _Noreturn void fail_at(Parser *ps, uint32_t line, uint32_t col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ps->err->msg, sizeof ps->err->msg, fmt, ap);
  va_end(ap);
  ps->err->line = line;
  ps->err->col = col;
  longjmp(ps->fail, 1);
}

/* The current token's text, at most 64 bytes of it, for messages. */
#define TOKFMT "%.*s"
#define TOKARG(t) (int)((t).len > 64 ? 64 : (t).len), (t).s

static _Noreturn void fail_tok(Parser *ps, const char *what) {
  Token t = ps->tok;
  if (t.kind == T_EOF)
    fail_at(ps, t.line, t.col, "expected %s, found end of input", what);
  fail_at(ps, t.line, t.col, "expected %s, found '" TOKFMT "'", what, TOKARG(t));
}

static void next(Parser *ps) {
  ps->tok = ptx_lex_next(&ps->lx);
  if (ps->tok.kind == T_ERROR)
    fail_at(ps, ps->tok.line, ps->tok.col, "%s", ps->lx.err);
}

static bool is_punct(Parser *ps, char c) { return ps->tok.kind == T_PUNCT && ps->tok.punct == c; }

static bool accept(Parser *ps, char c) {
  if (!is_punct(ps, c))
    return false;
  next(ps);
  return true;
}

static void expect(Parser *ps, char c) {
  if (!accept(ps, c)) {
    char what[8] = {'\'', c, '\'', 0};
    fail_tok(ps, what);
  }
}

static bool is_dot(Parser *ps, const char *name) {
  return ps->tok.kind == T_DOTNAME && ps->tok.len == strlen(name) + 1 && !memcmp(ps->tok.s + 1, name, ps->tok.len - 1);
}

static Name *intern_tok(Parser *ps) { return name_intern(&ps->names, ps->a, ps->tok.s, ps->tok.len); }

/* A name after a dot, classified. */
static Name *dot_name(Parser *ps) {
  Name *n = name_intern(&ps->names, ps->a, ps->tok.s + 1, ps->tok.len - 1);
  if (!n->classified)
    name_classify(n);
  return n;
}

static uint64_t expect_int(Parser *ps, const char *what) {
  if (ps->tok.kind != T_INT)
    fail_tok(ps, what);
  uint64_t v = ps->tok.u;
  next(ps);
  return v;
}

static uint32_t expect_u32(Parser *ps, const char *what) {
  Token t = ps->tok;
  uint64_t v = expect_int(ps, what);
  if (v > UINT32_MAX)
    fail_at(ps, t.line, t.col, "%s is too large", what);
  return (uint32_t)v;
}

static Name *expect_ident(Parser *ps, const char *what) {
  if (ps->tok.kind != T_IDENT)
    fail_tok(ps, what);
  Name *n = intern_tok(ps);
  next(ps);
  return n;
}

/* A string token's contents, quotes dropped, escapes kept as written. */
static const char *expect_string(Parser *ps) {
  if (ps->tok.kind != T_STRING)
    fail_tok(ps, "a string");
  char *s = ptx_alloc(ps->a, ps->tok.len - 1);
  memcpy(s, ps->tok.s + 1, ps->tok.len - 2);
  next(ps);
  return s;
}

/* --- types and declarations --- */

/* The attributes of a variable or parameter, in any order: space, .align N, .vN, type, .ptr. */
static void var_attrs(Parser *ps, PtxVar *v, bool param) {
  bool seen_ptr = false;
  while (ps->tok.kind == T_DOTNAME) {
    Token t = ps->tok;
    if (is_dot(ps, "align")) {
      next(ps);
      v->align = expect_u32(ps, "an alignment");
      if (!v->align || (v->align & (v->align - 1)))
        fail_at(ps, t.line, t.col, "alignment %u is not a power of two", v->align);
      continue;
    }
    if (is_dot(ps, "ptr")) {
      if (!param)
        fail_at(ps, t.line, t.col, ".ptr is only allowed on kernel parameters");
      v->ptr = seen_ptr = true;
      next(ps);
      continue;
    }
    Name *n = dot_name(ps);
    if (n->mod_kind == PTX_MOD_TYPE) {
      if (v->type)
        fail_at(ps, t.line, t.col, "second type '" TOKFMT "' in a declaration", TOKARG(t));
      v->type = n->mod_value;
    } else if (n->mod_kind == PTX_MOD_VEC) {
      v->vec = n->mod_value;
    } else if (n->mod_kind == PTX_MOD_SPACE && seen_ptr) {
      v->ptr_space = n->mod_value;
    } else if (n->mod_kind == PTX_MOD_SPACE && !v->space) {
      v->space = n->mod_value;
    } else {
      break; /* something the caller knows, or an error it reports */
    }
    next(ps);
  }
}

/* [N][M]... or [] first. */
static void var_dims(Parser *ps, PtxVar *v) {
  while (is_punct(ps, '[')) {
    Token t = ps->tok;
    next(ps);
    if (v->ndims == 4)
      fail_at(ps, t.line, t.col, "more than 4 array dimensions");
    if (is_punct(ps, ']')) {
      if (v->ndims)
        fail_at(ps, t.line, t.col, "only the first array dimension may be left out");
      v->unsized = true;
      v->dims[v->ndims++] = 0;
    } else {
      v->dims[v->ndims++] = expect_int(ps, "an array dimension");
    }
    expect(ps, ']');
  }
}

/* The address of an initializer: name ('+' int)? | 'generic(' name ('+' int)? ')' ('+' int)?. */
static void init_address(Parser *ps, PtxInit *in) {
  if (ps->tok.kind == T_IDENT && ps->tok.len == 7 && !memcmp(ps->tok.s, "generic", 7)) {
    next(ps);
    expect(ps, '(');
    in->kind = PTX_INIT_GENERIC;
  } else {
    in->kind = PTX_INIT_SYM;
  }
  Token nt = ps->tok;
  Name *n = expect_ident(ps, "a constant or a variable name");
  in->name = n->s;
  if (accept(ps, '+'))
    in->ival = (int64_t)expect_int(ps, "an offset");
  if (in->kind == PTX_INIT_GENERIC) {
    expect(ps, ')');
    if (accept(ps, '+')) /* LLVM writes generic(g)+8 */
      in->ival = (int64_t)((uint64_t)in->ival + expect_int(ps, "an offset"));
  }
  /* checked at the module's end, like an operand */
  PtxOperand *fake = ptx_alloc(ps->a, sizeof *fake);
  fake->kind = PTX_OPD_SYM;
  fake->name = n->s;
  fake->line = nt.line;
  fake->col = nt.col;
  Pending *pd = vec_push(&ps->pending);
  pd->opd = fake;
  pd->name = n;
}

/* initializer ::= '{' init {',' init} '}' | constant; constants are pushed flattened. */
static void init_value(Parser *ps, unsigned depth) {
  Token t = ps->tok;
  if (accept(ps, '{')) {
    if (depth >= MAX_NEST)
      fail_at(ps, t.line, t.col, "initializer nested too deeply");
    do
      init_value(ps, depth + 1);
    while (accept(ps, ','));
    expect(ps, '}');
    return;
  }
  PtxInit *in = vec_push(&ps->inits);
  bool neg = accept(ps, '-');
  if (ps->tok.kind == T_INT || ps->tok.kind == T_F32 || ps->tok.kind == T_F64) {
    in->kind = ps->tok.kind == T_INT ? PTX_INIT_INT : ps->tok.kind == T_F32 ? PTX_INIT_F32 : PTX_INIT_F64;
    uint64_t u = ps->tok.u;
    if (neg)
      u = in->kind == PTX_INIT_INT ? (uint64_t)0 - u : in->kind == PTX_INIT_F32 ? u ^ 0x80000000u : u ^ (1ull << 63);
    in->ival = (int64_t)u;
    next(ps);
    if (in->kind != PTX_INIT_INT || neg || !accept(ps, '('))
      return;
    /* 0xFF00(address): one byte of an address, as LLVM writes pointers inside byte arrays */
    bool byte_mask = false;
    for (unsigned k = 0; k < 8; k++)
      byte_mask |= u == (uint64_t)0xFF << (8 * k);
    if (!byte_mask)
      fail_at(ps, t.line, t.col, "an initializer mask must be 0xFF shifted by whole bytes");
    in->mask = u;
    in->ival = 0;
    init_address(ps, in);
    expect(ps, ')');
    return;
  }
  if (neg)
    fail_tok(ps, "a number after '-'");
  init_address(ps, in);
}

static void mark_symbol(Parser *ps, Name *n, bool local) {
  if (local) {
    if (!(n->flags & NAME_TOUCHED)) {
      n->flags |= NAME_TOUCHED;
      *(Name **)vec_push(&ps->touched) = n;
    }
    n->flags |= NAME_LOCAL;
  } else {
    n->flags |= NAME_GLOBAL;
  }
}

/* The names of a variable declaration after its attributes; each name is a PtxVar of its own.
 * Calls emit for each. */
static void var_names(Parser *ps, PtxVar proto, bool local, void (*emit)(Parser *, PtxVar *)) {
  do {
    Token t = ps->tok;
    PtxVar *v = ptx_alloc(ps->a, sizeof *v);
    *v = proto;
    v->line = t.line;
    v->col = t.col;
    Name *n = expect_ident(ps, "a variable name");
    v->name = n->s;
    mark_symbol(ps, n, local);
    var_dims(ps, v);
    if (accept(ps, '=')) {
      if (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST)
        fail_at(ps, t.line, t.col, "only .global and .const variables may have initializers");
      size_t from = ps->inits.len;
      init_value(ps, 0);
      v->ninit = (uint32_t)(ps->inits.len - from);
      v->init = vec_take(ps, &ps->inits, from);
    }
    emit(ps, v);
  } while (accept(ps, ','));
}

/* A variable declaration from its first attribute on, through the ';'. */
static void var_decl(Parser *ps, uint8_t linkage, bool local, void (*emit)(Parser *, PtxVar *)) {
  Token t = ps->tok;
  PtxVar proto = {0};
  proto.linkage = linkage;
  var_attrs(ps, &proto, false);
  if (ps->tok.kind == T_DOTNAME)
    fail_at(ps, ps->tok.line, ps->tok.col, "unsupported attribute '" TOKFMT "' in a variable declaration",
            TOKARG(ps->tok));
  if (!proto.space)
    fail_at(ps, t.line, t.col, "variable declaration without a state space");
  if (!proto.type)
    fail_at(ps, t.line, t.col, "variable declaration without a type");
  if (proto.space == PTX_SPACE_TEX)
    fail_at(ps, t.line, t.col, ".tex variables are not supported");
  var_names(ps, proto, local, emit);
  expect(ps, ';');
}

static void emit_module_var(Parser *ps, PtxVar *v) {
  PtxDecl *d = vec_push(&ps->decls);
  d->kind = PTX_DECL_VAR;
  d->var = v;
}

static void emit_body_var(Parser *ps, PtxVar *v) {
  PtxStmt *s = vec_push(&ps->stmts);
  s->kind = PTX_STMT_VAR;
  s->var = v;
}

/* param-list ::= '(' [param {',' param}] ')'; param ::= '.param' attrs name dims.
 * In a .callprototype the names may be '_'. */
static void param_list(Parser *ps, uint32_t *count, PtxVar **out, bool names_local, bool proto) {
  expect(ps, '(');
  size_t from = ps->params.len;
  if (!is_punct(ps, ')')) {
    do {
      Token t = ps->tok;
      if (is_dot(ps, "reg"))
        fail_at(ps, t.line, t.col, "'.reg' parameters are not supported (LLVM and nvcc write .param)");
      if (!is_dot(ps, "param"))
        fail_tok(ps, "'.param'");
      next(ps);
      PtxVar *v = vec_push(&ps->params);
      var_attrs(ps, v, true);
      if (ps->tok.kind == T_DOTNAME)
        fail_at(ps, ps->tok.line, ps->tok.col, "unsupported attribute '" TOKFMT "' in a parameter", TOKARG(ps->tok));
      if (v->space)
        fail_at(ps, t.line, t.col, "a parameter's state space is .param or .reg");
      v->space = PTX_SPACE_PARAM;
      if (!v->type)
        fail_at(ps, t.line, t.col, "parameter without a type");
      v->line = ps->tok.line;
      v->col = ps->tok.col;
      Name *n = expect_ident(ps, "a parameter name");
      v->name = n->s;
      if (names_local && !(proto && n->len == 1 && n->s[0] == '_'))
        mark_symbol(ps, n, true);
      var_dims(ps, v);
    } while (accept(ps, ','));
  }
  expect(ps, ')');
  *count = (uint32_t)(ps->params.len - from);
  *out = vec_take(ps, &ps->params, from);
}

/* --- registers and scopes --- */

static void scope_open(Parser *ps, Token at) {
  if (ps->scopes.len >= MAX_SCOPES)
    fail_at(ps, at.line, at.col, "blocks nested more than %d deep", MAX_SCOPES);
  *(size_t *)vec_push(&ps->scopes) = ps->bindings.len;
}

static void scope_close(Parser *ps) {
  size_t from = *(size_t *)vec_at(&ps->scopes, --ps->scopes.len);
  while (ps->bindings.len > from) {
    Binding *b = vec_at(&ps->bindings, --ps->bindings.len);
    b->name->reg = b->prev;
    b->name->reg_depth = b->prev_depth;
  }
}

static void bind_reg(Parser *ps, Name *n, PtxRegDecl *d, Token at) {
  uint32_t depth = (uint32_t)ps->scopes.len;
  if (n->reg && n->reg_depth == depth)
    fail_at(ps, at.line, at.col, "register '%s' is already declared in this scope", n->s);
  Binding *b = vec_push(&ps->bindings);
  b->name = n;
  b->prev = n->reg;
  b->prev_depth = n->reg_depth;
  n->reg = d;
  n->reg_depth = depth;
}

/* reg-decl ::= '.reg' ('.v2'|'.v4')? type name ('<' int '>')? {',' name ('<' int '>')?} ';' */
static void reg_decl(Parser *ps) {
  Token t = ps->tok;
  next(ps); /* .reg */
  PtxVar attrs = {0};
  var_attrs(ps, &attrs, false);
  if (ps->tok.kind == T_DOTNAME)
    fail_at(ps, ps->tok.line, ps->tok.col, "unsupported attribute '" TOKFMT "' in a register declaration",
            TOKARG(ps->tok));
  if (!attrs.type)
    fail_at(ps, t.line, t.col, "register declaration without a type");
  if (attrs.space || attrs.align)
    fail_at(ps, t.line, t.col, "a register declaration takes a type and a vector width only");
  do {
    Token nt = ps->tok;
    Name *n = expect_ident(ps, "a register name");
    PtxRegDecl *d = ptx_alloc(ps->a, sizeof *d);
    d->name = n->s;
    d->type = attrs.type;
    d->vec = attrs.vec;
    d->count = 1;
    if (accept(ps, '<')) {
      Token ct = ps->tok;
      uint64_t c = expect_int(ps, "a register count");
      if (c > MAX_REGS)
        fail_at(ps, ct.line, ct.col, "register count %llu is too large", (unsigned long long)c);
      d->count = (uint32_t)c;
      d->range = true;
      expect(ps, '>');
    }
    if (ps->fn->nregs + (uint64_t)d->count > MAX_REGS)
      fail_at(ps, nt.line, nt.col, "more than %u registers in one function", MAX_REGS);
    d->first = ps->fn->nregs;
    ps->fn->nregs += d->count;
    bind_reg(ps, n, d, nt);
    PtxStmt *s = vec_push(&ps->stmts);
    s->kind = PTX_STMT_REG;
    s->reg = d;
  } while (accept(ps, ','));
  expect(ps, ';');
}

/* The register a name denotes in the current scope: an exact name, or prefix<count> plus digits
 * (%r12 of %r<13>; %r012 is not %r12); of both, the one declared in the inner scope. Sets *index;
 * NULL when none. */
static PtxRegDecl *lookup_reg(Parser *ps, const char *s, uint32_t len, uint32_t *index) {
  Name *n = name_find(&ps->names, s, len);
  PtxRegDecl *exact = n && n->reg && !n->reg->range ? n->reg : NULL;
  uint32_t k = len;
  while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
    k--;
  Name *p = NULL;
  if (k < len && k > 0 && !(s[k] == '0' && k + 1 < len) && len - k <= 9)
    p = name_find(&ps->names, s, k);
  uint32_t idx = 0;
  if (p && p->reg && p->reg->range) {
    for (uint32_t i = k; i < len; i++)
      idx = idx * 10 + (uint32_t)(s[i] - '0');
    if (idx < p->reg->count && (!exact || p->reg_depth > n->reg_depth)) {
      *index = idx;
      return p->reg;
    }
  }
  *index = 0;
  return exact;
}

/* --- operands --- */

static PtxOperand *operand(Parser *ps, PtxOperand *o, unsigned depth);

/* '{' or '(' list: the elements go through the operand stack and end up in the arena. */
static void operand_list(Parser *ps, PtxOperand *o, char close, unsigned depth) {
  size_t from = ps->opds.len;
  if (!is_punct(ps, close)) {
    do {
      PtxOperand e;
      operand(ps, &e, depth + 1);
      *(PtxOperand *)vec_push(&ps->opds) = e;
    } while (accept(ps, ','));
  }
  expect(ps, close);
  o->n = (uint32_t)(ps->opds.len - from);
  o->elems = vec_take(ps, &ps->opds, from);
}

static int comp_of(const Token *t) {
  if (t->len != 2)
    return 0;
  switch (t->s[1]) {
  case 'x': case 'r': return 1;
  case 'y': case 'g': return 2;
  case 'z': case 'b': return 3;
  case 'w': case 'a': return 4;
  }
  return 0;
}

/* A name in operand position: a register, a special register, '_' or a symbol. */
static void name_operand(Parser *ps, PtxOperand *o) {
  Token t = ps->tok;
  uint32_t index;
  PtxRegDecl *d = lookup_reg(ps, t.s, t.len, &index);
  next(ps);
  if (d) {
    o->kind = PTX_OPD_REG;
    o->decl = d;
    o->n = d->first + index;
  } else if (t.s[0] == '%') {
    Name *n = name_intern(&ps->names, ps->a, t.s, t.len);
    if (!n->classified)
      name_classify(n);
    if (n->sreg < 0)
      fail_at(ps, t.line, t.col, "use of undeclared register '" TOKFMT "'", TOKARG(t));
    o->kind = PTX_OPD_SREG;
    o->sreg = (uint8_t)n->sreg;
  } else if (t.len == 1 && t.s[0] == '_') {
    o->kind = PTX_OPD_SINK;
    return;
  } else {
    Name *n = name_intern(&ps->names, ps->a, t.s, t.len);
    o->kind = PTX_OPD_SYM;
    o->name = n->s;
    return; /* the caller records it for checking once the operand has its final address */
  }
  /* .x .y .z .w written right after a register */
  if (ps->tok.kind == T_DOTNAME && !ps->tok.space_before) {
    Token ct = ps->tok;
    int c = comp_of(&ct);
    bool vec = o->kind == PTX_OPD_REG ? o->decl->vec != 0 : false;
    if (o->kind == PTX_OPD_SREG) {
      static const bool has_comp[] = {
#define PTX_SREG(id, name, v) v,
#include "ptx/sregs.def"
#undef PTX_SREG
      };
      vec = has_comp[o->sreg];
    }
    if (!c || !vec)
      fail_at(ps, ct.line, ct.col, "unexpected '" TOKFMT "' after '" TOKFMT "'", TOKARG(ct), TOKARG(t));
    o->comp = (uint8_t)c;
    next(ps);
  }
}

/* Records a SYM operand (at its final address) for checking at the function's end. */
static void note_syms(Parser *ps, PtxOperand *o) {
  if (o->kind == PTX_OPD_SYM) {
    Pending *p = vec_push(&ps->fsyms);
    p->opd = o;
    p->name = name_find(&ps->names, o->name, (uint32_t)strlen(o->name));
  } else if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_LIST || o->kind == PTX_OPD_PAIR) {
    for (uint32_t i = 0; i < o->n; i++)
      note_syms(ps, &o->elems[i]);
  } else if (o->kind == PTX_OPD_ADDR && o->base) {
    note_syms(ps, o->base);
  }
}

static void imm(Parser *ps, PtxOperand *o, bool neg) {
  Token t = ps->tok;
  uint64_t u = t.u;
  if (t.kind == T_INT) {
    o->kind = PTX_OPD_INT;
    if (neg)
      u = (uint64_t)0 - u;
  } else if (t.kind == T_F32) {
    o->kind = PTX_OPD_F32;
    if (neg)
      u ^= 0x80000000u;
  } else if (t.kind == T_F64) {
    o->kind = PTX_OPD_F64;
    if (neg)
      u ^= 1ull << 63;
  } else {
    fail_tok(ps, neg ? "a number after '-'" : "an operand");
  }
  o->ival = (int64_t)u;
  next(ps);
}

/* address ::= '[' (reg | sym | int) (('+' | '-') '-'? int)? ']' */
static void address(Parser *ps, PtxOperand *o) {
  o->kind = PTX_OPD_ADDR;
  if (ps->tok.kind == T_INT) {
    o->base = NULL;
    o->ival = (int64_t)ps->tok.u;
    next(ps);
  } else if (ps->tok.kind == T_IDENT) {
    PtxOperand *b = ptx_alloc(ps->a, sizeof *b);
    b->line = ps->tok.line;
    b->col = ps->tok.col;
    name_operand(ps, b);
    if (b->kind == PTX_OPD_SINK)
      fail_at(ps, b->line, b->col, "'_' is not an address");
    o->base = b;
    if (is_punct(ps, '+') || is_punct(ps, '-')) {
      bool minus = is_punct(ps, '-');
      next(ps);
      if (accept(ps, '-'))
        minus = !minus;
      uint64_t v = expect_int(ps, "an address offset");
      o->ival = (int64_t)(minus ? (uint64_t)0 - v : v);
    }
    if (is_punct(ps, ','))
      fail_at(ps, ps->tok.line, ps->tok.col, "texture and surface addresses are not supported");
  } else if (is_punct(ps, '{')) {
    fail_at(ps, ps->tok.line, ps->tok.col, "texture and surface addresses are not supported");
  } else {
    fail_tok(ps, "a register, a variable or an integer in an address");
  }
  expect(ps, ']');
}

static PtxOperand *operand(Parser *ps, PtxOperand *o, unsigned depth) {
  memset(o, 0, sizeof *o);
  Token t = ps->tok;
  o->line = t.line;
  o->col = t.col;
  if (depth > MAX_NEST)
    fail_at(ps, t.line, t.col, "operands nested too deeply");
  if (accept(ps, '!')) {
    if (ps->tok.kind != T_IDENT)
      fail_tok(ps, "a predicate after '!'");
    name_operand(ps, o);
    if (o->kind != PTX_OPD_REG || o->decl->type != PTX_T_PRED)
      fail_at(ps, t.line, t.col, "'!' applies to a predicate register only");
    o->neg = true;
  } else if (accept(ps, '-')) {
    imm(ps, o, true);
  } else if (accept(ps, '{')) {
    o->kind = PTX_OPD_VEC;
    operand_list(ps, o, '}', depth);
  } else if (accept(ps, '(')) {
    o->kind = PTX_OPD_LIST;
    operand_list(ps, o, ')', depth);
  } else if (accept(ps, '[')) {
    address(ps, o);
  } else if (ps->tok.kind == T_IDENT) {
    name_operand(ps, o);
  } else {
    imm(ps, o, false);
  }
  if (is_punct(ps, '|')) {
    Token bar = ps->tok;
    next(ps);
    PtxOperand *pair = ptx_alloc(ps->a, 2 * sizeof *pair);
    pair[0] = *o;
    operand(ps, &pair[1], depth + 1);
    bool ok0 = pair[0].kind == PTX_OPD_REG || pair[0].kind == PTX_OPD_SINK; /* _|p: lop3's predicate only */
    if (!ok0 || (pair[1].kind != PTX_OPD_REG && pair[1].kind != PTX_OPD_SINK))
      fail_at(ps, bar.line, bar.col, "'|' joins two registers");
    memset(o, 0, sizeof *o);
    o->kind = PTX_OPD_PAIR;
    o->n = 2;
    o->elems = pair;
    o->line = t.line;
    o->col = t.col;
  }
  return o;
}

/* --- statements --- */

enum { MAX_MODS = 32, MAX_OPDS = 32 };

/* instruction ::= opcode {dotname} [operand {',' operand}] ';' (the guard is parsed by the caller) */
static void instruction(Parser *ps, PtxInsn *in) {
  Token t = ps->tok;
  Name *opn = intern_tok(ps);
  if (!opn->classified)
    name_classify(opn);
  if (opn->op < 0)
    fail_at(ps, t.line, t.col, "unknown instruction '" TOKFMT "'", TOKARG(t));
  in->op = (uint16_t)opn->op;
  in->line = t.line;
  in->col = t.col;
  in->loc_file = ps->loc_file;
  in->loc_line = ps->loc_line;
  in->loc_col = ps->loc_col;
  next(ps);
  PtxMod mods[MAX_MODS];
  unsigned nmods = 0;
  while (ps->tok.kind == T_DOTNAME && !ps->tok.space_before) {
    if (nmods == MAX_MODS)
      fail_at(ps, ps->tok.line, ps->tok.col, "more than %d modifiers", MAX_MODS);
    Name *n = dot_name(ps);
    mods[nmods].name = n->s;
    mods[nmods].kind = n->mod_kind;
    mods[nmods].value = n->mod_value;
    nmods++;
    next(ps);
  }
  in->nmods = (uint8_t)nmods;
  in->mods = ptx_dup(ps->a, mods, nmods * sizeof *mods);
  PtxOperand opds[MAX_OPDS];
  unsigned nopds = 0;
  if (is_punct(ps, '}') || ps->tok.kind == T_EOF)
    fail_tok(ps, "';'"); /* the usual slip: a ';' left out at the end of a block */
  if (!is_punct(ps, ';')) {
    do {
      if (nopds == MAX_OPDS)
        fail_at(ps, ps->tok.line, ps->tok.col, "more than %d operands", MAX_OPDS);
      operand(ps, &opds[nopds++], 0);
    } while (accept(ps, ','));
  }
  expect(ps, ';');
  in->nopds = (uint8_t)nopds;
  in->opds = ptx_dup(ps->a, opds, nopds * sizeof *opds);
  for (unsigned i = 0; i < nopds; i++)
    note_syms(ps, &in->opds[i]);
}

/* .loc file line col {',' name (name | file line col)}: the source place of what follows. */
static void loc_directive(Parser *ps) {
  Token t = ps->tok;
  next(ps);
  uint32_t file = expect_u32(ps, "a file index");
  uint32_t line = expect_u32(ps, "a line number");
  uint32_t col = expect_u32(ps, "a column number");
  if (!file)
    fail_at(ps, t.line, t.col, ".loc file index 0 is not valid");
  while (accept(ps, ',')) {
    Name *key = expect_ident(ps, "'function_name' or 'inlined_at'");
    if (!strcmp(key->s, "function_name")) {
      expect_ident(ps, "a label");
      if (accept(ps, '+'))
        expect_int(ps, "an offset");
    } else if (!strcmp(key->s, "inlined_at")) {
      expect_int(ps, "a file index");
      expect_int(ps, "a line number");
      expect_int(ps, "a column number");
    } else {
      fail_at(ps, t.line, t.col, "unknown .loc attribute '%s'", key->s);
    }
  }
  ps->loc_file = file;
  ps->loc_line = line;
  ps->loc_col = col;
}

static const char *pragma(Parser *ps) {
  next(ps);
  const char *s = expect_string(ps);
  expect(ps, ';');
  return s;
}

/* name ':' '.callprototype' ret-list? '_' param-list ';' (the name and ':' are read by the caller) */
static void callprototype(Parser *ps, Name *n) {
  next(ps);
  PtxProto *p = ptx_alloc(ps->a, sizeof *p);
  p->name = n->s;
  mark_symbol(ps, n, true);
  if (is_punct(ps, '('))
    param_list(ps, &p->sig.nrets, &p->sig.rets, false, true);
  Token t = ps->tok;
  Name *u = expect_ident(ps, "'_'");
  if (strcmp(u->s, "_"))
    fail_at(ps, t.line, t.col, "expected '_' as a prototype's name");
  if (is_punct(ps, '('))
    param_list(ps, &p->sig.nparams, &p->sig.params, false, true);
  if (is_dot(ps, "noreturn"))
    next(ps);
  expect(ps, ';');
  PtxStmt *s = vec_push(&ps->stmts);
  s->kind = PTX_STMT_PROTO;
  s->proto = p;
}

static void define_label(Parser *ps, Name *n, Token at) {
  if (n->label)
    fail_at(ps, at.line, at.col, "label '%s' is already defined at line %u", n->s, n->label_line);
  if (!(n->flags & NAME_TOUCHED)) {
    n->flags |= NAME_TOUCHED;
    *(Name **)vec_push(&ps->touched) = n;
  }
  PtxLabel *l = vec_push(&ps->labels);
  l->name = n->s;
  l->stmt = (uint32_t)ps->stmts.len;
  n->label = (uint32_t)ps->labels.len;
  n->label_line = at.line;
  n->label_col = at.col;
  PtxStmt *s = vec_push(&ps->stmts);
  s->kind = PTX_STMT_LABEL;
  s->label = n->label - 1;
}

static bool is_var_space(Parser *ps) {
  return is_dot(ps, "local") || is_dot(ps, "shared") || is_dot(ps, "param") || is_dot(ps, "const") ||
         is_dot(ps, "global") || is_dot(ps, "tex");
}

/* The body of ps->fn, from its '{' to the matching '}'. */
static void body(Parser *ps) {
  PtxFunc *fn = ps->fn;
  Token open = ps->tok;
  expect(ps, '{');
  scope_open(ps, open);
  while (ps->scopes.len) {
    Token t = ps->tok;
    if (t.kind == T_EOF)
      fail_at(ps, open.line, open.col, "function '%s' has no closing '}'", fn->name);
    if (accept(ps, '{')) {
      scope_open(ps, t);
      ((PtxStmt *)vec_push(&ps->stmts))->kind = PTX_STMT_OPEN;
    } else if (accept(ps, '}')) {
      scope_close(ps);
      if (ps->scopes.len)
        ((PtxStmt *)vec_push(&ps->stmts))->kind = PTX_STMT_CLOSE;
    } else if (is_dot(ps, "reg")) {
      reg_decl(ps);
    } else if (is_var_space(ps)) {
      var_decl(ps, PTX_LINK_NONE, true, emit_body_var);
    } else if (is_dot(ps, "loc")) {
      loc_directive(ps);
    } else if (is_dot(ps, "pragma")) {
      const char *s = pragma(ps);
      PtxStmt *st = vec_push(&ps->stmts);
      st->kind = PTX_STMT_PRAGMA;
      st->pragma = s;
    } else if (t.kind == T_DOTNAME) {
      fail_at(ps, t.line, t.col, "unsupported directive '" TOKFMT "' in a function body", TOKARG(t));
    } else if (accept(ps, '@')) {
      PtxInsn in = {0};
      in.has_guard = true;
      Token gt = ps->tok;
      in.guard.line = gt.line;
      in.guard.col = gt.col;
      bool neg = accept(ps, '!');
      if (ps->tok.kind != T_IDENT)
        fail_tok(ps, "a predicate register after '@'");
      name_operand(ps, &in.guard);
      if (in.guard.kind != PTX_OPD_REG || in.guard.decl->type != PTX_T_PRED)
        fail_at(ps, gt.line, gt.col, "a guard must be a predicate register");
      in.guard.neg = neg;
      if (ps->tok.kind != T_IDENT)
        fail_tok(ps, "an instruction after the guard");
      instruction(ps, &in);
      PtxStmt *st = vec_push(&ps->stmts);
      st->kind = PTX_STMT_INSN;
      st->insn = in;
    } else if (t.kind == T_IDENT) {
      Lexer save = ps->lx;
      next(ps);
      if (is_punct(ps, ':')) {
        Name *n = name_intern(&ps->names, ps->a, t.s, t.len);
        next(ps);
        if (is_dot(ps, "callprototype"))
          callprototype(ps, n);
        else if (ps->tok.kind == T_DOTNAME && (is_dot(ps, "branchtargets") || is_dot(ps, "calltargets")))
          fail_at(ps, ps->tok.line, ps->tok.col, "'" TOKFMT "' is not supported", TOKARG(ps->tok));
        else
          define_label(ps, n, t);
      } else {
        ps->lx = save;
        ps->tok = t;
        PtxInsn in = {0};
        instruction(ps, &in);
        PtxStmt *st = vec_push(&ps->stmts);
        st->kind = PTX_STMT_INSN;
        st->insn = in;
      }
    } else {
      fail_tok(ps, "an instruction, a label or a directive");
    }
  }
}

/* Resolves the function's symbol operands: labels become LABEL operands, local and module names stay,
 * the rest wait for the module's end. Then forgets the function's labels and local names. */
static void finish_body(Parser *ps) {
  PtxFunc *fn = ps->fn;
  for (size_t i = 0; i < ps->fsyms.len; i++) {
    Pending *p = vec_at(&ps->fsyms, i);
    Name *n = p->name;
    if (n && n->label) {
      p->opd->kind = PTX_OPD_LABEL;
      p->opd->label = n->label - 1;
    } else if (!n || !(n->flags & (NAME_LOCAL | NAME_GLOBAL))) {
      *(Pending *)vec_push(&ps->pending) = *p;
    }
  }
  ps->fsyms.len = 0;
  for (size_t i = 0; i < ps->touched.len; i++) {
    Name *n = *(Name **)vec_at(&ps->touched, i);
    n->label = 0;
    n->flags &= (uint8_t)~(NAME_LOCAL | NAME_TOUCHED);
  }
  ps->touched.len = 0;
  fn->nstmts = (uint32_t)ps->stmts.len;
  fn->stmts = vec_take(ps, &ps->stmts, 0);
  fn->nlabels = (uint32_t)ps->labels.len;
  fn->labels = vec_take(ps, &ps->labels, 0);
}

/* Performance directives and .noreturn/.pragma between a function's header and its body. */
static bool perf_directive(Parser *ps, PtxFunc *fn) {
  Token t = ps->tok;
  uint32_t *dst = NULL, n = 1;
  if (is_dot(ps, "maxntid"))
    dst = fn->perf.maxntid, n = 3;
  else if (is_dot(ps, "reqntid"))
    dst = fn->perf.reqntid, n = 3;
  else if (is_dot(ps, "reqnctapercluster"))
    dst = fn->perf.reqnctapercluster, n = 3;
  else if (is_dot(ps, "minnctapersm") || is_dot(ps, "maxnctapersm"))
    dst = &fn->perf.minnctapersm;
  else if (is_dot(ps, "maxnreg"))
    dst = &fn->perf.maxnreg;
  else if (is_dot(ps, "maxclusterrank"))
    dst = &fn->perf.maxclusterrank;
  if (dst) {
    if (!fn->entry && dst != &fn->perf.maxnreg)
      fail_at(ps, t.line, t.col, "'" TOKFMT "' applies to .entry functions only", TOKARG(t));
    next(ps);
    dst[0] = expect_u32(ps, "a value");
    for (uint32_t i = 1; i < n; i++)
      dst[i] = 1;
    for (uint32_t i = 1; i < n && accept(ps, ','); i++)
      dst[i] = expect_u32(ps, "a value");
    return true;
  }
  if (is_dot(ps, "explicitcluster")) {
    fn->perf.explicitcluster = true;
    next(ps);
    return true;
  }
  if (is_dot(ps, "noreturn")) {
    if (fn->entry)
      fail_at(ps, t.line, t.col, ".noreturn applies to .func functions only");
    fn->noreturn = true;
    next(ps);
    return true;
  }
  if (is_dot(ps, "pragma")) {
    const char *s = pragma(ps);
    *(const char **)vec_push(&ps->pragmas) = s; /* the caller takes them into fn->pragmas */
    return true;
  }
  return false;
}

/* func ::= ('.entry' | '.func' ret-list?) name param-list? directives (';' | body) */
static void function(Parser *ps, uint8_t linkage) {
  Token t = ps->tok;
  PtxFunc *fn = ptx_alloc(ps->a, sizeof *fn);
  fn->entry = is_dot(ps, "entry");
  fn->linkage = linkage;
  fn->line = t.line;
  fn->col = t.col;
  ps->fn = fn;
  ps->loc_file = ps->loc_line = ps->loc_col = 0;
  next(ps);
  if (!fn->entry && is_dot(ps, "attribute"))
    fail_at(ps, ps->tok.line, ps->tok.col, "function attributes are not supported");
  if (!fn->entry && is_punct(ps, '('))
    param_list(ps, &fn->sig.nrets, &fn->sig.rets, true, false);
  Name *n = expect_ident(ps, "a function name");
  if (n->s[0] == '%')
    fail_at(ps, t.line, t.col, "a function name cannot start with '%%'");
  fn->name = n->s;
  n->flags |= NAME_GLOBAL;
  if (is_punct(ps, '('))
    param_list(ps, &fn->sig.nparams, &fn->sig.params, true, false);
  while (perf_directive(ps, fn))
    ;
  fn->npragmas = (uint32_t)ps->pragmas.len;
  fn->pragmas = vec_take(ps, &ps->pragmas, 0);
  PtxDecl *d = vec_push(&ps->decls);
  d->kind = PTX_DECL_FUNC;
  d->func = fn;
  if (accept(ps, ';')) {
    finish_body(ps); /* forgets the parameter names */
    ps->fn = NULL;
    return;
  }
  if (!is_punct(ps, '{'))
    fail_tok(ps, "'{' or ';' after a function header");
  if (linkage == PTX_LINK_EXTERN)
    fail_at(ps, t.line, t.col, "an .extern function cannot have a body");
  fn->defined = true;
  body(ps);
  finish_body(ps);
  ps->fn = NULL;
}

/* .file N "name" [, timestamp, size] */
static void file_directive(Parser *ps) {
  Token t = ps->tok;
  next(ps);
  uint32_t idx = expect_u32(ps, "a file index");
  if (!idx || idx >= MAX_FILES)
    fail_at(ps, t.line, t.col, ".file index %u is out of range", idx);
  const char *s = expect_string(ps);
  while (accept(ps, ','))
    expect_int(ps, "a timestamp or a size");
  while (ps->files.len <= idx)
    vec_push(&ps->files);
  const char **slot = vec_at(&ps->files, idx);
  if (*slot)
    fail_at(ps, t.line, t.col, ".file %u is already defined", idx);
  *slot = s;
}

/* .section name { anything balanced }: debug sections, skipped. */
static void section(Parser *ps) {
  Token t = ps->tok;
  next(ps);
  if (ps->tok.kind != T_DOTNAME && ps->tok.kind != T_IDENT)
    fail_tok(ps, "a section name");
  next(ps);
  expect(ps, '{');
  for (unsigned depth = 1; depth;) {
    if (ps->tok.kind == T_EOF)
      fail_at(ps, t.line, t.col, "section has no closing '}'");
    if (is_punct(ps, '{'))
      depth++;
    else if (is_punct(ps, '}'))
      depth--;
    next(ps);
  }
}

static void header(Parser *ps) {
  PtxModule *m = ps->m;
  Token t = ps->tok;
  if (is_dot(ps, "version")) {
    if (m->version_major)
      fail_at(ps, t.line, t.col, "second .version");
    next(ps);
    Token v = ps->tok;
    if (v.kind != T_F64 || !memchr(v.s, '.', v.len))
      fail_tok(ps, "a version number like 8.0");
    unsigned major = 0, minor = 0, i = 0;
    for (; i < v.len && v.s[i] != '.'; i++)
      major = major * 10 + (unsigned)(v.s[i] - '0');
    for (i++; i < v.len; i++) {
      if (v.s[i] < '0' || v.s[i] > '9' || minor > 1000)
        fail_at(ps, v.line, v.col, "malformed version number");
      minor = minor * 10 + (unsigned)(v.s[i] - '0');
    }
    if (major > 1000)
      fail_at(ps, v.line, v.col, "malformed version number");
    m->version_major = major;
    m->version_minor = minor;
    if (major < 6 || major > 9)
      fail_at(ps, v.line, v.col, "PTX ISA version %u.%u is not supported (6.0 to 9.x are)", major, minor);
    next(ps);
  } else if (is_dot(ps, "target")) {
    next(ps);
    do {
      Token nt = ps->tok;
      Name *n = expect_ident(ps, "a target name");
      if (!strncmp(n->s, "sm_", 3) || !strncmp(n->s, "compute_", 8)) {
        if (m->target)
          fail_at(ps, nt.line, nt.col, "second target '%s'", n->s);
        m->target = n->s;
      } else if (!strcmp(n->s, "texmode_independent")) {
        m->texmode_independent = true;
      } else if (!strcmp(n->s, "texmode_unified")) {
      } else if (!strcmp(n->s, "debug")) {
        m->debug = true;
      } else if (!strcmp(n->s, "map_f64_to_f32")) {
        m->map_f64_to_f32 = true;
      } else {
        fail_at(ps, nt.line, nt.col, "unknown target '%s'", n->s);
      }
    } while (accept(ps, ','));
  } else {
    next(ps); /* .address_size */
    Token v = ps->tok;
    m->address_size = expect_u32(ps, "an address size");
    if (m->address_size != 32 && m->address_size != 64)
      fail_at(ps, v.line, v.col, "address size must be 32 or 64");
  }
}

static void module(Parser *ps) {
  next(ps);
  while (ps->tok.kind != T_EOF) {
    Token t = ps->tok;
    if (is_dot(ps, "version") || is_dot(ps, "target") || is_dot(ps, "address_size")) {
      header(ps);
      continue;
    }
    if (is_dot(ps, "file")) {
      file_directive(ps);
      continue;
    }
    if (is_dot(ps, "section")) {
      section(ps);
      continue;
    }
    if (is_dot(ps, "loc")) {
      loc_directive(ps);
      continue;
    }
    if (is_dot(ps, "pragma")) {
      pragma(ps);
      continue;
    }
    uint8_t linkage = PTX_LINK_NONE;
    if (is_dot(ps, "visible"))
      linkage = PTX_LINK_VISIBLE;
    else if (is_dot(ps, "extern"))
      linkage = PTX_LINK_EXTERN;
    else if (is_dot(ps, "weak"))
      linkage = PTX_LINK_WEAK;
    else if (is_dot(ps, "common"))
      linkage = PTX_LINK_COMMON;
    if (linkage)
      next(ps);
    if (!ps->m->version_major && ps->tok.kind != T_EOF)
      fail_at(ps, t.line, t.col, "a PTX module must start with .version");
    if (is_dot(ps, "entry") || is_dot(ps, "func")) {
      function(ps, linkage);
    } else if (is_var_space(ps)) {
      if (is_dot(ps, "local") || is_dot(ps, "param"))
        fail_at(ps, ps->tok.line, ps->tok.col, "'" TOKFMT "' variables belong in a function", TOKARG(ps->tok));
      var_decl(ps, linkage, false, emit_module_var);
    } else if (t.kind == T_DOTNAME && !linkage) {
      fail_at(ps, t.line, t.col, "unsupported directive '" TOKFMT "'", TOKARG(t));
    } else {
      fail_tok(ps, linkage ? "'.entry', '.func' or a variable after the linkage" : "a directive");
    }
  }
  if (!ps->m->version_major)
    fail_at(ps, ps->tok.line, ps->tok.col, "a PTX module must start with .version");
  if (!ps->m->target)
    fail_at(ps, ps->tok.line, ps->tok.col, "a PTX module needs a .target");
  for (size_t i = 0; i < ps->pending.len; i++) {
    Pending *p = vec_at(&ps->pending, i);
    if (!p->name || !(p->name->flags & NAME_GLOBAL))
      fail_at(ps, p->opd->line, p->opd->col, "use of undeclared identifier '%s'", p->opd->name);
  }
  uint32_t nfiles = (uint32_t)ps->files.len;
  ps->m->nfiles = nfiles;
  ps->m->files = vec_take(ps, &ps->files, 0);
  ps->m->ndecls = (uint32_t)ps->decls.len;
  ps->m->decls = vec_take(ps, &ps->decls, 0);
}

PtxModule *ptx_parse(const char *bufname, const char *text, size_t len, PtxError *err) {
  PtxError dummy;
  Parser *ps = calloc(1, sizeof *ps);
  if (!err)
    err = &dummy;
  memset(err, 0, sizeof *err);
  err->bufname = bufname;
  if (!ps) {
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return NULL;
  }
  if (len > UINT32_MAX) {
    snprintf(err->msg, sizeof err->msg, "PTX text of %zu bytes is too large", len);
    free(ps);
    return NULL;
  }
  /* a module image often ends in the NUL of a C string: that is the end of the text */
  while (len && text[len - 1] == 0)
    len--;
  ps->err = err;
  ps->a = ptx_arena_create();
  ps->m = ptx_alloc(ps->a, sizeof *ps->m);
  ps->m->arena = ps->a;
  ps->m->bufname = bufname;
  vec_init(&ps->opds, sizeof(PtxOperand));
  vec_init(&ps->inits, sizeof(PtxInit));
  vec_init(&ps->decls, sizeof(PtxDecl));
  vec_init(&ps->stmts, sizeof(PtxStmt));
  vec_init(&ps->labels, sizeof(PtxLabel));
  vec_init(&ps->bindings, sizeof(Binding));
  vec_init(&ps->scopes, sizeof(size_t));
  vec_init(&ps->touched, sizeof(Name *));
  vec_init(&ps->pending, sizeof(Pending));
  vec_init(&ps->fsyms, sizeof(Pending));
  vec_init(&ps->files, sizeof(const char *));
  vec_init(&ps->params, sizeof(PtxVar));
  vec_init(&ps->pragmas, sizeof(const char *));
  ptx_lex_init(&ps->lx, text, len);
  PtxModule *m = ps->m;
  if (setjmp(ps->fail)) {
    ptx_arena_destroy(ps->a);
    m = NULL;
  } else {
    module(ps);
  }
  Vec *vecs[] = {&ps->opds,    &ps->inits,   &ps->decls, &ps->stmts, &ps->labels, &ps->bindings,
                 &ps->scopes,  &ps->touched, &ps->pending, &ps->fsyms, &ps->files, &ps->params, &ps->pragmas};
  for (size_t i = 0; i < sizeof vecs / sizeof *vecs; i++)
    free(vecs[i]->data);
  name_tab_free(&ps->names);
  free(ps);
  return m;
}
