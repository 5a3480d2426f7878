/* budget.c - the bounds of a run: --max-steps (ops executed) and --timeout (wall clock).
 *
 * A step is one host op, or one kernel op for each thread it runs for. Counting must not slow the
 * run loops, so nobody touches the shared counter per op: the host (KHost.credit) and each kernel
 * frame (KFrame.credit) hold credit, a private count of steps they may still take, and only
 * subtract from it: the host 1 per op; a kernel frame once per block it runs, the block's ops
 * times the active threads (an op that narrows the mask for a nested region restores it, so the
 * mask holds for the whole block). When a credit goes below zero, kernel_budget_take takes a
 * batch from the run's pool with one compare-and-swap, and that is also when the clock is read
 * and when a bound hit elsewhere is noticed. When the pool cannot cover a kernel block, the block
 * runs the ops it had steps for and the bound is reported at the next one (the blocks of a region
 * nested in those ops find the pool empty themselves and report there); a kernel block's ops are
 * counted when it starts, so the ops after a loop count before the loop's body does. Batches
 * shrink as the pool empties (a sixteenth of what is left, at most the caller's chunk), so a
 * program without kernels stops exactly after N steps; with kernels, one may stop while the host
 * or another frame still holds unused credit, so a run takes at most N steps, a little fewer.
 *
 * Without bounds the credit starts at INT64_MAX and is never spent: the cost is a subtraction and
 * a branch per host op and per kernel block run.
 *
 * The first thread to find a bound sets Budget.stop (kernel_budget_first) and reports it, at the
 * op it was about to run (ir_diag, then a note that names the thread); every other thread that
 * takes credit afterwards sees stop and ends its work without a word: kernels mark their launch
 * failed, so the blocks left are skipped, and the host unwinds. kernel_budget_take and
 * kernel_budget_first are the only code here other threads call; the reports of kernels are made
 * under the gpu mutex (kernel.c). A kernel that stops also zeroes the host's credit, so that a
 * host that goes on after the launch (under serial the kernel ran inside it) stops at its next op
 * rather than at its next batch: that is why the host counts per op. The host's side (its credit
 * per op, a bound reported at a host op) is interp/steps.c. */
#include "kernel/kernel.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void kernel_budget_init(Budget *b, uint64_t max_steps, double timeout) {
  memset(b, 0, sizeof *b);
  b->max_steps = max_steps;
  b->timeout = timeout;
  atomic_init(&b->pool, max_steps ? (int64_t)(max_steps > INT64_MAX ? INT64_MAX : max_steps) : INT64_MAX);
  atomic_init(&b->stop, 0);
  if (timeout > 0)
    b->deadline_ns = now_ns() + (uint64_t)(timeout * 1e9);
  b->on = max_steps || timeout > 0;
}

int64_t kernel_budget_credit(const Budget *b) { return b->on ? 0 : INT64_MAX; }

int kernel_budget_take(Budget *b, int64_t *credit, int64_t chunk) {
  int64_t need = -*credit; /* the steps of the block about to run that the credit did not cover */
  if (atomic_load_explicit(&b->stop, memory_order_relaxed))
    return BUDGET_STOPPED;
  if (b->deadline_ns && now_ns() >= b->deadline_ns)
    return BUDGET_TIME;
  if (!b->max_steps) {
    *credit += need + chunk;
    return BUDGET_OK;
  }
  int64_t avail = atomic_load_explicit(&b->pool, memory_order_relaxed), got;
  do {
    int64_t extra = (avail - need) / 16;
    got = avail < need ? avail : need + (extra < chunk ? extra : chunk);
  } while (!atomic_compare_exchange_weak_explicit(&b->pool, &avail, avail - got, memory_order_relaxed,
                                                  memory_order_relaxed));
  *credit += got;
  return got < need ? BUDGET_STEPS : BUDGET_OK;
}

bool kernel_budget_first(Budget *b) { return !atomic_exchange(&b->stop, 1); }

void kernel_budget_message(const Budget *b, int why, char *buf, size_t n) {
  if (why == BUDGET_TIME)
    snprintf(buf, n, "time limit of %g s reached", b->timeout);
  else
    snprintf(buf, n, "step limit of %" PRIu64 " reached", b->max_steps);
}
