/* llvm_internal.h - what the files of the llvm + nvvm kernel front end share (kernel_llvm.c: the
 * ops, compiling, hoisting, binding a launch's memrefs; kernel_llvm_mem.c: memory through
 * pointers): the memrefs a launch binds (LRef, LInfo), the compiled memory op (LMem), the
 * affine index program (LAff), and the functions one file calls in the other. Private to
 * kernel/. */
#ifndef KERNEL_LLVM_INTERNAL_H
#define KERNEL_LLVM_INTERNAL_H

#include "kernel/internal.h"

/* A memref passed to the kernel: the words of its descriptor among the uniform words. */
typedef struct LRef {
  uint32_t arg;     /* the launch operand it came from, among the kernel operands */
  uint32_t aligned; /* word of the aligned pointer; offset, sizes, strides follow */
  uint32_t rank, esize;
  uint32_t words[2 * 8 + 1]; /* offset, sizes, strides */
} LRef;

#define MAX_SHARED_GLOBALS 64

typedef struct LInfo {
  LRef *refs;
  uint32_t n;
  bool bound;     /* refs are known (kernel_llvm_bind) */
  bool unchecked; /* an unranked memref or a raw pointer was passed: no bounds known */
  Op *shared[MAX_SHARED_GLOBALS]; /* shared memory globals and their offsets */
  size_t shared_off[MAX_SHARED_GLOBALS];
  uint32_t nshared;
  struct LConst { Op *global; char *p; size_t bytes; } consts[MAX_SHARED_GLOBALS]; /* constant globals */
  uint32_t nconsts;
  bool cached;          /* bounds_of keeps the bounds in uniform words bwords.. (once flag bonce) */
  uint32_t bwords, bonce;
  struct LGroup *group; /* the ops computed once per frame together (hoist) */
} LInfo;

static inline LInfo *linfo(KHost *in, Kernel *k) {
  LInfo **slot = (LInfo **)kernel_llvm_ext(k);
  if (!*slot)
    *slot = ir_alloc(in->ctx, sizeof **slot);
  return *slot;
}

typedef struct LMem {
  Type *t;        /* the loaded or stored type */
  uint32_t bytes;
  int bin;        /* atomicrmw: bin_op */
  bool local;     /* address space 3: the block's shared memory */
  bool write;
  uint32_t memo;  /* its kernel_new_memo (shared memory race checks, pending accesses) */
  uint32_t ptr;   /* operand of the pointer */
  bool gep;       /* the pointer is a getelementptr of a uniform base just before: */
  uint32_t gbase, gidx; /* the words of its base (uniform) and index (varying) */
  int64_t gscale; /* bytes per index */
  bool gaff;      /* the index is a uniform value plus gcx times the thread's x id plus gcy times its y */
  int64_t gcx, gcy; /* id, in every thread (affine_tid): then the index column is not read, */
  struct LAff *aff; /* the uniform value is computed from this (so the ops computing the index
                       need not run: unneeded()) */
  bool gfast;       /* gaff, and gsb = gcx * gscale and grb = gcy * gscale do not overflow */
  int64_t gsb, grb;
  bool grun;        /* gfast and gsb = bytes: in a block of one row, a run of active threads
                       touches a run of elements (kernel_llvm_mem.c's access_run) */
  bool f32, i32;    /* t is f32, or i32: lane loops copy 4-byte words */
} LMem;

static inline const LInfo *info(const KFrame *f) { return *kernel_llvm_ext(f->k); }

static inline char *ptr_of(const KFrame *f, const KIns *k, uint32_t op, uint32_t l) {
  return KIN(f, k, op)[k->vin[op] ? l : 0].p;
}

static inline bool scalar(const Type *t) {
  return t->kind == TY_INT || t->kind == TY_FLOAT || t->kind == TY_INDEX || t->kind == TY_LLVM_PTR;
}

/* An index as affine_tid finds it: its value in thread (0, 0), as a program over uniform words
 * and constants (postfix), evaluated when an access needs it. */
typedef struct LNode {
  uint8_t op; /* N_WORD: f->u[word]; N_CONST: c; N_ADD, N_SUB, N_MUL: of the two below */
  uint32_t word;
  int64_t c;
} LNode;
enum { N_WORD, N_CONST, N_ADD, N_SUB, N_MUL };
#define LPROG 32

typedef struct LAff {
  LNode prog[LPROG];
  uint32_t n;
  uint8_t form; /* A_PROG: run prog; A_CONST: c; A_WORD: f->u[word] + c (aff_fold) */
  uint32_t word;
  uint64_t c;
} LAff;
enum { A_PROG, A_CONST, A_WORD };

/* kernel_llvm_mem.c: an access of type t through operand ptr (llvm.load: 0, llvm.store: 1), run
 * by kernel_llvm_x_load or kernel_llvm_x_store */
bool kernel_llvm_mem(KComp *kc, Op *op, KIns *k, uint32_t ptr, Type *t);
int kernel_llvm_x_load(KFrame *f, const KIns *k);
int kernel_llvm_x_store(KFrame *f, const KIns *k);
bool kernel_llvm_atomic(KComp *kc, Op *op, KIns *k);
bool kernel_llvm_addressof(KComp *kc, Op *op, KIns *k);
bool kernel_llvm_alloca(KComp *kc, Op *op, KIns *k);
/* getelementptr %p[%i] over a scalar element: its size, else 0 */
int64_t kernel_llvm_gep1_scale(const Op *op);
/* Whether operand ptr of use is a getelementptr of a uniform base the access takes apart (into m,
 * when not NULL) */
bool kernel_llvm_gep_split(KComp *kc, const Op *use, uint32_t ptr, LMem *m);
/* Whether v is, in every thread, a uniform value plus *cx times its x id plus *cy times its y id
 * (with a: the uniform value's program) */
bool kernel_llvm_affine_tid(KComp *kc, const Value *v, int64_t *cx, int64_t *cy, LAff *a, int depth);
/* The bytes (and *align) of a type in memory */
uint64_t kernel_llvm_size_of(const Type *t, uint64_t *align);

#endif
