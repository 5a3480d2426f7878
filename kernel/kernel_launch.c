/* kernel_launch.c - running a launch: its checks (kernel_launch), its runs of blocks over the
 * backend's workers, the frames they run the blocks in, and the end of the launches a host made
 * (kernel_wait_all, kernel_free_all). A block's body runs in kernel_cfg.c.
 *
 * Threads: a launch is a few runs (one per RUN_THREADS threads, at most MAX_RUNS) spread over the
 * backend's workers (be_kernel_parallel_for); each run takes blocks a share at a time until none is
 * left (blocks_take), in a frame of its own that it takes from the interpreter's cache of idle
 * frames and gives back (frame_take), so that a launch costs its blocks' work plus a few
 * microseconds, whatever its number of blocks. Launches of small one-row blocks of a kernel whose
 * threads never meet run several blocks per frame (kernel.c, block_wise). A kernel without loops
 * that could wait is bounded (BeLaunch.bounded): the threads scheduler may run it on the host's
 * thread when nothing else runs. The first error of a launch (Launch.failed) stops its other
 * blocks; after the runs, the blocks are checked against each other for races in global memory
 * (kernel_race.c), which may run some of them again (replay_blocks). */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/internal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOCK_THREADS 1024
#define MAX_SHARED_BYTES (228u * 1024u)

/* Frames. A frame's storage depends only on its kernel, the block's shape and the dynamic shared
 * memory, so frames outlive the runs that use them: a run takes a matching frame from the
 * interpreter's cache of idle frames (GpuState.frames, under the gpu mutex) or builds one, and gives
 * it back when it ends; the cache keeps the FRAME_CACHE most recently used. What a run must not
 * inherit is reset when it takes a frame: the once flags, the budget's credit, the shadow of
 * shared memory (only when the epochs near wrapping: older epochs than a block's own read as
 * ordered before it, so a reused shadow needs no clearing), and the inputs. The map of access
 * ranges (KFrame.hash) is never cleared: every entry is checked against the range it names
 * before it is used (kernel_mem.c), so a stale one only misses. */
enum { FRAME_CACHE = 16, EPOCH_RESET = 1u << 30 };

typedef struct FrameBox {
  struct FrameBox *next;
  const Kernel *k;
  uint32_t block[3], group;
  size_t smem, shadow_words;
  bool checks; /* the shadow exists */
  KFrame f;
} FrameBox;

static void frame_free(FrameBox *b) {
  KFrame *f = &b->f;
  free(f->u);
  free(f->v);
  free(f->stack);
  free(f->tmp);
  free(f->lo);
  free(f->acc);
  free(f->hash);
  free(f->memo);
  free(f->once);
  free(f->shadow);
  free(b);
}

static FrameBox *frame_new(const Launch *L) {
  const Kernel *k = L->rk;
  FrameBox *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  KFrame *f = &b->f;
  uint32_t n0 = L->block[0] * L->block[1] * L->block[2], n = n0 * L->group;
  b->k = k;
  b->group = L->group;
  f->wide = L->group > 1 ? n0 : 0;
  memcpy(b->block, L->block, sizeof b->block);
  b->smem = L->smem;
  f->k = k;
  f->n = n;
  f->cap = (size_t)(4 * k->depth + 8) * n;
  size_t priv_stride = kernel_align16(k->private_bytes), local = kernel_align16(k->shared_bytes) + L->smem + priv_stride * n;
  f->u = calloc(k->nu + 1, sizeof *f->u);
  /* the columns on a cache line's start: a lane loop's 32-byte vectors then never straddle two
   * lines (calloc's 16-byte alignment left it to what the heap held before: a matmul's launches
   * ran a tenth slower with its columns 16 bytes past a line than with them on one) */
  size_t vbytes = (((size_t)k->nv * n + 1) * sizeof *f->v + 63) & ~(size_t)63;
  f->v = aligned_alloc(64, vbytes);
  if (f->v)
    memset(f->v, 0, vbytes);
  f->stack = malloc((f->cap + n) * sizeof *f->stack);
  f->tmp = calloc((size_t)k->maxmove * n + 1, sizeof *f->tmp);
  f->lo = malloc(local + 16);
  f->hash = calloc(KHASH, sizeof *f->hash);
  f->memo = calloc(k->nmemo + 1, sizeof *f->memo);
  f->nmemo = k->nmemo;
  f->once = calloc(k->nonce + 1, 1);
  size_t shared = L->in->no_race_check ? 0 : kernel_align16(k->shared_bytes) + L->smem;
  /* two accesses that start in one granule of the smallest access's size overlap: comparing
   * them is right, and the shadow shrinks by that size */
  while (k->minaccess >> (f->gshift + 1) && f->gshift < 4)
    f->gshift++;
  size_t ng = (shared >> f->gshift) + 1;
  size_t nops = (k->nmemo < KSH_OPS ? k->nmemo : KSH_OPS) + 1;
  b->checks = shared != 0;
  b->shadow_words = 2 * ng + nops + n / 2 + 1;
  f->shadow = shared ? calloc(b->shadow_words, sizeof(uint64_t)) : NULL;
  if (f->shadow) {
    f->sh.w = f->shadow;
    f->sh.r = f->sh.w + ng;
    f->sh.loc = (const char **)(void *)(f->sh.r + ng);
    f->sh.lep = (uint32_t *)(void *)(f->sh.r + ng + nops);
  }
  if (!f->u || !f->v || !f->stack || !f->tmp || !f->lo || !f->hash || !f->memo || !f->once || (shared && !f->shadow)) {
    frame_free(b);
    return NULL;
  }
  f->hi = f->lo + local;
  f->smem = f->lo + kernel_align16(k->shared_bytes);
  f->smem_bytes = L->smem;
  f->priv = f->smem + L->smem;
  f->priv_stride = priv_stride;
  for (uint32_t d = 0; d < 3; d++)
    f->bdim[d] = L->block[d];
  uint32_t *ident = f->stack + f->cap;
  for (uint32_t l = 0; l < n; l++)
    ident[l] = l;
  return b;
}

/* A frame for a run of L's blocks: an idle one that fits, or a new one; NULL when out of memory. */
static FrameBox *frame_take(Launch *L, BeKernelCtx *ctx) {
  const Kernel *k = L->rk;
  GpuState *gs = kernel_gpu(L->in);
  bool checks = !L->in->no_race_check && kernel_align16(k->shared_bytes) + L->smem;
  FrameBox *b = NULL;
  pthread_mutex_lock(&gs->mu);
  for (FrameBox **pp = &gs->frames; *pp; pp = &(*pp)->next) {
    FrameBox *c = *pp;
    if (c->k == k && !memcmp(c->block, L->block, sizeof c->block) && c->group == L->group && c->smem == L->smem &&
        c->checks == checks) {
      *pp = c->next;
      gs->nframes--;
      b = c;
      break;
    }
  }
  pthread_mutex_unlock(&gs->mu);
  if (!b && !(b = frame_new(L)))
    return NULL;
  KFrame *f = &b->f;
  f->L = L;
  f->L_in = L->in;
  f->ctx = ctx;
  f->credit = kernel_budget_credit(&L->in->budget);
  f->gon = L->gruns != NULL;
  f->ncalls = 0;
  memset(f->once, 0, k->nonce + 1);
  if (f->shadow && f->epoch >= EPOCH_RESET) {
    memset(f->shadow, 0, b->shadow_words * sizeof(uint64_t));
    f->epoch = 0;
    f->sh.nrun = 0;
    f->sh.gran_epoch = 0;
  }
  for (uint32_t d = 0; d < 3; d++)
    f->gdim[d] = L->grid[d];
  /* inputs and attribution descriptors: the same for every block of the launch */
  uint32_t w = 0, n = f->n;
  for (uint32_t i = 0; i < k->ninputs; i++) {
    memcpy(&f->u[k->in_word[i]], &L->inputs[w], k->in_words[i] * sizeof(Slot));
    w += k->in_words[i];
  }
  for (uint32_t i = 0; i < k->nattrs; i++) {
    const KAttr *a = &k->attrs[i];
    if (!a->vary)
      kernel_describe(&f->u[a->word], 1, a->type, f->lo + a->off, NULL);
    else
      for (uint32_t l = 0; l < n; l++)
        kernel_describe(kw(f, a->word, true) + l, n, a->type, f->priv + l * f->priv_stride + a->off, NULL);
  }
  return b;
}

/* Gives a frame back to the cache, dropping the least recently used beyond FRAME_CACHE. */
static void frame_give(GpuState *gs, FrameBox *b) {
  b->f.L = NULL;
  b->f.ctx = NULL;
  FrameBox *drop = NULL;
  pthread_mutex_lock(&gs->mu);
  b->next = gs->frames;
  gs->frames = b;
  if (++gs->nframes > FRAME_CACHE) {
    FrameBox **pp = &gs->frames;
    while ((*pp)->next)
      pp = &(*pp)->next;
    drop = *pp;
    *pp = NULL;
    gs->nframes--;
  }
  pthread_mutex_unlock(&gs->mu);
  if (drop)
    frame_free(drop);
}

/* The next blocks for a run, [*first, *last): a share of what is left that shrinks as the launch
 * nears its end (a half of it over the runs, at least RUN_THREADS threads' worth), so that few
 * runs carry a big launch and the last ones even out between workers. False when none is left. */
enum { RUN_THREADS = 4096 };

static bool blocks_take(Launch *L, size_t *first, size_t *last) {
  if (L->gcap) { /* a replay: its blocks one at a time */
    if (L->ireplay == L->nreplay)
      return false;
    *first = L->replay[L->ireplay++];
    *last = *first + 1;
    return true;
  }
  size_t n = (size_t)L->block[0] * L->block[1] * L->block[2], g = L->group;
  size_t least = (RUN_THREADS + n - 1) / n;
  size_t b = atomic_load_explicit(&L->next_block, memory_order_relaxed);
  for (;;) {
    if (b >= L->nblocks)
      return false;
    size_t left = L->nblocks - b, take = left / (2 * L->nruns);
    if (take < least)
      take = least;
    take = (take + g - 1) / g * g; /* whole frames of blocks, but for the launch's last */
    if (take > left)
      take = left;
    if (atomic_compare_exchange_weak_explicit(&L->next_block, &b, b + take, memory_order_relaxed,
                                              memory_order_relaxed)) {
      *first = b;
      *last = b + take;
      return true;
    }
  }
}

static void run_blocks(BeKernelCtx *ctx, size_t run, void *user) {
  Launch *L = user;
  const Kernel *k = L->rk;
  size_t first, last;
  if (atomic_load(&L->failed) || !blocks_take(L, &first, &last))
    return; /* the other runs took every block */
  FrameBox *box = frame_take(L, ctx);
  if (!box) {
    if (!atomic_exchange(&L->failed, 1)) {
      GpuState *gs = kernel_gpu(L->in);
      pthread_mutex_lock(&gs->mu);
      ir_op_error(L->in->ctx, k->op, "out of memory for a block of %u threads",
                  L->block[0] * L->block[1] * L->block[2]);
      pthread_mutex_unlock(&gs->mu);
      atomic_fetch_add(&gs->errors, 1);
      be_launch_failed(L->in->be, L->loc);
    }
    return;
  }
  KFrame *f = &box->f;
  f->gcap = L->gcap;
  if (f->gcap)
    f->credit = INT64_MAX; /* the launch paid for these steps */
  uint32_t n = f->n, *ident = f->stack + f->cap, g = L->group;
  bool stop = false;
  do {
    for (size_t b = first; b < last && !(stop = atomic_load_explicit(&L->failed, memory_order_relaxed)); b += g) {
      f->wfirst = b;
      /* the last frame of a block-wise launch may hold fewer blocks: its other threads idle */
      n = last - b < g ? (uint32_t)(last - b) * f->wide : f->n;
      f->bid[0] = (uint32_t)(b % L->grid[0]);
      f->bid[1] = (uint32_t)(b / L->grid[0] % L->grid[1]);
      f->bid[2] = (uint32_t)(b / ((size_t)L->grid[0] * L->grid[1]));
      if (f->priv > f->lo)
        memset(f->lo, 0, (size_t)(f->priv - f->lo));
      if (k->is_launch) {
        for (int i = 0; i < 12; i++) {
          uint32_t d = (uint32_t)i % 3;
          if (k->ids[i] == UINT32_MAX)
            continue;
          if (i >= 3 && i < 6) {
            Slot *col = kw(f, k->ids[i], true);
            for (uint32_t l = 0; l < n; l++)
              col[l].i = d == 0 ? l % f->bdim[0] : d == 1 ? l / f->bdim[0] % f->bdim[1] : l / (f->bdim[0] * f->bdim[1]);
          } else {
            f->u[k->ids[i]].i = i < 3 ? f->bid[d] : i < 9 ? f->gdim[d] : f->bdim[d];
          }
        }
      }
      f->act = ident;
      f->nact = n;
      f->top = 0;
      f->epoch++; /* a block starts a barrier interval of its own */
      f->base = f->epoch;
      f->split = false;
      f->pc = NULL;
      f->pc_all = UINT32_MAX;
      f->blin = b;
      if (kernel_run_body(f, &k->body) == EX_ERROR) {
        stop = true;
        break;
      }
      kernel_race_block_end(f);
    }
  } while (!stop && blocks_take(L, &first, &last));
  if (!kernel_flush_accesses(f)) {
    atomic_store(&L->failed, 1);
    be_launch_failed(L->in->be, L->loc);
  }
  if (L->gruns)
    kernel_race_run_end(f, L->gcap ? NULL : &L->gruns[run]);
  f->gcap = NULL;
  frame_give(kernel_gpu(L->in), box);
}

/* kernel_race_check's replay: the blocks run again, one after another on this thread, as a run
 * of their own whose output and accesses are dropped; each frame's gcap reads what their writes
 * left. */
typedef struct Replay {
  Launch *L;
  BeKernelCtx *ctx;
} Replay;

static bool replay_blocks(void *user, const size_t *blocks, size_t n, KGCap *cap) {
  Replay *r = user;
  Launch *L = r->L;
  L->replay = blocks;
  L->nreplay = n;
  L->ireplay = 0;
  L->gcap = cap;
  run_blocks(r->ctx, 0, L);
  bool ok = L->ireplay == n && !atomic_load(&L->failed);
  L->gcap = NULL;
  return ok;
}

/* The runs of a launch: one per RUN_THREADS threads of it, at most MAX_RUNS, each taking blocks
 * until none is left (blocks_take). A launch too small to share runs as one run on the thread
 * that runs the launch, waking no worker; in a bigger one, a run that finds no blocks left costs
 * next to nothing, so the count need not match the backend's workers. */
enum { MAX_RUNS = 64, WIDE_THREADS = 256 };

static void kernel_run(BeKernelCtx *ctx, const BeLaunch *bl, void *user) {
  Launch *L = user;
  (void)bl;
  size_t threads = (size_t)L->block[0] * L->block[1] * L->block[2];
  size_t work = L->nblocks > SIZE_MAX / threads ? SIZE_MAX : L->nblocks * threads;
  L->rk = L->k;
  L->group = 1;
  /* blocks are compared with each other in global memory (kernel_race.c); a block-wise frame logs
     each of its blocks' accesses apart */
  bool between = L->nblocks > 1 && !L->in->no_race_check;
  if (L->k->wide && threads < WIDE_THREADS && L->nblocks > 1 && L->block[1] == 1 && L->block[2] == 1 &&
      L->grid[1] == 1 && L->grid[2] == 1) { /* block_wise, mark_lanes */
    L->rk = L->k->wide;
    L->group = (uint32_t)(WIDE_THREADS / threads);
    if (L->group > L->nblocks)
      L->group = (uint32_t)L->nblocks;
  }
  L->nruns = work / RUN_THREADS + (work % RUN_THREADS != 0);
  if (L->nruns > MAX_RUNS)
    L->nruns = MAX_RUNS;
  if (L->nruns > L->nblocks)
    L->nruns = L->nblocks;
  if (between)
    L->gruns = calloc(L->nruns, sizeof *L->gruns);
  be_kernel_parallel_for(ctx, L->nruns, run_blocks, L);
  if (L->gruns) {
    Replay rp = {L, ctx};
    if (!atomic_load(&L->failed) &&
        kernel_race_check(L->in, L->gruns, L->nruns, L->grid, L->k->op, replay_blocks, &rp)) {
      atomic_store(&L->failed, 1);
      atomic_fetch_add(&kernel_gpu(L->in)->errors, 1);
      be_launch_failed(L->in->be, L->loc);
    }
    for (size_t i = 0; i < L->nruns; i++)
      free(L->gruns[i].r);
    free(L->gruns);
    L->gruns = NULL;
  }
  atomic_store(&L->done, 1);
}

/* A launch refused before it started: an error at the launch op (or, without one, at loc). */
static int launch_error(KHost *in, Op *site, const char *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int launch_error(KHost *in, Op *site, const char *loc, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (site)
    ir_op_error(in->ctx, site, "%s", msg);
  else
    ir_diag(in->ctx, DIAG_ERROR, NULL, "%s: %s", loc, msg);
  in->errors++;
  return EX_ERROR;
}

int kernel_launch(KHost *in, Op *site, Kernel *k, const int64_t grid[3], const int64_t block[3], int64_t smem,
                  const Slot *inputs, const BeToken *deps, size_t ndeps, BeToken *tok, const BeStream *stream,
                  const char *loc) {
  *tok = NULL;
  int64_t threads = 1, blocks = 1;
  for (int d = 0; d < 3; d++) {
    if (grid[d] < 1 || grid[d] > INT32_MAX)
      return launch_error(in, site, loc, "grid size %lld in dimension %c is not positive", (long long)grid[d],
                          "xyz"[d]);
    if (block[d] < 1 || block[d] > MAX_BLOCK_THREADS)
      return launch_error(in, site, loc, "block size %lld in dimension %c is not in [1, %d]", (long long)block[d],
                          "xyz"[d], MAX_BLOCK_THREADS);
    threads *= block[d];
    if (__builtin_mul_overflow(blocks, grid[d], &blocks))
      return launch_error(in, site, loc, "a grid of more than 2^63 blocks");
  }
  if (threads > MAX_BLOCK_THREADS)
    return launch_error(in, site, loc, "a block of %lld threads exceeds the limit of %d", (long long)threads,
                        MAX_BLOCK_THREADS);
  if (smem < 0 || (uint64_t)smem + k->shared_bytes > MAX_SHARED_BYTES)
    return launch_error(in, site, loc, "%lld bytes of dynamic shared memory (and %zu static) exceed the limit of %u",
                        (long long)smem, k->shared_bytes, MAX_SHARED_BYTES);
  if (!in->be)
    return launch_error(in, site, loc, "a launch needs a device");
  Launch *L = calloc(1, sizeof *L);
  Slot *copy = calloc(k->input_words + 1, sizeof *copy);
  if (!L || !copy) {
    free(L);
    free(copy);
    return launch_error(in, site, loc, "out of memory for a launch");
  }
  if (k->input_words)
    memcpy(copy, inputs, k->input_words * sizeof *copy);
  L->k = k;
  L->in = in;
  L->inputs = copy;
  for (int d = 0; d < 3; d++) {
    L->grid[d] = (uint32_t)grid[d];
    L->block[d] = (uint32_t)block[d];
  }
  L->smem = (size_t)smem;
  L->nblocks = (size_t)blocks;
  L->loc = loc;
  L->seq = in->nlaunches++;
  L->told = calloc((k->wide && k->wide->nmemo > k->nmemo ? k->wide->nmemo : k->nmemo) + 1, 1);
  L->site = site;
  GpuState *gs = kernel_gpu(in);
  /* forget launches that ended (their callback is done with them); only once the list has doubled
   * since the last sweep, so that launches a scheduler keeps queued cost O(1) each, not a walk */
  if (gs->nlaunch_list >= gs->sweep_at) {
    for (Launch **pp = &gs->launches; *pp;) {
      Launch *old = *pp;
      if (atomic_load(&old->done)) {
        *pp = old->next;
        if (old->tok)
          be_token_release(in->be, old->tok);
        free(old->inputs);
        free(old->told);
        free(old);
        gs->nlaunch_list--;
      } else {
        pp = &old->next;
      }
    }
    gs->sweep_at = 2 * gs->nlaunch_list + 8;
  }
  L->next = gs->launches;
  gs->launches = L;
  gs->nlaunch_list++;
  BeLaunch bl = {{L->grid[0], L->grid[1], L->grid[2]}, {L->block[0], L->block[1], L->block[2]}, (uint32_t)smem, NULL, 0,
                 k->bounded};
  if (stream) { /* stream-ordered, after the tokens too; the token stands for the stream's work */
    for (size_t i = 0; i < ndeps; i++)
      if (deps[i])
        be_stream_wait_token(in->be, *stream, deps[i], loc);
    if (be_launch_host(in->be, kernel_run, L, &bl, *stream, loc) == BE_OK)
      be_token_from_stream(in->be, *stream, &L->tok, loc);
  } else if (be_token_launch_host(in->be, kernel_run, L, &bl, deps, ndeps, &L->tok, loc) != BE_OK && L->tok) {
    atomic_store(&L->done, 1); /* refused (said): it never runs, and its token is a join of the deps */
  }
  if (!L->tok) {
    atomic_store(&L->done, 1);
    return launch_error(in, site, loc, "the device could not take the launch");
  }
  be_token_retain(in->be, L->tok); /* the launch's own: kernel_wait_all may wait for it after the
                                      program released its token */
  *tok = L->tok;
  return EX_NEXT;
}

void kernel_wait_all(KHost *in) {
  GpuState *gs = in->gpu;
  if (!gs)
    return;
  size_t n = 0;
  for (Launch *L = gs->launches; L; L = L->next)
    n += !atomic_load(&L->done);
  if (n && in->be) {
    BeToken *toks = calloc(n, sizeof *toks);
    size_t i = 0;
    for (Launch *L = gs->launches; L && toks; L = L->next)
      if (!atomic_load(&L->done))
        toks[i++] = L->tok;
    if (toks)
      be_token_wait(in->be, toks, i, "exit");
    free(toks);
  }
}

void kernel_free_all(KHost *in) {
  GpuState *gs = in->gpu;
  if (!gs)
    return;
  kernel_wait_all(in);
  for (Launch *L = gs->launches, *next; L; L = next) {
    next = L->next;
    if (in->be && L->tok)
      be_token_release(in->be, L->tok);
    free(L->inputs);
    free(L->told);
    free(L);
  }
  gs->launches = NULL;
  gs->nlaunch_list = gs->sweep_at = 0;
  for (FrameBox *b = gs->frames, *next; b; b = next) {
    next = b->next;
    frame_free(b);
  }
  gs->frames = NULL;
  gs->nframes = 0;
}
