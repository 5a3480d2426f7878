/* ptx_internal.h - what the PTX kernel compiler's files (kernel_ptx.c, ptx_*.c) share: the
 * compiled instruction (PIns) and its operands (POpd), the compile state (PComp) and its blocks,
 * the affine, uniform and asynchronous state, the small helpers the files' lane loops inline, and
 * the functions one file calls in another. Private to kernel/. */
#ifndef KERNEL_PTX_INTERNAL_H
#define KERNEL_PTX_INTERNAL_H

#include "kernel/internal.h"
#include "kernel/kernel_fp.h"
#include "ptx/ptx.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARP 32
#define EXIT_PC UINT32_MAX
#define MAXN 1024 /* threads of a block (kernel_launch's limit) */
/* Device functions are inlined: each call compiles the callee's body in place, between the call's
 * block and the block after it (so that threads that skip the call wait for those that make it
 * where the call ends, as the engine reconverges). A function's registers and its body's .local and
 * .param variables are one storage per function and level of recursion (PLayout): non-recursive
 * activations of a function never overlap in a thread, so every call site shares it, and the k-th
 * activation of a function on the chain of calls has storage of its own. A .func's parameters and
 * returns are the caller's .param variables named in the call (the callee reads and writes them
 * in place). */
#define CALL_DEPTH 32       /* calls nested at most; a call deeper than this is an error when it runs */
#define INLINE_MAX 200000u  /* instructions the kernel and its inlined calls have at most */

/* ---- compiled instructions ---------------------------------------------------------------- */

enum { O_NONE, O_REG, O_IMM, O_SREG, O_UREG };

/* An operand: a register's column (width bits), a uniform register's word (O_UREG: see
 * "uniform registers" in ptx_affine.c), an immediate, or a special register. */
typedef struct POpd {
  uint8_t kind, sreg, comp; /* comp 0..2: x, y, z */
  bool neg;                 /* !%p */
  uint8_t width;            /* a register's declared bits (O_REG) */
  uint32_t word;
  uint64_t imm;
} POpd;

typedef struct PIns {
  KFn run;          /* ptx_x_guard: what runs for the threads the guard lets through */
  POpd guard;
  uint8_t t, t2;    /* the first and second type modifiers */
  uint8_t space;    /* memory: PtxSpace */
  uint8_t mode;     /* what the instruction does: an M_* of its family */
  uint8_t combine;  /* setp .and/.or/.xor: 1, 2, 3 */
  bool ftz, sat;
  bool relu, satfinite, nan; /* float results: .relu, .satfinite; min/max: .NaN */
  uint8_t rnd;      /* float arithmetic and cvt: the rounding (KFP_*) + 1, 0 when the default */
  uint8_t fmt;      /* f16 and bf16 instructions: the format (KFP_F16, KFP_BF16) */
  uint8_t nd, ns;
  POpd d[4], s[5];  /* destinations (registers), sources */
  uint32_t bytes;   /* memory: bytes per element */
  int64_t off;      /* memory: the address's constant offset */
  uint32_t memo;
  uint32_t target, next; /* bra: the label's block, the next block */
  Type *ety;        /* memory: the element as an integer type (shared race value checks) */
  KFn then;         /* bar.sync with a thread count, bar.red: the engine's barrier */
  struct PCall *call; /* vprintf, __assertfail, a call past the depth the engine inlines */
  const KBlock *over; /* @p bra over one block (x_bra_over): that block */
  const struct PAffReg *abase; /* ld/st: the address register when it is affine (aff_ld, aff_st) */
  const struct PAff *aff;      /* an affine register's instruction (x_aff) */
  uint32_t cutword;            /* a setp at a cut and its branch (ptx_x_setp_cut): the cut's uniform word + 1
                                  (PCUT_WORDS words: the cut, then the last cut made and what it was made of) */
  bool cutfull;                /* such a setp read by branches of other blocks: a cut only of the whole frame */
  uint32_t once;               /* x_uni_once: its KFrame.once flag */
  struct PSync *sync; /* cp.async, mbarrier, named barriers: the kernel's state of them */
  struct PICall *icall; /* an indirect call: its targets */
  int64_t off2;     /* cp.async.bulk: its mbarrier's address's constant offset (s[3] its base) */
  const KMemoGroup *grp; /* ld.global taking turns with others along rows (ptx_load_groups), or NULL: */
  uint32_t gmemo, gmember; /* the group's memo, and the load's index in it */
  const struct PFuse *fuse; /* one of the four instructions of a fused stream (ptx_fuse_streams), or NULL */
  const struct PMacc *macc; /* one of the four instructions of a multiply-accumulate step (ptx_macc_steps), or NULL */
} PIns;

/* A memref the first launch passes (kernel_ptx_bind): its descriptor's first parameter, its rank
 * and element bytes, and the launch operand it is. */
typedef struct PRef {
  uint32_t param, rank, esize, arg;
} PRef;

/* The kernel's parameters, for kernel_ptx_bind. */
typedef struct PInfo {
  uint32_t nparams;
  uint8_t *ptype;   /* PtxType */
  uint32_t *pword;  /* per parameter: its uniform word */
  const char *bufname;
  uint32_t line, col;
  PRef *refs;       /* the first launch site's memrefs, written before that launch runs */
  uint32_t nrefs;
  bool bound;
} PInfo;

enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_LO, C_LS, C_HI, C_HS, C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU,
       C_NUM, C_NAN };

static const char *const cmp_names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                        "hs",  "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

enum { I_ADD, I_SUB, I_MUL_LO, I_MUL_HI, I_MUL_WIDE, I_MAD_LO, I_MAD_HI, I_MAD_WIDE, I_MIN, I_MAX, I_AND, I_OR,
       I_XOR, I_SHL, I_SHR, I_DIV, I_REM, I_NEG, I_ABS, I_NOT, I_POPC, I_CLZ, I_BREV, I_CNOT };

enum { K_ADD, K_SUB, K_MAD_LO, K_MAD_HI };

enum { F_ADD, F_SUB, F_MUL, F_FMA, F_DIV, F_MIN, F_MAX, F_NEG, F_ABS, F_SQRT, F_RCP, F_RSQRT, F_EX2, F_LG2, F_SIN,
       F_COS, F_TANH };

enum { H_ADD, H_SUB, H_MUL, H_FMA, H_NEG, H_ABS, H_MIN, H_MAX, H_EX2, H_TANH };

enum { B_LOP3, B_SHF_L, B_SHF_R, B_PRMT, B_BFE, B_BFI, B_MUL24_LO, B_MUL24_HI, B_MAD24_LO, B_MAD24_HI, B_SAD,
       B_SLCT, B_COPYSIGN, B_TESTP, B_BFIND, B_DP4A, B_DP2A };

enum { R_NONE, R_N, R_Z, R_M, R_P }; /* rounding of cvt: to nearest even, toward zero, down, up */

enum { W_GLOBAL, W_SHARED, W_LOCAL }; /* where an access lies (ptx_access_ok) */

/* A global access whose addresses form a grid of the block's shape (ptx_mem.c, global_grid):
 * thread y * bx + x's at q0 + x * sx + y * sy, sx 0 or the access's bytes, sy 0 or at least a
 * row's bytes (len), the bytes [lo, hi). */
typedef struct PGrid {
  uintptr_t q0, lo, hi, len;
  uint64_t sx, sy;
  uint32_t bx, rows;
} PGrid;

/* Consecutive threads' global accesses, merged while they stay contiguous, recorded as rows. */
typedef struct PRun {
  uintptr_t lo, hi;
} PRun;

#define PCUT_WORDS 5

enum { AS_AFF = 1, AS_COL = 2 }; /* a PAffReg's state: u holds (the steps hold), the column is written */

typedef struct PAffReg {
  uint32_t uword, sword; /* its value in thread (0, 0); its state (AS_*) */
  uint32_t colword;      /* its column */
  uint8_t width;
  bool needed;           /* read by an instruction that reads its column */
  uint64_t cx, cy;       /* its steps from one thread to the next in x and in y, modulo 2^64 */
} PAffReg;

enum { A_ADD, A_MIN, A_MAX, A_EXCH, A_CAS, A_AND, A_OR, A_XOR, A_INC, A_DEC };

static const char *const atom_names[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec"};

static const char *const shfl_names[] = {"up", "down", "bfly", "idx"};

enum { V_ALL, V_ANY, V_UNI, V_BALLOT };

static const char *const vote_names[] = {"all", "any", "uni", "ballot"};

enum { X_ANY, X_ALL };

enum { RX_ADD, RX_MIN, RX_MAX, RX_AND, RX_OR, RX_XOR };

static const char *const redux_names[] = {"add", "min", "max", "and", "or", "xor"};

enum { BR_POPC, BR_AND, BR_OR };

static const char *const bar_red_names[] = {"popc", "and", "or"};

typedef struct PSync {
  uint32_t park;      /* varying words: 1 + the wait a thread is parked at (0: none); the generation
                         of the named barrier it waits for to pass */
  uint32_t bars;      /* uniform words: per named barrier its arrivals and generation; then the
                         block's arrivals of any kind, and their count at the last give-up + 1 */
  uint32_t resume;    /* the block of x_resume */
  const KIns **waits; /* by id: the waits threads park at (stable copies, for diagnostics) */
  uint32_t nwaits, capwaits;
  size_t apend;       /* each thread's PAsyncTab in its private memory */
  bool async;         /* the kernel has cp.async instructions: apend is reserved */
} PSync;

typedef struct PLayout {
  const PtxFunc *fn;
  uint32_t level;           /* how many activations of fn are on the chain of calls to it */
  uint32_t reg0;            /* its registers' first varying word */
  uint32_t *vecword;        /* per register of a .v2/.v4 declaration: its first component's word */
  size_t *voff;             /* per statement: a .local or .param variable's offset in each thread's private memory */
  struct PLayout *next;
} PLayout;

typedef struct PBind {      /* a body's .local or .param variable in scope */
  const char *name;
  size_t off;
  bool local;
} PBind;

typedef struct PInst {      /* one inlined copy of a function being compiled (the kernel's own body too) */
  const PtxFunc *fn;
  const PLayout *lay;
  uint32_t *lblk;           /* per label: its block; [nlabels]: where ret goes (the block after the call) */
  const size_t *arg_off, *ret_off; /* a .func's parameters and returns: the caller's variables */
  uint32_t bind0, fix0, depth;
  const struct PInst *up;
} PInst;

typedef struct PFix {       /* a branch target to fill in when the instance's labels are all placed */
  uint32_t *slot;
  uint32_t label;
} PFix;

typedef struct PBlock {
  KIns *ins;
  uint32_t n, cap;
} PBlock;

/* vprintf, __assertfail and a call nested too deeply: the caller's .param variables they take */
typedef struct PCall {
  const char *name;
  uint32_t nargs, depth;
  size_t arg_off[5], ret_off;
  bool has_ret;
} PCall;

typedef struct PComp {
  KComp kc;
  KHost *h;
  Op *site;
  const PtxModule *m;
  const PtxFunc *fn;
  const char *bufname;
  uint32_t reg0;          /* the first register's varying word */
  uint32_t *param_word;   /* per parameter: its uniform word */
  const PtxVar **svars;   /* shared variables and their offsets */
  size_t *soff;
  uint32_t nsvars;
  size_t dyn_off;         /* the dynamic shared memory's offset (the static part's size) */
  const struct PGlobals *glob; /* the binary's .global and .const variables, NULL when none */
  uint32_t cc_word;       /* the carry flag's varying word + 1; 0 until an instruction uses it */
  uint32_t *vecword;      /* per register of a .v2/.v4 declaration: its first component's word */
  const PtxInsn *insn;    /* being compiled */
  bool failed;
  Block *iblk;            /* the kernel op's block: one op per instruction */
  PInst *inst;            /* the function copy being compiled */
  PBind *binds;           /* the variables in scope, innermost last */
  uint32_t nbinds, capbinds;
  PLayout *layouts;
  PBlock *bl;             /* the kernel's blocks so far, in the order they run */
  uint32_t nb, capb, cur; /* the block being filled */
  bool closed;            /* it ends with a branch, ret or exit */
  PFix *fix;
  uint32_t nfix, capfix;
  uint32_t ninsns;
  bool zero_private;      /* the kernel calls vprintf: its threads' private memory starts zeroed */
  struct PSync *sync;     /* cp.async, mbarrier, named barriers: made by the first that needs it */
  bool ends_block;        /* the instruction just compiled ends its block (a wait: ptx_x_wait, ptx_x_nbar_sync) */
  uint8_t bar_arrive;     /* 1: the kernel has bar.arrive (its barriers count arrivals), 2: not, 0: unknown */
} PComp;

/* The .global and .const variables of one gpu.binary's PTX: one block of host memory made device
 * memory (be_mem_register) when its first kernel is compiled, so that every kernel of the binary
 * shares them and their accesses are checked and race-recorded as other device memory is. The
 * block is one of the program's registrations (GpuState.regs, unregistered at the end), found
 * again by its place string, which names the binary. */
typedef struct PGlobals {
  char *base;
  uint32_t n;
  const char **names; /* interned in the module: compared by text */
  size_t *off;
} PGlobals;

typedef struct PUop {
  uint8_t op, bits;  /* bits: what a cvt or mul.wide reads of its sources, a shl's type */
  uint8_t kind[3];   /* per source: US_* */
  uint32_t d, w[3];  /* the result's word; a source's word, or its offset in KFrame */
  uint64_t m, imm[3];
} PUop;

/* An affine register's instruction (x_aff): its sources' registers and how it computes u. */
typedef struct PAff {
  const PAffReg *d;
  const PAffReg *src[5]; /* its affine sources */
  uint32_t nsrc;
  const PAffReg *xs;     /* the source a widening reads (from xw bits, signed when xsigned), or NULL */
  uint8_t xw;
  bool xsigned;
  uint8_t root;          /* 1: mov of %tid.x, 2: of %tid.y (u is 0) */
  bool multi;            /* one of its register's several writes (loop_writes) */
  KIns uk;               /* the instruction over u words: its affine sources' and its result's */
  PIns up;
  PUop uop;              /* up as a PUop (uop.op U_NONE: none) */
  uint32_t once;         /* x_aff_once: its KFrame.once flag + 1 */
} PAff;

/* An indirect call's targets: the module's defined device functions with its prototype's
 * parameters and returns (their sizes) whose address the module takes, each inlined after the
 * call (entry[i] its first block), all going on at block `after`. */
typedef struct PICall {
  uint32_t n, after;
  uint64_t *addr;
  uint32_t *entry;
  const char *proto;
} PICall;

/* kernel_ptx.c */
bool ptx_perr(PComp *pc, uint32_t line, uint32_t col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool ptx_unsupported(PComp *pc, const char *what);
bool ptx_body_var(PComp *pc, const char *name, bool local, size_t *off);
const PtxVar *ptx_shared_var(PComp *pc, const char *name, size_t *off);
bool ptx_func_addr(const PtxModule *m, const char *name, uint64_t *addr);
char *ptx_global_var(PComp *pc, const char *name);
size_t ptx_reserve_private(PComp *pc, uint64_t bytes);
const PLayout *ptx_layout_of(PComp *pc, const PtxFunc *fn, uint32_t level);
uint32_t ptx_new_block(PComp *pc);
void ptx_add_fix(PComp *pc, uint32_t *slot, uint32_t label);
void ptx_add_jump(PComp *pc, uint32_t to, uint32_t label);

/* ptx_ins.c */
uint64_t ptx_sreg(const KFrame *f, const POpd *o, uint32_t l);
int ptx_x_guard(KFrame *f, const KIns *k);
int ptx_x_bra(KFrame *f, const KIns *k);
KLANEFN uint32_t ptx_guard_count(const KFrame *f, const Slot *g, uint32_t *turns);
int ptx_x_cond_bra(KFrame *f, const KIns *k);
int ptx_x_mov(KFrame *f, const KIns *k);
int ptx_x_pack(KFrame *f, const KIns *k);
int ptx_x_selp(KFrame *f, const KIns *k);
int ptx_x_setp(KFrame *f, const KIns *k);
int ptx_x_set(KFrame *f, const KIns *k);
int ptx_x_int(KFrame *f, const KIns *k);
int ptx_x_carry(KFrame *f, const KIns *k);
int ptx_x_f32(KFrame *f, const KIns *k);
int ptx_x_f64(KFrame *f, const KIns *k);
int ptx_x_half(KFrame *f, const KIns *k);
int ptx_x_bits(KFrame *f, const KIns *k);
int ptx_x_lop3p(KFrame *f, const KIns *k);
int ptx_x_fns(KFrame *f, const KIns *k);
int ptx_x_cvt(KFrame *f, const KIns *k);
int ptx_x_cvta(KFrame *f, const KIns *k);
int ptx_x_shfl(KFrame *f, const KIns *k);
int ptx_x_vote(KFrame *f, const KIns *k);
int ptx_x_warp_sync(KFrame *f, const KIns *k);
int ptx_x_match(KFrame *f, const KIns *k);
int ptx_x_redux(KFrame *f, const KIns *k);
int ptx_x_elect(KFrame *f, const KIns *k);
int ptx_x_bar_count(KFrame *f, const KIns *k);
int ptx_x_bar_red(KFrame *f, const KIns *k);
int ptx_x_trap(KFrame *f, const KIns *k);
int ptx_x_nop(KFrame *f, const KIns *k);

/* ptx_lower.c */
bool ptx_operand(PComp *pc, const PtxOperand *o, POpd *out);
bool ptx_mods(PComp *pc, PIns *p, const char *const *allowed, bool *found);
bool ptx_plain(PComp *pc, PIns *p, uint32_t nsrc);
bool ptx_address(PComp *pc, PIns *p, const PtxOperand *a, uint32_t si);
bool ptx_c_insn(PComp *pc, Op *op, KIns *k, PIns *p);
KIns *ptx_block_add(PBlock *b);

/* ptx_mem.c */
bool ptx_access_ok(KFrame *f, const KIns *k, const PIns *p, uint32_t l, char *q, uint32_t bytes, bool write,
                   int *where);
void ptx_run_note(KFrame *f, const KIns *k, const PIns *p, PRun *r, char *q, uint32_t bytes, bool write);
int ptx_x_ld_param(KFrame *f, const KIns *k);
void ptx_aff_col(KFrame *f, const PAffReg *a);
int ptx_x_setp_cut(KFrame *f, const KIns *k);
bool ptx_cut_count(const KFrame *f, const PIns *p, uint32_t *taken, uint32_t *turns, uint32_t *t0);
void ptx_cut_col(KFrame *f, const PIns *p);
int ptx_x_ld(KFrame *f, const KIns *k);
int ptx_x_st(KFrame *f, const KIns *k);
int ptx_x_atom(KFrame *f, const KIns *k);
void ptx_load_groups(PComp *pc, PBlock *bl, uint32_t nb);
int ptx_x_fused(KFrame *f, const KIns *k);
int ptx_x_fused_rest(KFrame *f, const KIns *k);
void ptx_fuse_streams(PComp *pc, PBlock *bl, uint32_t nb);
/* ptx_mem.c: how often each varying register word is read (*reads) and written (*writes) in the
 * nb blocks, for the passes that fuse instructions (malloc'ed; false when out of memory) */
bool ptx_reg_uses(const PBlock *bl, uint32_t nb, uint32_t **reads, uint32_t **writes);
bool ptx_aff_grid(KFrame *f, const PIns *p, uint32_t total, PGrid *g, bool *dense);
void ptx_ld_note(KFrame *f, const KIns *k, const PIns *p, uintptr_t lo, uintptr_t len, int64_t stride,
                 uint32_t rows);

/* ptx_macc.c */
int ptx_x_macc(KFrame *f, const KIns *k);
int ptx_x_macc_rest(KFrame *f, const KIns *k);
void ptx_macc_steps(PComp *pc, PBlock *bl, uint32_t nb);

/* ptx_affine.c */
void ptx_invariant_uni(PComp *pc, PBlock *b0, uint32_t nwords);
void ptx_uop_ins(PComp *pc, PBlock *b0);
void ptx_group_uni_once(PComp *pc, PBlock *b0);
void ptx_uniform_regs(PComp *pc, PBlock *bl, uint32_t nb, uint32_t nregs);
void ptx_bra_overs(KBody *body);
void ptx_affine_regs(PComp *pc, PBlock *bl, uint32_t nb, uint32_t nregs);
void ptx_once_affs(PComp *pc, PBlock *bl, uint32_t nb);

/* ptx_async.c */
int ptx_x_wait(KFrame *f, const KIns *k);
int ptx_x_nbar_sync(KFrame *f, const KIns *k);
void ptx_sync_finish(PComp *pc);
bool ptx_c_cp(PComp *pc, KIns *k, PIns *p);
bool ptx_c_cp_bulk(PComp *pc, KIns *k, PIns *p);
bool ptx_c_mbarrier(PComp *pc, KIns *k, PIns *p);
bool ptx_module_bar_arrive(PComp *pc);
bool ptx_c_nbar(PComp *pc, KIns *k, PIns *p, bool arrive);

/* ptx_calls.c */
int ptx_x_assertfail(KFrame *f, const KIns *k);
int ptx_x_zero_private(KFrame *f, const KIns *k);
int ptx_x_icall(KFrame *f, const KIns *k);
bool ptx_emit_body(PComp *pc, PInst *in);

static inline uint64_t wmask(uint64_t v, unsigned w) { return w >= 64 ? v : v & ((UINT64_C(1) << w) - 1); }

static inline int64_t sext(uint64_t v, unsigned w) {
  return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

static inline uint64_t rd(const KFrame *f, const POpd *o, uint32_t l) {
  if (o->kind == O_REG)
    return f->v[(size_t)o->word * f->n + l].u ^ o->neg;
  if (o->kind == O_UREG)
    return f->u[o->word].u ^ o->neg;
  if (o->kind == O_IMM)
    return o->imm;
  return ptx_sreg(f, o, l);
}

static inline void wr(KFrame *f, const POpd *o, uint32_t l, uint64_t v) {
  if (o->kind == O_UREG)
    f->u[o->word].u = wmask(v, o->width);
  else
    f->v[(size_t)o->word * f->n + l].u = wmask(v, o->width);
}

/* Operand o as a column: thread l's bits at c[l * *st] (*st 0: one word for all threads, an
 * immediate or a uniform special register held in *one). NULL where it is neither (a varying
 * special register, a negated predicate): the caller then reads it lane by lane. */
static inline const Slot *col(const KFrame *f, const POpd *o, Slot *one, uint32_t *st) {
  if (o->neg)
    return NULL;
  switch (o->kind) {
  case O_REG: *st = 1; return f->v + (size_t)o->word * f->n;
  case O_UREG: *st = 0; return f->u + o->word;
  case O_IMM: *st = 0; one->u = o->imm; return one;
  case O_SREG:
    if (o->sreg != PTX_SREG_NTID && o->sreg != PTX_SREG_CTAID && o->sreg != PTX_SREG_NCTAID)
      return NULL;
    *st = 0;
    one->u = o->sreg == PTX_SREG_NTID ? f->bdim[o->comp] : o->sreg == PTX_SREG_CTAID ? f->bid[o->comp]
                                                                                       : f->gdim[o->comp];
    return one;
  default: return NULL;
  }
}

/* The destination column of p's first result (a varying register), or NULL. */
static inline Slot *dcol(const KFrame *f, const POpd *o) {
  return o->kind == O_REG ? f->v + (size_t)o->word * f->n : NULL;
}

static inline float f32of(uint64_t v) {
  uint32_t w = (uint32_t)v;
  float x;
  memcpy(&x, &w, 4);
  return x;
}

static inline uint64_t bitsf32(float x) {
  uint32_t w;
  memcpy(&w, &x, 4);
  return w;
}

static inline double f64of(uint64_t v) {
  double x;
  memcpy(&x, &v, 8);
  return x;
}

static inline uint64_t bitsf64(double x) {
  uint64_t w;
  memcpy(&w, &x, 8);
  return w;
}

static inline bool is_signed(unsigned t) { return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64; }

static inline bool is_float(unsigned t) { return t == PTX_T_F32 || t == PTX_T_F64; }

/* f16, bf16 and their pairs: 16-bit values (two in a 32-bit word, the first in its low half) */
static inline bool is_half(unsigned t) {
  return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2;
}

static inline bool is_pair(unsigned t) { return t == PTX_T_F16X2 || t == PTX_T_BF16X2; }

static inline unsigned half_fmt(unsigned t) { return t == PTX_T_BF16 || t == PTX_T_BF16X2 ? KFP_BF16 : KFP_F16; }

static inline bool is_int(unsigned t) {
  return (t >= PTX_T_B8 && t <= PTX_T_B64) || (t >= PTX_T_U8 && t <= PTX_T_U64) || is_signed(t);
}

static inline uint64_t combine(unsigned how, uint64_t r, uint64_t c) {
  return how == 1 ? (r & c) : how == 2 ? (r | c) : how == 3 ? (r ^ c) : r;
}

/* The float format of a type (KFP_*), or -1 for the integers */
static inline int fmt_of(unsigned t) {
  switch (t) {
  case PTX_T_F16: case PTX_T_F16X2: return KFP_F16;
  case PTX_T_BF16: case PTX_T_BF16X2: return KFP_BF16;
  case PTX_T_TF32: return KFP_TF32;
  case PTX_T_F32: return KFP_F32;
  case PTX_T_F64: return KFP_F64;
  default: return -1;
  }
}

static inline void run_flush(KFrame *f, const KIns *k, const PIns *p, PRun *r, bool write) {
  if (r->hi)
    kernel_note_rows(f, k, p->memo, r->lo, r->hi - r->lo, 0, 1, write);
  r->hi = 0;
}

static inline void park(KFrame *f, const PIns *p, uint32_t l, uint32_t id) {
  f->v[(size_t)p->sync->park * f->n + l].u = id + 1;
  f->pc[l] = p->sync->resume;
}

/* The active threads whose guard g holds (every one when all), in thread order in *sub (the top
 * of the frame's stack, f->n words free there), and in *m how many; EX_ERROR when control flow
 * nests too deeply for another mask (ptx_x_guard, ptx_x_nbar_sync). */
static inline int guard_sub(KFrame *f, const KIns *k, const POpd *g, bool all, uint32_t **sub, uint32_t *m) {
  uint32_t *act = f->act, nact = f->nact, n = 0, *s = f->stack + f->top;
  *sub = s;
  *m = 0;
  if (f->top + f->n > f->cap) {
    kernel_error(f, k, act[0], "control flow nested too deeply");
    return EX_ERROR;
  }
  for (uint32_t i = 0; i < nact; i++) {
    uint32_t l = act[i];
    s[n] = l;
    n += all ? 1u : (uint32_t)(rd(f, g, l) & 1);
  }
  *m = n;
  return EX_NEXT;
}

static inline Loc *ptx_loc(PComp *pc, uint32_t line, uint32_t col) {
  return ir_loc_file(pc->h->ctx, ir_intern_cstr(pc->h->ctx, pc->bufname), line, col);
}

/* The instruction as written: opcode and modifiers. */
static inline void insn_name(const PtxInsn *in, char *buf, size_t n) {
  size_t w = (size_t)snprintf(buf, n, "%s", ptx_opcode_name((PtxOpcode)in->op));
  for (uint32_t i = 0; i < in->nmods && w < n; i++)
    w += (size_t)snprintf(buf + w, n - w, ".%s", in->mods[i].name);
}

static inline bool bad_mod(PComp *pc, const PtxMod *m) {
  char name[160];
  insn_name(pc->insn, name, sizeof name);
  return ptx_perr(pc, pc->insn->line, pc->insn->col,
                  "'%s': modifier '.%s' is not supported by the PTX kernel engine yet", name, m->name);
}

static inline bool local_var(PComp *pc, const char *name, size_t *off) { return ptx_body_var(pc, name, true, off); }

static inline bool reg_operand(PComp *pc, const PtxOperand *o, POpd *out) {
  if (o->kind != PTX_OPD_REG)
    return ptx_perr(pc, o->line, o->col, "expected a register");
  return ptx_operand(pc, o, out);
}

static inline bool has(const PtxInsn *in, const char *name) { return ptx_insn_has_mod(in, name); }

static inline int name_index(const char *const *names, size_t n, const PtxInsn *in) {
  for (uint32_t i = 0; i < in->nmods; i++)
    for (size_t j = 0; j < n; j++)
      if (!strcmp(in->mods[i].name, names[j]))
        return (int)j;
  return -1;
}

static inline bool need_opds(PComp *pc, uint32_t lo, uint32_t hi) {
  if (pc->insn->nopds < lo || pc->insn->nopds > hi)
    return ptx_unsupported(pc, "this number of operands");
  return true;
}

static inline bool is_term(const PtxInsn *in) {
  return in->op == PTX_OP_BRA || in->op == PTX_OP_RET || in->op == PTX_OP_EXIT;
}

static inline void resolve_fixes(PComp *pc, const PInst *in) {
  for (uint32_t i = in->fix0; i < pc->nfix; i++)
    *pc->fix[i].slot = in->lblk[pc->fix[i].label];
  pc->nfix = in->fix0;
}

/* Goes on in block b (threads fall through to it unless the current block ended in a branch). */
static inline void start_block(PComp *pc, uint32_t b) {
  if (!pc->closed)
    ptx_add_jump(pc, b, 0);
  pc->cur = b;
  pc->closed = false;
}

#endif
