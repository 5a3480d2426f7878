/* ir.h - the MLIR text front end: context, types, attributes, locations, operations, parser,
 * printer, verifier and diagnostics.
 *
 * Everything here lives in an arena owned by an IrCtx and dies with it: nothing is freed one by
 * one. Types are interned (two equal types are the same pointer). Attributes and locations are
 * plain trees in the arena. An operation is stored the way MLIR's generic form spells it:
 *
 *   %r:2 = "dialect.op"(%a, %b)[^succ] <{props}> ({regions}) {attrs} : (A, B) -> (R, S) loc(...)
 *
 * so any op round-trips even when the front end knows nothing of it. Ops the front end knows
 * (ir/ops.def) also have their custom assembly: parsing it yields exactly the generic form MLIR
 * would give (inherent attributes in properties, operandSegmentSizes where MLIR has them), and
 * printing prefers it unless the generic form is asked for.
 */
#ifndef IR_IR_H
#define IR_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct IrCtx IrCtx;
typedef struct Type Type;
typedef struct Attr Attr;
typedef struct Loc Loc;
typedef struct Op Op;
typedef struct Value Value;
typedef struct Use Use;
typedef struct Block Block;
typedef struct Region Region;
typedef struct OpInfo OpInfo;

/* Interned string: pointer equality is string equality for strings from ir_intern. */
typedef struct Str {
  const char *s;
  uint32_t len;
} Str;

IrCtx *ir_ctx_create(void);
void ir_ctx_destroy(IrCtx *ctx);
/* Whether the parser accepts ops, types and attributes of dialects MLIR does not have, kept as
 * they are written (mlir-opt's --allow-unregistered-dialect). Off by default: such input is an
 * error, in mlir-opt's words. */
void ir_ctx_allow_unregistered(IrCtx *ctx, bool allow);
void *ir_alloc(IrCtx *ctx, size_t bytes);   /* zeroed, 16-byte aligned, lives with ctx */
Str ir_intern(IrCtx *ctx, const char *s, size_t len);
Str ir_intern_cstr(IrCtx *ctx, const char *s);
/* a == s; inline, since op and attribute names are compared everywhere: the loop stops at the
 * first difference, and never reads past s's terminator. */
static inline bool ir_str_eq(Str a, const char *s) {
  for (uint32_t i = 0; i < a.len; i++)
    if (s[i] != a.s[i] || !s[i])
      return false;
  return s[a.len] == '\0';
}

/* ---- Types ---------------------------------------------------------------------------------- */

typedef enum TypeKind {
  TY_INT,            /* width, signedness */
  TY_INDEX,
  TY_FLOAT,          /* fkind */
  TY_NONE,
  TY_FUNC,           /* inputs -> results */
  TY_TUPLE,          /* elems */
  TY_COMPLEX,        /* elem */
  TY_VECTOR,         /* shape (scalable flags), elem */
  TY_TENSOR,         /* shape (ranked) or unranked, elem, encoding */
  TY_MEMREF,         /* shape, elem, layout, memspace */
  TY_UNRANKED_MEMREF,/* elem, memspace */
  TY_GPU_TOKEN,      /* !gpu.async.token */
  TY_ASYNC_TOKEN,    /* !async.token */
  TY_ASYNC_VALUE,    /* !async.value<elem> */
  TY_ASYNC_GROUP,    /* !async.group */
  TY_LLVM_PTR,       /* addrspace */
  TY_LLVM_VOID,
  TY_LLVM_STRUCT,    /* name (may be empty), packed, elems; opaque when named without body */
  TY_LLVM_ARRAY,     /* count, elem */
  TY_LLVM_FUNC,      /* result, params, vararg */
  TY_LLVM_TOKEN,
  TY_OPAQUE,         /* any other !dialect.name<...>: kept as text */
} TypeKind;

typedef enum FloatKind {
  F_F16, F_BF16, F_F32, F_F64, F_F80, F_F128, F_TF32,
  F_F8E5M2, F_F8E4M3FN, F_F8E5M2FNUZ, F_F8E4M3FNUZ, F_F8E4M3B11FNUZ, F_F8E4M3, F_F8E3M4,
  F_F8E8M0FNU, F_F6E2M3FN, F_F6E3M2FN, F_F4E2M1FN,
} FloatKind;

typedef enum Signedness { SIGNLESS, SIGNED, UNSIGNED } Signedness;

#define IR_DYNAMIC INT64_MIN /* a `?` dimension, stride or offset */

struct Type {
  TypeKind kind;
  uint32_t hash;
  union {
    struct { uint32_t width; Signedness sign; } i;
    FloatKind f;
    struct { Type **in, **out; uint32_t nin, nout; } fn;
    struct { Type **elems; uint32_t n; bool packed, opaque, named; Str name; } agg; /* tuple, struct */
    struct {
      int64_t *shape; bool *scalable; uint32_t rank; bool unranked;
      Type *elem; Attr *layout; Attr *memspace; /* memspace doubles as tensor encoding */
    } sh;                                       /* vector, tensor, memref, unranked memref */
    struct { Type *elem; uint64_t count; } arr; /* llvm.array, complex, async.value */
    struct { uint32_t addrspace; } ptr;
    struct { Type *ret; Type **params; uint32_t nparams; bool vararg; } lfn;
    struct { Str dialect; Str body; } opq;      /* !dialect.body, body includes any <...> */
  } u;
};

Type *ir_type_int(IrCtx *ctx, uint32_t width, Signedness sign);
Type *ir_type_index(IrCtx *ctx);
Type *ir_type_float(IrCtx *ctx, FloatKind fk);
Type *ir_type_simple(IrCtx *ctx, TypeKind kind); /* none, tokens, llvm.void, llvm.token, async.group */
Type *ir_type_func(IrCtx *ctx, Type **in, uint32_t nin, Type **out, uint32_t nout);
Type *ir_type_llvm_ptr(IrCtx *ctx, uint32_t addrspace);
Type *ir_type_intern(IrCtx *ctx, const Type *proto); /* general interning of a filled-in Type */
bool ir_type_is_integer(const Type *t, uint32_t width); /* signless iN (width 0: any signless) */
bool ir_type_is_float(const Type *t);
uint32_t ir_float_width(FloatKind fk);
const char *ir_float_name(FloatKind fk);
double ir_float_round(FloatKind fk, double v); /* nearest value of the type */

/* ---- Attributes ----------------------------------------------------------------------------- */

typedef enum AttrKind {
  ATTR_INT,         /* ival (value as two's complement in 64 bits) or big (decimal text) + type */
  ATTR_FLOAT,       /* fval + type; bits for NaN/inf exactness */
  ATTR_BOOL,        /* bval: true/false (i1 integers print as true/false too) */
  ATTR_STRING,      /* bytes (len), optional type */
  ATTR_UNIT,
  ATTR_ARRAY,       /* elems */
  ATTR_DICT,        /* entries sorted by name */
  ATTR_DENSE_ARRAY, /* array<i32: 1, 2>: elem type + raw values (int64 or double) */
  ATTR_DENSE,       /* dense<...> : type; text of the literal kept normalized */
  ATTR_TYPE,        /* a type used as an attribute */
  ATTR_SYMREF,      /* @root::@nested... */
  ATTR_AFFINE_MAP,  /* affine_map<...> text, normalized spacing */
  ATTR_INTEGER_SET, /* affine_set<...> text */
  ATTR_STRIDED,     /* strided<[s...], offset: o> */
  ATTR_OPAQUE,      /* #dialect.name<...> or #dialect<...>: text kept */
  ATTR_LOC,         /* a location used as an attribute */
  ATTR_DENSE_RESOURCE, /* dense_resource<name> : type */
  ATTR_SPARSE,      /* sparse<...> : type, text kept */
} AttrKind;

typedef struct NamedAttr {
  Str name;
  Attr *value;
} NamedAttr;

struct Attr {
  AttrKind kind;
  Type *type; /* int, float, dense, string (optional), dense array element type */
  union {
    struct { int64_t v; const char *big; } i;
    struct { double v; uint64_t bits; bool has_bits; } f;
    bool b;
    Str str;                                      /* string bytes; opaque/affine text */
    struct {
      Str text;      /* canonical `dense<...>` (overlays str) */
      int64_t *ivals; /* integer elements, or NULL */
      double *fvals;  /* float elements, or NULL */
      uint64_t n;     /* number of elements stored (1 for a splat) */
      bool splat;
    } dense;
    struct { Attr **elems; uint32_t n; } arr;
    struct { NamedAttr *entries; uint32_t n; } dict;
    struct { int64_t *ivals; double *fvals; uint32_t n; } darr;
    struct { Str *path; uint32_t n; } sym;        /* path[0] is the root */
    struct { int64_t *strides; uint32_t n; int64_t offset; bool has_offset; } strided;
    Loc *loc;
  } u;
};

Attr *ir_attr_int(IrCtx *ctx, Type *type, int64_t v);
Attr *ir_attr_bool(IrCtx *ctx, bool v);
Attr *ir_attr_unit(IrCtx *ctx);
Attr *ir_attr_string(IrCtx *ctx, const char *s, size_t len);
Attr *ir_attr_type(IrCtx *ctx, Type *t);
Attr *ir_attr_symref(IrCtx *ctx, Str *path, uint32_t n);
Attr *ir_attr_array(IrCtx *ctx, Attr **elems, uint32_t n);
Attr *ir_attr_dict(IrCtx *ctx, NamedAttr *entries, uint32_t n); /* sorts; duplicate names: last wins */
Attr *ir_attr_dense_i32(IrCtx *ctx, const int64_t *vals, uint32_t n); /* array<i32: ...> */
Attr *ir_attr_dense_i64(IrCtx *ctx, const int64_t *vals, uint32_t n); /* array<i64: ...> */
bool ir_attr_is_dense_i64(const Attr *a);
Attr *ir_dict_get(const Attr *dict, const char *name);
Attr *ir_dict_set(IrCtx *ctx, Attr *dict, Str name, Attr *value); /* new dict; value NULL removes */
bool ir_attr_equal(const Attr *a, const Attr *b);

/* ---- Locations ------------------------------------------------------------------------------ */

typedef enum LocKind { LOC_UNKNOWN, LOC_FILE, LOC_NAME, LOC_FUSED, LOC_CALLSITE, LOC_OPAQUE } LocKind;

struct Loc {
  LocKind kind;
  Str file;              /* LOC_FILE: file; LOC_NAME: the name; LOC_OPAQUE: text */
  uint32_t line, col;    /* LOC_FILE */
  uint32_t end_line, end_col; /* LOC_FILE ranges (0 when absent) */
  Loc **kids;            /* LOC_NAME: child (n 0 or 1); LOC_FUSED: parts; LOC_CALLSITE: callee, caller */
  uint32_t n;
  Attr *metadata;        /* LOC_FUSED<metadata> */
};

Loc *ir_loc_file(IrCtx *ctx, Str file, uint32_t line, uint32_t col);
/* The first file:line:col inside loc (through names, fused, callsites), or NULL. */
const Loc *ir_loc_file_of(const Loc *loc);

/* ---- Operations, values, blocks, regions ---------------------------------------------------- */

struct Use {
  Op *user;
  uint32_t index; /* operand index */
  Use *next;
};

struct Value {
  Type *type;
  Op *def;        /* defining op, or NULL for a block argument */
  Block *block;   /* owning block, for block arguments */
  uint32_t index; /* result or argument number */
  Use *uses;
  Loc *loc;       /* block argument location, NULL if none */
  uint32_t id;    /* scratch number for the printer */
};

struct Block {
  Region *parent;
  Block *next;
  Value *args;
  uint32_t nargs;
  Op *first, *last;
  uint32_t id;    /* scratch number for the printer */
};

struct Region {
  Op *parent;
  Block *first, *last;
};

struct Op {
  const OpInfo *info; /* NULL: an op the front end does not know */
  Str name;           /* "dialect.op" */
  Loc *loc;           /* the op's location: explicit loc(...) or where it was in the source */
  Loc *src;           /* where it was in the source (for diagnostics), may equal loc */
  Value **operands;
  Use *operand_uses;  /* one per operand, threaded into the operand's use list */
  Value *results;
  Block **succs;
  Region *regions;
  Attr *props;        /* <{...}>: a dictionary (or any attribute), NULL if none */
  Attr *attrs;        /* {...}: discardable attributes, NULL if none */
  uint32_t noperands, nresults, nsuccs, nregions;
  Block *parent;
  Op *prev, *next;
  uint32_t order;     /* scratch: position in its block, set by the verifier */
};

/* Inherent or discardable attribute by name: properties first, then attributes. */
Attr *ir_op_attr(const Op *op, const char *name);
Op *ir_op_parent_op(const Op *op);
/* Symbol lookup: the op with sym_name == name directly inside table's first region. */
Op *ir_symbol_lookup(const Op *table, Str name);

/* ---- Building and rewriting (ir/build.c) ----------------------------------------------------
 *
 * An op made by ir_op_new is like a parsed one: operands threaded into use lists, props a
 * dictionary (or NULL) exactly as the generic form would give it, nregions empty regions. It is
 * in no block until inserted. Erasing unlinks an op and drops the uses its operands (and those of
 * the ops nested in it) hold; its results must have no uses left. */
Op *ir_op_new(IrCtx *ctx, const char *name, Loc *loc, Value *const *operands, uint32_t noperands,
              Type *const *result_types, uint32_t nresults, Attr *props, uint32_t nregions);
void ir_op_insert_before(Op *at, Op *op);
void ir_op_insert_after(Op *at, Op *op);
void ir_block_push_back(Block *b, Op *op);
void ir_op_erase(Op *op);
/* Erases n ops at once, in time linear in their operands and in the use lists they are on
 * (ir_op_erase one at a time walks a value's use list for each of its erased users). */
void ir_ops_erase(Op *const *ops, size_t n);
void ir_op_set_operand(Op *op, uint32_t i, Value *v);
void ir_value_replace_uses(Value *from, Value *to);
Attr *ir_attr_opaque(IrCtx *ctx, const char *text); /* #dialect.name<...> kept as text */
Type *ir_type_llvm_struct(IrCtx *ctx, Type **elems, uint32_t n); /* literal, not packed */
Type *ir_type_llvm_array(IrCtx *ctx, Type *elem, uint64_t count);
Type *ir_type_llvm_func(IrCtx *ctx, Type *ret, Type **params, uint32_t n);

/* ---- Diagnostics ---------------------------------------------------------------------------- */

typedef enum DiagSeverity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE, DIAG_REMARK } DiagSeverity;

/* Diagnostics are written as they come, in mlir-opt's shape:
 *   prog.mlir:12:5: error: 'gpu.wait' op ...
 *   <the source line>
 *       ^
 * followed by note lines. Source lines are shown for files the context has read. */
void ir_diag_set_stream(IrCtx *ctx, FILE *out);
/* A hook that rewrites each message before it is written or checked: it returns the new text
 * (malloc'd; the caller frees it) or NULL to keep the message. The runtime's messages quote
 * sites as 'file:line:col'; the CLI's hook (tools/sites.c) names the op there instead. */
typedef char *(*IrDiagRewrite)(void *user, const Loc *loc, const char *msg);
void ir_diag_set_rewrite(IrCtx *ctx, IrDiagRewrite fn, void *user);
void ir_diag(IrCtx *ctx, DiagSeverity sev, const Loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void ir_op_error(IrCtx *ctx, const Op *op, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Where diagnostics about op point: its location when that names a file, else where it was parsed. */
const Loc *ir_op_loc(const Op *op);
/* The message alone (no "'name' op" prefix) at op's location. */
void ir_op_diag(IrCtx *ctx, DiagSeverity sev, const Op *op, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
unsigned ir_error_count(const IrCtx *ctx);
/* The closing summary: every error and warning written so far by this process (notes are not
 * counted; diagnostics that --verify-diagnostics matched are not written, so not counted). Writes
 * "PREFIX: 1 error, 2 warnings" (only the counts that are not zero) and returns true, or writes
 * nothing and returns false when there were none. ir_diag_count_printed counts a diagnostic
 * written some other way (a usage error); ir_diag_summary_text formats counts. */
bool ir_diag_summary(FILE *out, const char *prefix);
void ir_diag_count_printed(DiagSeverity sev);
/* Line `line` of file (a buffer the context read, else the file on disk, read once), without its
 * newline: its text and *len, or NULL. */
const char *ir_diag_source_line(IrCtx *ctx, Str file, uint32_t line, size_t *len);
void ir_diag_summary_text(unsigned errors, unsigned warnings, char *buf, size_t n);

/* --verify-diagnostics (ir/expect.c), as mlir-opt has it: from ir_expect_begin to ir_expect_end,
 * the context's diagnostics are matched against the `expected-error@+1 {{text}}` directives of
 * text (the buffer the parser is then given, under filename) instead of being written; those no
 * directive expects are written as "unexpected error: ...". ir_expect_end writes each directive
 * nothing matched and returns the number of mismatches (0: the diagnostics were as expected). */
typedef struct IrExpect IrExpect;
IrExpect *ir_expect_begin(IrCtx *ctx, const char *filename, const char *text, size_t len);
/* The same for a part of a file that starts at line:col (as ir_parse_part). */
IrExpect *ir_expect_begin_part(IrCtx *ctx, const char *filename, const char *text, size_t len, uint32_t line,
                               uint32_t col);
unsigned ir_expect_end(IrExpect *e);

/* ---- Parse, verify, print ------------------------------------------------------------------- */

/* Parses a whole file (buffer need not be NUL-terminated; it is copied). Returns the top-level
 * builtin.module (an implicit one wraps top-level ops that are not a single module), or NULL
 * after reporting every error it could find. */
Op *ir_parse(IrCtx *ctx, const char *filename, const char *text, size_t len);
/* Parses text where it lies, without a copy: text[len] must be '\0', and text must outlive ctx.
 * text starts at line:col of the file (1, 1 for a whole file; later for one program of
 * --split-input-file's), and diagnostics give the file's positions, so that a part need not be
 * padded with what comes before it (which would make splitting quadratic). */
Op *ir_parse_part(IrCtx *ctx, const char *filename, const char *text, size_t len, uint32_t line, uint32_t col);
Op *ir_parse_file(IrCtx *ctx, const char *path); /* "-" reads stdin */

/* Structural verification: every use defined and dominating, terminators present, operand and
 * result counts and types of known ops. Returns the number of errors reported. */
unsigned ir_verify(IrCtx *ctx, Op *top);

typedef struct PrintOptions {
  bool generic;   /* generic form for every op */
  bool locations; /* print loc(...) for every op and block argument */
} PrintOptions;

void ir_print(IrCtx *ctx, FILE *out, Op *top, const PrintOptions *opts);
const char *ir_type_str(IrCtx *ctx, const Type *t); /* for messages; lives with ctx */
const char *ir_attr_str(IrCtx *ctx, const Attr *a); /* likewise */

#endif
