/* ptx.h - the PTX front end: PTX assembly text in, an in-memory module out.
 *
 * PTX is NVIDIA's virtual GPU assembly. This folder reads it as LLVM's NVPTX back end and
 * `nvcc -ptx` write it (ISA 6.0 to 9.0, targets sm_50 to sm_90a) and knows nothing of MLIR: the
 * caller hands over the text of a gpu.binary object or of a mgpuModuleLoad image together with a
 * name for it, and gets back a PtxModule or the first error, located by line and column in the
 * text. A later compiler turns the module into the kernel engine's executable form.
 *
 * What the module keeps (see docs/design.md, "PTX front end"):
 *   - the module header (.version, .target and its options, .address_size) and the .file table;
 *   - variables (.global, .const, .shared, .local; linkage, alignment, vector width, array
 *     dimensions, a flat initializer list) at module level and inside function bodies;
 *   - functions (.entry kernels and .func device functions, declarations and definitions) with
 *     their return and parameter lists and performance directives;
 *   - each body as a flat list of statements: register declarations, variables, labels, scope
 *     braces, call prototypes and instructions. An instruction is an opcode, its dotted modifiers
 *     in order, an optional guard predicate and its operands, with its place in the PTX text and
 *     the CUDA source place of the last .loc before it.
 * Registers are resolved while parsing: every register a function declares (one per name, or n for
 * the %r<n> form) has a dense number within the function, and a register operand carries that
 * number. Special registers (%tid.x, %laneid, ...) are named by an enum. Labels are resolved to
 * label numbers; other names (variables, functions, parameters) stay names, checked to exist.
 *
 * Everything lives in one arena owned by the module and dies with ptx_module_destroy. Names are
 * interned: two equal names are the same pointer. Parsing does not stop the process on bad input:
 * it returns NULL and fills a PtxError. */
#ifndef GPUINTERP_PTX_H
#define GPUINTERP_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Instruction opcodes, one line each in ptx/opcodes.def. */
typedef enum PtxOpcode {
#define PTX_OP(id, name) PTX_OP_##id,
#include "ptx/opcodes.def"
#undef PTX_OP
  PTX_OP_COUNT
} PtxOpcode;

/* Fundamental types (as modifiers, .reg types and variable types), in ptx/types.def. */
typedef enum PtxType {
  PTX_T_NONE,
#define PTX_TYPE(id, name, bits) PTX_T_##id,
#include "ptx/types.def"
#undef PTX_TYPE
  PTX_T_COUNT
} PtxType;

/* State spaces. */
typedef enum PtxSpace {
  PTX_SPACE_NONE, /* generic (no space named) */
  PTX_SPACE_REG,
  PTX_SPACE_SREG,
  PTX_SPACE_CONST,
  PTX_SPACE_GLOBAL,
  PTX_SPACE_LOCAL,
  PTX_SPACE_PARAM,
  PTX_SPACE_SHARED,
  PTX_SPACE_TEX,
  PTX_SPACE_COUNT
} PtxSpace;

/* Special registers, in ptx/sregs.def. */
typedef enum PtxSreg {
#define PTX_SREG(id, name, vec) PTX_SREG_##id,
#include "ptx/sregs.def"
#undef PTX_SREG
  PTX_SREG_COUNT
} PtxSreg;

typedef enum PtxLinkage {
  PTX_LINK_NONE, /* local to the module */
  PTX_LINK_VISIBLE,
  PTX_LINK_EXTERN,
  PTX_LINK_WEAK,
  PTX_LINK_COMMON,
} PtxLinkage;

/* A dotted modifier of an instruction, as written (without the dot), with what it is when it names
 * a type or a state space. `shared::cta` is one modifier named "shared::cta" with space SHARED. */
typedef enum PtxModKind { PTX_MOD_OTHER, PTX_MOD_TYPE, PTX_MOD_SPACE, PTX_MOD_VEC } PtxModKind;
typedef struct PtxMod {
  const char *name; /* interned, without the leading dot */
  uint8_t kind;     /* PtxModKind */
  uint8_t value;    /* PtxType, PtxSpace, or the vector width (2, 4, 8) */
} PtxMod;

typedef struct PtxRegDecl PtxRegDecl;

typedef enum PtxOperandKind {
  PTX_OPD_REG,    /* a declared register: reg (and decl, index) */
  PTX_OPD_SREG,   /* a special register: sreg, comp */
  PTX_OPD_INT,    /* an integer immediate: ival (two's complement bits) */
  PTX_OPD_F32,    /* a single-precision immediate: bits in ival (0fXXXXXXXX, or a decimal literal) */
  PTX_OPD_F64,    /* a double-precision immediate: bits in ival (0dXXXXXXXXXXXXXXXX) */
  PTX_OPD_SYM,    /* a variable, function, parameter or prototype name: name */
  PTX_OPD_LABEL,  /* a label of the enclosing function: label (index into PtxFunc.labels), name */
  PTX_OPD_ADDR,   /* [base+offset]: base (REG, SREG or SYM, or NULL for an absolute address), ival */
  PTX_OPD_VEC,    /* {a, b, ...}: n elems */
  PTX_OPD_LIST,   /* (a, b, ...) of a call: n elems */
  PTX_OPD_PAIR,   /* a|b, the two results of setp and shfl: elems[0], elems[1] */
  PTX_OPD_SINK,   /* _ */
} PtxOperandKind;

typedef struct PtxOperand {
  uint8_t kind;    /* PtxOperandKind */
  bool neg;        /* !%p: the predicate's negation */
  uint8_t comp;    /* vector component .x .y .z .w as 1..4 (0: whole register) */
  uint8_t sreg;    /* PtxSreg for PTX_OPD_SREG */
  uint32_t n;      /* element count for VEC and LIST; register number for REG */
  union {
    int64_t ival;              /* INT, F32, F64 bits; ADDR offset */
    const char *name;          /* SYM, LABEL */
  };
  union {
    const PtxRegDecl *decl;    /* REG: the declaration */
    struct PtxOperand *elems;  /* VEC, LIST, PAIR */
    struct PtxOperand *base;   /* ADDR */
    uint32_t label;            /* LABEL */
  };
  uint32_t line, col;          /* where the operand starts in the PTX text */
} PtxOperand;

/* A .reg declaration: one register `name`, or `count` registers name0..name(count-1) when range. */
struct PtxRegDecl {
  const char *name; /* interned; the prefix for the %r<n> form */
  uint32_t first;   /* the dense number of the first register within the function */
  uint32_t count;   /* registers declared (1 unless range) */
  uint8_t type;     /* PtxType */
  uint8_t vec;      /* .v2/.v4 width, 0 for a scalar */
  bool range;       /* declared as name<count> */
};

/* A constant in a variable initializer. Braces are flattened in declaration order. */
typedef enum PtxInitKind { PTX_INIT_INT, PTX_INIT_F32, PTX_INIT_F64, PTX_INIT_SYM, PTX_INIT_GENERIC } PtxInitKind;
typedef struct PtxInit {
  uint8_t kind;      /* PtxInitKind; SYM is an address, GENERIC a generic(name) address */
  int64_t ival;      /* the value or bits; the byte offset for SYM and GENERIC (name+4) */
  uint64_t mask;     /* SYM, GENERIC: 0 for the whole address; 0xFF << 8k for its byte k (0xFF00(name)) */
  const char *name;  /* SYM, GENERIC */
} PtxInit;

/* A variable or parameter. */
typedef struct PtxVar {
  const char *name;     /* interned */
  uint8_t space;        /* PtxSpace */
  uint8_t linkage;      /* PtxLinkage */
  uint8_t type;         /* PtxType */
  uint8_t vec;          /* .v2/.v4 width, 0 for a scalar */
  uint8_t ptr_space;    /* a .param .ptr's pointee space (PTX_SPACE_NONE: generic) */
  bool ptr;             /* .ptr attribute of a kernel parameter */
  bool unsized;         /* the first dimension is [] (e.g. extern dynamic shared memory) */
  uint8_t ndims;        /* array dimensions, up to 4 */
  uint32_t align;       /* .align value, 0 when not given */
  uint64_t dims[4];     /* array dimensions (dims[0] is 0 when unsized) */
  uint32_t ninit;       /* initializer constants, 0 when none */
  PtxInit *init;
  uint32_t line, col;
} PtxVar;

/* A function signature: returns and parameters (also the body of a .callprototype). */
typedef struct PtxSig {
  uint32_t nrets, nparams;
  PtxVar *rets, *params;
} PtxSig;

typedef struct PtxInsn {
  uint16_t op;            /* PtxOpcode */
  uint8_t nmods, nopds;
  bool has_guard;
  PtxOperand guard;       /* @%p / @!%p: a REG operand, neg set for @! */
  PtxMod *mods;
  PtxOperand *opds;
  uint32_t line, col;     /* place in the PTX text */
  uint32_t loc_file, loc_line, loc_col; /* the last .loc before it (loc_file 0: none) */
} PtxInsn;

typedef enum PtxStmtKind {
  PTX_STMT_INSN,
  PTX_STMT_LABEL,    /* label: index into PtxFunc.labels */
  PTX_STMT_REG,      /* reg: a .reg declaration */
  PTX_STMT_VAR,      /* var: a variable declared in the body (.local, .shared, .param, ...) */
  PTX_STMT_OPEN,     /* { opens a scope */
  PTX_STMT_CLOSE,    /* } closes it */
  PTX_STMT_PROTO,    /* proto: name: .callprototype ... */
  PTX_STMT_PRAGMA,   /* pragma: .pragma "text"; */
} PtxStmtKind;

typedef struct PtxProto {
  const char *name;
  PtxSig sig;
} PtxProto;

typedef struct PtxStmt {
  uint8_t kind; /* PtxStmtKind */
  union {
    PtxInsn insn;
    uint32_t label;
    const PtxRegDecl *reg;
    const PtxVar *var;
    const PtxProto *proto;
    const char *pragma;
  };
} PtxStmt;

typedef struct PtxLabel {
  const char *name;
  uint32_t stmt; /* index of the PTX_STMT_LABEL statement in PtxFunc.stmts */
} PtxLabel;

/* Performance directives; 0 when not given. */
typedef struct PtxPerf {
  uint32_t maxntid[3], reqntid[3];
  uint32_t minnctapersm, maxnreg, maxclusterrank;
  uint32_t reqnctapercluster[3];
  bool explicitcluster;
} PtxPerf;

typedef struct PtxFunc {
  const char *name;
  bool entry;            /* .entry (a kernel), else .func */
  bool defined;          /* has a body (else a declaration ending in ';') */
  bool noreturn;
  uint8_t linkage;       /* PtxLinkage */
  PtxSig sig;
  PtxPerf perf;
  uint32_t npragmas;
  const char **pragmas;  /* .pragma strings in the header */
  uint32_t nstmts, nlabels, nregs; /* nregs: registers numbered 0..nregs-1 */
  PtxStmt *stmts;
  PtxLabel *labels;
  uint32_t line, col;
} PtxFunc;

typedef enum PtxDeclKind { PTX_DECL_VAR, PTX_DECL_FUNC } PtxDeclKind;
typedef struct PtxDecl {
  uint8_t kind; /* PtxDeclKind */
  union {
    PtxVar *var;
    PtxFunc *func;
  };
} PtxDecl;

typedef struct PtxModule {
  const char *bufname;              /* the caller's name for the text, for messages */
  uint32_t version_major, version_minor;
  const char *target;               /* e.g. "sm_90a" */
  bool texmode_independent, debug, map_f64_to_f32;
  uint32_t address_size;            /* 32 or 64; 0 when not given */
  uint32_t ndecls;                  /* module-level declarations in order */
  PtxDecl *decls;
  uint32_t nfiles;                  /* .file table: files[i] for index i (NULL where absent) */
  const char **files;
  struct PtxArena *arena;
} PtxModule;

/* The first error of a parse: where (1-based line and column, in bytes) and what. */
typedef struct PtxError {
  const char *bufname; /* the name given to ptx_parse */
  uint32_t line, col;
  char msg[240];
} PtxError;

/* Parses len bytes of PTX text (need not be NUL-terminated; NUL bytes at its end are ignored, a NUL
 * inside is an error) named bufname (kept by pointer; it must outlive the module and the error).
 * Returns NULL and fills *err on the first error. */
PtxModule *ptx_parse(const char *bufname, const char *text, size_t len, PtxError *err);
void ptx_module_destroy(PtxModule *m);

/* Writes "bufname:line:col: error: msg" (no newline) into buf; returns what snprintf returns. */
int ptx_error_format(const PtxError *err, char *buf, size_t size);

/* Prints the module in a canonical PTX form: one declaration or statement per line, modifiers and
 * operands as parsed, comments and debug sections dropped. Printing what this prints parses to the
 * same print. Returns 0, or -1 when writing failed. */
int ptx_print(FILE *f, const PtxModule *m);

/* Lookups. */
const PtxFunc *ptx_module_func(const PtxModule *m, const char *name);
const PtxVar *ptx_module_var(const PtxModule *m, const char *name);
bool ptx_insn_has_mod(const PtxInsn *insn, const char *name); /* name without the dot */
PtxType ptx_insn_type(const PtxInsn *insn, unsigned nth);      /* nth type modifier, PTX_T_NONE if fewer */
PtxSpace ptx_insn_space(const PtxInsn *insn);                  /* the first space modifier, or NONE */

/* Names of enum values, as PTX spells them (without the dot or %). */
const char *ptx_opcode_name(PtxOpcode op);
const char *ptx_type_name(PtxType t);
unsigned ptx_type_bits(PtxType t);
const char *ptx_space_name(PtxSpace s);
const char *ptx_sreg_name(PtxSreg s);

#endif
