/* kernel_shruns.c - the shared-memory race check's runs: whole runs of threads checked against
 * each other between two barriers with no per-granule work.
 *
 * The check of kernel_mem.c keeps, per granule of shared memory, its last writer and reader and
 * their epoch (KShadow). A run access (threads l0 .. l0 + m - 1 at granules j0 .. j0 + m - 1,
 * thread l0 + i at the i-th: what `sh[tid]` and `sh[tid + s]` are) updates m granules that way,
 * and a tree reduction makes a few such runs per barrier interval. Here the interval's run
 * accesses are kept as a list instead (KShadow.run, at most KSH_RUNS, of epoch run_epoch), and a
 * new one is compared with those only (kernel_shruns_add, inline in internal.h): two runs that
 * share a granule put the same thread on it when their offsets j0 - l0 are equal, so runs
 * overlapping with one of them writing and with different offsets are exactly where the
 * per-granule check would find another thread's access in the interval. The list then holds, for every granule, the accesses of one thread but for
 * reads (any readers): what the per-granule records would say.
 *
 * The granules stay the truth. Whenever they are needed (an access that is not a run, a run that
 * may race or does not fit, a warp-level sync, the PTX front end's pending copies) the list is
 * applied to them first, in order, as the run accesses would have written them
 * (kernel_shruns_settle), and the rest of the interval goes by the granules (gran_epoch), so every
 * report is made by the per-granule check, thread by thread, as before. A barrier starts a new
 * epoch: older records of either kind read as ordered, and the list of an older epoch is empty. */
#include "kernel/internal.h"

/* The record formats of KShadow (internal.h): w = epoch << 32 | op << 16 | thread, r = epoch << 32
 * | op << 17 | several << 16 | thread. */
void kernel_shruns_apply(KFrame *f) {
  uint64_t E = (uint64_t)f->sh.run_epoch << 32;
  for (uint32_t i = 0; i < f->sh.nrun; i++) {
    const KShRun *u = &f->sh.run[i];
    uint64_t *w = f->sh.w + u->j0, *r = f->sh.r + u->j0, op = u->op;
    if (u->write) {
      for (uint32_t x = 0; x < u->m; x++)
        w[x] = E | op << 16 | (u->l0 + x);
      continue;
    }
    for (uint32_t x = 0; x < u->m; x++) {
      uint64_t R = r[x], l = u->l0 + x;
      bool fresh = (R >> 32 << 32) != E;
      r[x] = fresh ? E | op << 17 | l : R | (uint64_t)((R & 0xffff) != l) << 16;
    }
  }
  f->sh.nrun = 0;
}

/* internal.h's kernel_shruns_add, when the list cannot take a run */
bool kernel_shruns_refuse(KFrame *f) {
  kernel_shruns_settle(f);
  return false;
}
