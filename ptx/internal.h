/* internal.h - what the files of ptx/ share: the arena, the name table and the lexer. */
#ifndef GPUINTERP_PTX_INTERNAL_H
#define GPUINTERP_PTX_INTERNAL_H

#include "ptx/ptx.h"

/* --- arena (module.c) --- */
typedef struct PtxArena PtxArena;
PtxArena *ptx_arena_create(void);
void ptx_arena_destroy(PtxArena *a);
void *ptx_alloc(PtxArena *a, size_t bytes); /* zeroed, 8-byte aligned; never NULL (aborts when out of memory) */
void *ptx_dup(PtxArena *a, const void *p, size_t bytes);

/* --- interned names (module.c) ---
 * One Name per distinct spelling. Besides the string, a Name carries what the parser learns about
 * the spelling, so each lookup is one hash probe: its class as a modifier or opcode (computed on
 * first use), the register it is bound to in the current scope, its label number in the current
 * function, and whether a symbol of that name exists. */
enum { NAME_GLOBAL = 1, NAME_LOCAL = 2, NAME_TOUCHED = 4 };
typedef struct Name {
  const char *s;
  uint32_t len, hash;
  bool classified;          /* mod_kind, mod_value, op, sreg are valid */
  uint8_t mod_kind, mod_value;
  int16_t op;               /* PtxOpcode, or -1 */
  int16_t sreg;             /* PtxSreg, or -1 */
  uint8_t flags;            /* NAME_* */
  PtxRegDecl *reg;          /* the binding in the innermost scope, or NULL */
  uint32_t reg_depth;       /* the scope depth of that binding */
  uint32_t label;           /* label number + 1 in the current function, 0 when none */
  uint32_t label_line, label_col;
} Name;

typedef struct NameTab {
  Name **slots;
  uint32_t cap, count;
} NameTab;

Name *name_intern(NameTab *t, PtxArena *a, const char *s, uint32_t len);
Name *name_find(const NameTab *t, const char *s, uint32_t len); /* NULL when never interned */
void name_tab_free(NameTab *t);
void name_classify(Name *n); /* fills mod_kind, mod_value, op, sreg */

/* --- lexer (lexer.c) --- */
typedef enum TokKind {
  T_EOF,
  T_IDENT,   /* foo, %r1, $L__BB0_1, __$temp3, _ */
  T_DOTNAME, /* .u32, .shared::cta (text includes the dot) */
  T_INT,     /* value in u */
  T_F32,     /* 0fXXXXXXXX: bits in u */
  T_F64,     /* 0dXXXXXXXXXXXXXXXX, or a decimal literal (1.5, 2e3): bits in u */
  T_STRING,  /* "..." (text includes the quotes) */
  T_PUNCT,   /* one character: , ; : ( ) [ ] { } < > + - ! @ | = */
  T_ERROR,   /* lexer error: msg in Lexer.err */
} TokKind;

typedef struct Token {
  uint8_t kind;
  bool space_before; /* whitespace or a comment separates it from the previous token */
  char punct;
  const char *s;
  uint32_t len;
  uint32_t line, col;
  uint64_t u;
} Token;

typedef struct Lexer {
  const char *p, *end, *line_start;
  uint32_t line;
  const char *err;
  char errbuf[48]; /* err points here when the message names the byte */
} Lexer;

void ptx_lex_init(Lexer *lx, const char *text, size_t len);
Token ptx_lex_next(Lexer *lx);

#endif
