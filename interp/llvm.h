/* llvm.h - private to llvm.c and llvm_extern.c: the memory the lowered form owns. */
#ifndef INTERP_LLVM_H
#define INTERP_LLVM_H

#include "interp/internal.h"

/* Kinds of the blocks llvm_extern.c knows. */
enum {
  R_HEAP,
  R_GLOBAL,
  R_CONST,
  R_DEVICE,
  R_SHARED, /* device memory the host may touch too (gpu.alloc host_shared, mgpuMemAlloc's isHostShared) */
  R_MEMREF, /* memref.alloc, alloca, global: memref.c owns it */
  R_ASYNC   /* an async value's storage: async.c owns it */
};
static inline bool interp_low_is_device(int kind) { return kind == R_DEVICE || kind == R_SHARED; }

/* Makes [p, p+bytes) known as a block of that kind, allocated at loc. */
void interp_low_block_add(Interp *in, void *p, uint64_t bytes, int kind, const char *loc);
/* Forgets the block starting at p, if there is one (interp_low_device_remove: if it is device
 * memory, R_DEVICE or R_SHARED). */
void interp_low_block_remove(Interp *in, void *p);
void interp_low_device_remove(Interp *in, void *p);
/* A host load or store of [p, p+bytes): owned, not a constant, and accepted by the device; NULL
 * after a located error on ins. loc names the access for the device. */
char *interp_low_host_mem(Frame *fr, const Ins *ins, uintptr_t p, uint64_t bytes, bool write,
                          const char *loc);
/* bytes of zeroed alloca stack, aligned; NULL after an error (stack overflow). */
char *interp_low_stack_alloc(Frame *fr, const Ins *ins, uint64_t bytes, uint64_t align);
/* The storage of global g once made, or NULL; recording it. */
char *interp_low_global(Interp *in, Op *g);
void interp_low_global_add(Interp *in, Op *g, char *p);

#endif
