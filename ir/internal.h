/* internal.h - what the files of ir/ share and nothing outside ir/ may include: the context's
 * fields, the lexer, the parser state and its primitives (what MLIR calls OpAsmParser), the
 * printer state and its primitives (OpAsmPrinter), and the op table of ops.def.
 *
 * A custom assembly form is a pair of functions, listed in forms.def and named by ops.def:
 *   bool parse_X(Parser *p, OpState *st)   fills st exactly as the generic form would
 *   bool print_X(Printer *pr, Op *op)      prints what follows the op name; returns false, before
 *                                          writing anything, when the op does not fit the form,
 *                                          and the op is printed in the generic form instead. */
#ifndef IR_INTERNAL_H
#define IR_INTERNAL_H

#include "ir/ir.h"

typedef struct SourceBuf {
  Str name;
  char *text;
  size_t len;
  uint32_t line, col; /* where text starts in the file (a part of a split file starts later) */
  bool owned;         /* a copy the context frees, or the caller's text (ir_parse_part) */
} SourceBuf;

struct IrCtx {
  struct Chunk *chunks;
  struct Chunk *opchunks; /* ops and their results only (ir_alloc_op) */
  struct StrSlot *strtab; /* the intern table: each string with its hash (arena.c) */
  uint32_t nstr, strcap;
  Type **typetab;
  uint32_t ntype, typecap;
  SourceBuf *sources;
  uint32_t nsources, capsources;
  FILE *diag_out;
  unsigned nerrors;
  struct IrExpect *expect; /* --verify-diagnostics: diagnostics go there instead (expect.c) */
  IrDiagRewrite rewrite;   /* ir_diag_set_rewrite: names the sites a message quotes, or NULL */
  void *rewrite_user;
  bool allow_unregistered; /* ir_ctx_allow_unregistered */
};

void *ir_dup(IrCtx *ctx, const void *src, size_t bytes);
/* A zeroed op with its results right after it (op->results set), from chunks that hold only
 * ops: the ops of a block lie side by side in the order they were made, so the many walks over
 * a block's ops (verifying, compiling, running) read memory in sequence instead of jumping
 * over each op's operands, uses and attributes. */
Op *ir_alloc_op(IrCtx *ctx, uint32_t nresults);

static inline uint32_t ir_hash_mix(uint32_t h, uint64_t v) {
  h ^= (uint32_t)v + 0x9e3779b9u + (h << 6) + (h >> 2);
  h ^= (uint32_t)(v >> 32) + 0x9e3779b9u + (h << 6) + (h >> 2);
  return h;
}
uint32_t ir_hash_bytes(const char *s, size_t len);
/* Keeps text for diagnostics to quote: a copy, or (copy false) text itself, which the caller
 * keeps alive and NUL-terminated at len. Returns the buffer to parse. */
const char *ir_ctx_add_source(IrCtx *ctx, const char *name, const char *text, size_t len, uint32_t line,
                              uint32_t col, bool copy);

/* Writes a diagnostic as is (diag.c); underline: tildes after the caret. */
void ir_diag_write(IrCtx *ctx, DiagSeverity sev, const Loc *loc, const char *msg, uint32_t underline);
/* mlir-opt's checks of one gpu.* op (verify_gpu.c); returns the number of errors reported. */
unsigned ir_verify_gpu_op(IrCtx *ctx, Op *op);
/* Checks one diagnostic against the expectations (expect.c). */
void ir_expect_handle(struct IrExpect *e, DiagSeverity sev, const Loc *loc, const char *msg);

/* ---- Lexer ---------------------------------------------------------------------------------- */

typedef enum TokKind {
  TOK_EOF, TOK_ERROR,
  TOK_BARE,       /* identifier, keyword, dialect.op */
  TOK_PERCENT,    /* %name (text excludes %) */
  TOK_CARET,      /* ^bb */
  TOK_AT,         /* @sym or @"sym" (text is the symbol, unescaped if quoted: see str) */
  TOK_HASH,       /* #alias or #dialect.name */
  TOK_BANG,       /* !alias or !dialect.name */
  TOK_INT, TOK_FLOAT, TOK_STRING,
  TOK_LPAREN, TOK_RPAREN, TOK_LSQUARE, TOK_RSQUARE, TOK_LBRACE, TOK_RBRACE, TOK_LESS, TOK_GREATER,
  TOK_COMMA, TOK_COLON, TOK_EQUAL, TOK_ARROW, TOK_STAR, TOK_PLUS, TOK_MINUS, TOK_QUESTION,
  TOK_ELLIPSIS, TOK_VBAR, TOK_FILE_META_BEGIN, TOK_FILE_META_END,
} TokKind;

typedef struct Token {
  TokKind kind;
  const char *text; /* points into the source */
  uint32_t len;
} Token;

typedef struct Lexer {
  const char *buf, *cur, *end;
  const char *err; /* message of the last TOK_ERROR */
  const char *bad; /* where lex_balanced found a malformed string (err says how), else NULL */
} Lexer;

void lex_init(Lexer *lx, const char *buf, size_t len);
Token lex_next(Lexer *lx);
/* The raw text of a balanced <...> at the lexer's position (dialect bodies). */
bool lex_balanced(Lexer *lx, const char **start, uint32_t *len);

/* ---- Parser --------------------------------------------------------------------------------- */

typedef struct Parser Parser;
typedef struct SsaEntry SsaEntry;
typedef struct PendingLoc PendingLoc;

typedef struct Alias {
  Str name;
  void *value; /* Type*, Attr* or Loc* */
} Alias;

/* One per region being parsed: where its definitions start on the stack, the frame of its block
 * names, and the value frame to restore when it ends. */
typedef struct RegionMark {
  uint32_t stack_mark;
  uint32_t block_frame;
  uint32_t saved_frame;
} RegionMark;

struct Parser {
  IrCtx *ctx;
  Lexer lx;
  Token tok;
  const char *prev_end;   /* end of the token before tok */
  Str file;
  const char *src;        /* start of the source, for line/column */
  uint32_t src_line, src_col; /* the line and column of src in the file */
  const char *line_start; /* cache for line/column lookups */
  uint32_t line_no;
  bool failed;
  unsigned nerrors_here;  /* errors reported by this parse */
  const char *err_pos;    /* where the last one was */
  /* SSA values and blocks in scope: chained hash keyed by (name, frame). */
  SsaEntry **ssa;
  uint32_t ssacap, nssa;
  SsaEntry **stack;       /* definition order, popped when a region ends */
  uint32_t nstack, capstack;
  uint32_t frame;         /* current value frame (isolated regions get a new one) */
  uint32_t next_frame;
  uint32_t *frame_parent;  /* value frame -> the frame it is nested in (0: none) */
  uint32_t cap_frames;
  Alias *type_alias, *attr_alias, *loc_alias;
  uint32_t ntype_alias, nattr_alias, nloc_alias, cap_type_alias, cap_attr_alias, cap_loc_alias;
  PendingLoc *pending;    /* loc(#alias) uses resolved at the end of the file */
  uint32_t npending, cappending;
  Str dialect_stack[64];
  uint32_t ndialect;
  uint32_t depth;
  RegionMark marks[256];
  uint32_t nest;          /* types, attributes and locations being parsed, one inside another */
};

/* A use of an SSA value not yet resolved to a Value: its name, result number and position. */
typedef struct OperandRef {
  const char *name;
  uint32_t len;
  uint32_t number;
  const char *pos;
} OperandRef;

/* What an op is made of, gathered before it is created (MLIR's OperationState). */
typedef struct OpState {
  Str name;
  const OpInfo *info;
  Loc *src;
  Value **operands;
  uint32_t noperands, capoperands;
  Type **result_types;
  uint32_t nresults, capresults;
  Block **succs;
  uint32_t nsuccs, capsuccs;
  Region **regions;
  uint32_t nregions, capregions;
  NamedAttr *props;
  uint32_t nprops, capprops;
  Attr *props_attr; /* a non-dictionary <{...}> from the generic form */
  Attr *props_dict; /* a dictionary <{...}> from the generic form, as written */
  NamedAttr *attrs;
  uint32_t nattrs, capattrs;
  uint32_t num_results_expected; /* how many result names the source gave */
  /* the arrays' first storage (parser.c's GROW) */
  Value *operands0[8];
  Type *result_types0[4];
  Block *succs0[2];
  Region *regions0[2];
  NamedAttr props0[4], attrs0[4];
  const char *at;                /* the op name in the source, for custom forms' errors */
} OpState;

/* Primitives. Each returns false after reporting an error; `opt_` ones return false without
 * error when the thing is absent (check p_failed when it matters). */
bool p_failed(Parser *p);
void p_next(Parser *p);
Token *p_tok(Parser *p);
bool p_is(Parser *p, TokKind k);
bool p_is_kw(Parser *p, const char *kw);
bool p_expect(Parser *p, TokKind k, const char *what);
bool p_opt(Parser *p, TokKind k);
bool p_kw(Parser *p, const char *kw);
bool p_opt_kw(Parser *p, const char *kw);
bool p_bare(Parser *p, Str *out);             /* any bare identifier */
bool p_error(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* lex_balanced for the parser: on failure reports a malformed string in the body where it is,
 * anything else as msg at the current token. */
bool p_balanced(Parser *p, const char **start, uint32_t *len, const char *msg);
bool p_error_at(Parser *p, const char *pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
IrCtx *p_ctx(Parser *p);
/* Is dialect (a namespace, without the dot) one that mlir-opt 22 registers? */
bool p_dialect_registered(Str dialect);
/* The error for a dialect type (sigil '!') or attribute ('#') of an unregistered dialect at pos,
 * in mlir-opt's words: text is what follows the sigil, as written; attr_type the attribute's
 * type, or NULL. False, unless the context allows unregistered dialects (true then). */
bool p_unregistered(Parser *p, const char *pos, char sigil, Str text, const char *attr_type);
/* Types, attributes and locations nest by recursion (`[[...]]`, `((i32))`, `!llvm.struct<(...)>`,
 * `fused[...]`): every recursive parse goes through p_nest_enter, which bounds the nesting at
 * P_MAX_NEST as p_region bounds regions, so that deep input is an error, not a stack overflow.
 * what names the thing in the error ("types"); p_nest_leave undoes a successful enter. */
#define P_MAX_NEST 256
bool p_nest_enter(Parser *p, const char *what);
void p_nest_leave(Parser *p);

bool p_operand(Parser *p, OperandRef *out);
bool p_opt_operand(Parser *p, OperandRef *out);
/* Comma-separated operands, none allowed; stops at the first token that is not %name. */
bool p_operand_list(Parser *p, OperandRef **out, uint32_t *n);
bool p_resolve(Parser *p, const OperandRef *ref, Type *type, Value **out);
/* Resolves refs with types (ntypes must be n, or 1 to give all the same type) onto st. */
bool p_resolve_onto(Parser *p, OpState *st, const OperandRef *refs, uint32_t n, Type **types,
                    uint32_t ntypes);

bool p_type(Parser *p, Type **out);
bool p_type_list(Parser *p, Type ***out, uint32_t *n);        /* t, t, ... (at least one) */
bool p_paren_type_list(Parser *p, Type ***out, uint32_t *n);  /* ( t, ... ) */
bool p_result_types(Parser *p, Type ***out, uint32_t *n);     /* t | (t, ...) | () */
bool p_attr(Parser *p, Type *type, Attr **out);
bool p_attr_dict(Parser *p, NamedAttr **out, uint32_t *n);   /* { name = attr, ... } */
bool p_opt_attr_dict(Parser *p, OpState *st);                  /* appended to st->attrs */
bool p_opt_attr_dict_with_keyword(Parser *p, OpState *st);     /* `attributes {...}` */
bool p_symbol(Parser *p, Str *out);                            /* @name */
bool p_int(Parser *p, int64_t *out);                           /* -?integer */
bool p_string(Parser *p, Str *out);
bool p_successor(Parser *p, Block **out);
bool p_successor_with_args(Parser *p, OpState *st, uint32_t *nargs); /* ^bb(%a : T, ...) */

/* A region; args (entry block arguments, already declared by the op's syntax) may be NULL. */
typedef struct RegionArg {
  OperandRef ref;
  Type *type;
  Loc *loc;
} RegionArg;
bool p_region(Parser *p, Region *out, RegionArg *args, uint32_t nargs, bool isolated);
Region *st_add_region(Parser *p, OpState *st);
void p_ensure_terminator(Parser *p, Region *r, const char *name, Loc *loc);
/* Appends a result-free op `name`(operands) to b: implicit terminators that carry values. */
Op *p_append_op(Parser *p, Block *b, const char *name, Loc *loc, Value *const *operands,
                uint32_t n);
/* (%a : T {attrs}?, ...) as a function signature; ellipsis reports *vararg when non-NULL. */
bool p_arg_list(Parser *p, RegionArg **args, uint32_t *n, NamedAttr ***arg_attrs, bool *vararg,
                bool allow_nameless);

void st_add_prop(Parser *p, OpState *st, const char *name, Attr *value);
void st_add_operand(Parser *p, OpState *st, Value *v);
void st_add_result_type(Parser *p, OpState *st, Type *t);
void st_set_segments(Parser *p, OpState *st, const uint32_t *sizes, uint32_t n);
Loc *p_loc_here(Parser *p);
void p_note_at(Parser *p, const char *pos, const char *msg); /* a note after an error */
Loc *p_loc_new(Parser *p, LocKind k);

/* What the type, attribute and location parsers share (syntax.c, types.c, attrs.c). */
typedef struct Vec {
  void **v;
  uint32_t n, cap;
} Vec;
void ir_vec_push(Vec *vec, void *x);
void **ir_vec_finish(IrCtx *ctx, Vec *vec); /* an arena copy; frees the vector */
void *ir_alias_find(Alias *tab, uint32_t n, const char *s, uint32_t len);
Str ir_normalize_body(IrCtx *ctx, const char *s, uint32_t len);
uint32_t ir_attr_hash(const Attr *a);
bool p_loc(Parser *p, Loc **out);              /* loc(...) */
bool p_expect_raw_less(Parser *p);
bool p_alias_def(Parser *p);
void p_defer_loc_alias(Parser *p, Loc *slot, const char *name, uint32_t len);
bool p_resolve_loc_aliases(Parser *p);
void p_free_aliases(Parser *p);
Str p_default_dialect(Parser *p);

/* ---- Printer -------------------------------------------------------------------------------- */

typedef struct Printer Printer;

void pr_str(Printer *pr, const char *s);
void pr_strn(Printer *pr, const char *s, size_t n);
void pr_fmt(Printer *pr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pr_char(Printer *pr, char c);
void pr_value(Printer *pr, const Value *v);
void pr_values(Printer *pr, Value *const *vs, uint32_t n); /* comma-separated */
void pr_type(Printer *pr, const Type *t);
void pr_types(Printer *pr, Type *const *ts, uint32_t n);   /* comma-separated */
void pr_value_types(Printer *pr, Value *const *vs, uint32_t n);
void pr_attr(Printer *pr, const Attr *a);
void pr_attr_no_type(Printer *pr, const Attr *a);          /* ints/floats without `: type` */
void pr_symbol(Printer *pr, Str name);
void pr_string(Printer *pr, Str s);
/* ` {a = ...}` of op->attrs plus props not listed in elide (NULL-terminated), if any remain. */
void pr_attr_dict(Printer *pr, const Op *op, const char *const *elide, bool with_keyword);
void pr_region(Printer *pr, Region *r, bool print_entry_args, bool print_empty_block);
/* pr_region leaving out the terminator that ends each block (MLIR's printBlockTerminators). */
void pr_region_no_terminators(Printer *pr, Region *r, bool print_entry_args);
void pr_successor(Printer *pr, Block *b, Value *const *args, uint32_t nargs);
void pr_block_arg_decl(Printer *pr, Value *v); /* %arg : T loc(...) */
void pr_loc_suffix(Printer *pr, Loc *loc);     /* ` loc(...)` when locations are printed */
bool pr_locations(Printer *pr);

/* ---- Op table ------------------------------------------------------------------------------- */

enum {
  OPF_ISOLATED = 1 << 0,     /* regions isolated from above: outer values are not visible */
  OPF_TERMINATOR = 1 << 1,
  OPF_NO_TERMINATOR = 1 << 2,/* single-block regions that need no terminator (module) */
  OPF_SYMBOL_TABLE = 1 << 3,
  OPF_GRAPH = 1 << 4,        /* graph regions: no dominance requirement (module bodies) */
  OPF_SYMBOL = 1 << 5,       /* defines a symbol (sym_name): its parent must be a symbol table */
  OPF_ATTR_SIZED = 1 << 6,   /* operandSegmentSizes sizes its operand groups */
};

typedef bool (*ParseFn)(Parser *p, OpState *st);
typedef bool (*PrintFn)(Printer *pr, Op *op); /* false: the op needs the generic form */

struct OpInfo {
  const char *name;
  ParseFn parse;
  PrintFn print;
  uint32_t flags;
  int nops, nres;        /* expected counts, -1 variadic */
  const char *dialect;   /* default dialect for ops nested in its regions, or NULL */
  const char *inherent;  /* space-separated inherent attribute names (moved into properties) */
};

const OpInfo *ir_op_info(Str name);

/* Flag sets (#arith.fastmath<...>, #llvm.overflow<...>, ...) in MLIR's order; other text as is. */
Str ir_canon_flags(IrCtx *ctx, Str text);

/* Flag clauses of custom forms (custom.c): `kw<a, b>` after the current keyword read as the
 * property value `#prefix<a, b>` (canonical order), and printed back as ` kw<a, b>`. */
bool p_flags_attr(Parser *p, const char *prefix, Attr **out);
bool pr_flags_fit(const Attr *a, const char *prefix); /* absent, or a `#prefix<...>` */
bool pr_flags(Printer *pr, const Attr *a, const char *prefix, const char *kw);

/* What several custom forms check (custom.c). */
bool ir_op_segments(const Op *op, int64_t *out, uint32_t n); /* operandSegmentSizes, summing right */
/* An `alignment` MLIR's memref ops take: a signless i64 that is a positive power of two. */
bool ir_alignment_ok(const Attr *a);
#define IR_ALIGNMENT_CONSTRAINT                                                                    \
  "attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0"
/* The checks of op semantics (verify_ops.c) on one op: the number of errors reported. */
unsigned ir_verify_ops(IrCtx *ctx, Op *op);
/* Two ranked shapes of the same rank whose static extents agree (a `?` matches anything). */
bool ir_shapes_compatible(const Type *a, const Type *b);
bool ir_region_ends_in_bare(const Region *r, const char *name); /* one block ending in a bare `name` */
bool ir_all_index(Value *const *vs, uint32_t n);
bool ir_values_typed(Value *const *vs, uint32_t n, const Type *t); /* all of type t */
/* Every property is an inherent attribute of the op (ops.def): those print in the attribute
 * dictionary and parse back into the properties. */
bool ir_op_props_inherent(const Op *op);
bool ir_op_info_inherent(const OpInfo *info, Str name); /* name is listed in ops.def */

/* dynamic-index-list ::= `[` (%v | integer) (`,` ...)* `]` (or in parentheses): the integers go
 * into the i64 array property prop_name (IR_DYNAMIC where a value stands), the values, of type
 * index, onto st; *ndyn counts them. pr_dynamic_index_list prints one from the array a and its
 * ndyn values dyn, or only checks that they agree when check is true (pr may then be NULL). Used
 * by memref's views and scf.forall; in custom_memref.c. */
bool p_dynamic_index_list(Parser *p, OpState *st, const char *prop_name, uint32_t *ndyn, bool parens);
bool pr_dynamic_index_list(Printer *pr, const Attr *a, Value *const *dyn, uint32_t ndyn, bool check,
                           bool parens);

/* `dense<...> : t` of the integers vals (n of them: every element, or one for a splat), with
 * values, splat and canonical text as parsing that literal gives; t is a vector or tensor of
 * integers or index. */
Attr *ir_attr_dense_ints(IrCtx *ctx, Type *t, const int64_t *vals, uint64_t n);

/* The shortest %e spelling of v that reads back to v at the precision of fk. */
void ir_format_float(char *buf, size_t n, double v, FloatKind fk);

/* `affine_map<...>` / `affine_set<...>` text as mlir-opt prints it (simplified as MLIR builds it,
 * dims d0.. and symbols s0..); text that does not parse as one comes back unchanged. */
Str ir_affine_canonicalize(IrCtx *ctx, Str text);

#define FORM(X) bool parse_##X(Parser *p, OpState *st); bool print_##X(Printer *pr, Op *op);
#include "ir/forms.def"
#undef FORM

#endif
