/* device.c - the device's life, its configuration, and how it speaks (diagnostics, observer).
 *
 * sim_create builds the parts in order (memory arena, handle table, race state, executor) and
 * sim_destroy takes them down the other way: first it drains all work (exec_finish), so nothing runs
 * while leaks are counted and memory is freed.
 *
 * Diagnostics go through diag_emit with the lock held: it formats the message into the device's
 * buffer, drops an exact repeat (a race in a loop is reported once, not a million times), counts
 * it, and hands it to the sink and then to the observer.
 */
#include "sim/simint.h"
#include <ctype.h>
#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Grow *p (of *cap elements of elem bytes) to hold at least need elements. Returns NULL (and leaves
   *p alone) when out of memory. */
void *xrealloc_array(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return p;
  size_t ncap = *cap ? *cap * 2 : 8;
  while (ncap < need)
    ncap *= 2;
  void *q = realloc(p, ncap * elem);
  if (!q)
    return NULL;
  *cap = ncap;
  return q;
}

SimStatus sim_sched_parse(const char *spec, SimConfig *cfg) {
  if (!spec || !cfg)
    return SIM_ERR_ARG;
  if (!strcmp(spec, "threads")) {
    cfg->sched = SIM_SCHED_THREADS;
  } else if (!strcmp(spec, "serial")) {
    cfg->sched = SIM_SCHED_SERIAL;
  } else if (!strncmp(spec, "random", 6) && (spec[6] == ':' || spec[6] == 0)) {
    uint64_t seed = 0;
    if (spec[6] == ':') {
      char *end;
      if (!isdigit((unsigned char)spec[7])) /* no sign, no spaces */
        return SIM_ERR_ARG;
      errno = 0;
      seed = strtoull(spec + 7, &end, 0);
      if (*end || errno == ERANGE)
        return SIM_ERR_ARG;
    }
    cfg->sched = SIM_SCHED_RANDOM;
    cfg->seed = seed;
  } else {
    return SIM_ERR_ARG;
  }
  return SIM_OK;
}

static void default_sink(const SimDiag *d, void *user) {
  (void)user;
  fprintf(stderr, "%s: %s: %s\n", LOC(d->loc), d->severity == SIM_SEV_ERROR ? "error" : "warning",
          d->message);
}

void obs_emit(SimDevice *dev, SimObs *ev) {
  if (!dev->cfg.observer)
    return;
  ev->time_ns = now_ns() - dev->t0_ns;
  dev->cfg.observer(ev, dev->cfg.observer_user);
}

static uint64_t hash_str(uint64_t h, const char *s) {
  for (; s && *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h * 0x9e3779b97f4a7c15ull;
}

/* Remember h; false if it was there already. */
static bool seen_add(SimDevice *dev, uint64_t h) {
  if (!h)
    h = 1;
  if (2 * (dev->nseen + 1) > dev->capseen) {
    size_t ncap = dev->capseen ? dev->capseen * 2 : 64;
    uint64_t *t = calloc(ncap, sizeof *t);
    if (!t)
      return true;
    for (size_t i = 0; i < dev->capseen; i++) {
      uint64_t v = dev->seen[i];
      if (!v)
        continue;
      size_t j = v & (ncap - 1);
      while (t[j])
        j = (j + 1) & (ncap - 1);
      t[j] = v;
    }
    free(dev->seen);
    dev->seen = t;
    dev->capseen = ncap;
  }
  size_t j = h & (dev->capseen - 1);
  while (dev->seen[j]) {
    if (dev->seen[j] == h)
      return false;
    j = (j + 1) & (dev->capseen - 1);
  }
  dev->seen[j] = h;
  dev->nseen++;
  return true;
}

static void diag_vemit(SimDevice *dev, SimDiag *d, const char *fmt, va_list ap) {
  vsnprintf(dev->msg, sizeof dev->msg, fmt, ap);
  uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)d->kind << 8 | (uint64_t)d->severity);
  h = hash_str(h, d->loc);
  h = hash_str(h, d->loc2);
  h = hash_str(h, dev->msg);
  if (!seen_add(dev, h))
    return;
  d->message = dev->msg;
  if (d->severity == SIM_SEV_ERROR)
    dev->nerrors++;
  else
    dev->nwarnings++;
  if (dev->cfg.sink)
    dev->cfg.sink(d, dev->cfg.sink_user);
  else
    default_sink(d, NULL);
  SimObs ev = {.kind = SIM_OBS_DIAG, .op = d->op, .other = d->op2, .loc = d->loc, .diag = d,
               .name = "diag", .worker = -1};
  obs_emit(dev, &ev);
}

void diag_emit(SimDevice *dev, SimDiag *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vemit(dev, d, fmt, ap);
  va_end(ap);
}

void sim_diag_report(SimDevice *dev, SimSeverity sev, SimDiagKind kind, const char *loc,
                     const char *fmt, ...) {
  if (!dev)
    return;
  SimDiag d = {.severity = sev, .kind = kind, .loc = loc};
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&dev->mu);
  diag_vemit(dev, &d, fmt, ap);
  pthread_mutex_unlock(&dev->mu);
  va_end(ap);
}

size_t sim_error_count(const SimDevice *dev) {
  if (!dev)
    return 0;
  SimDevice *m = (SimDevice *)dev;
  pthread_mutex_lock(&m->mu);
  size_t n = m->nerrors;
  pthread_mutex_unlock(&m->mu);
  return n;
}

size_t sim_warning_count(const SimDevice *dev) {
  if (!dev)
    return 0;
  SimDevice *m = (SimDevice *)dev;
  pthread_mutex_lock(&m->mu);
  size_t n = m->nwarnings;
  pthread_mutex_unlock(&m->mu);
  return n;
}

SimDevice *sim_create(const SimConfig *cfg) {
  SimDevice *dev = calloc(1, sizeof *dev);
  if (!dev)
    return NULL;
  if (cfg)
    dev->cfg = *cfg;
  if (!dev->cfg.inline_bytes)
    dev->cfg.inline_bytes = 4096;
  dev->t0_ns = now_ns();
  dev->race = !dev->cfg.no_race_check;
  dev->rng = dev->cfg.seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
  if (!dev->rng)
    dev->rng = 1;  /* xorshift's one fixed point */
  /* adaptive: a contended lock spins a little before it sleeps; the lock is held for short
     stretches, and sleeping costs microseconds */
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
  pthread_mutex_init(&dev->mu, &ma);
  pthread_mutexattr_destroy(&ma);
  pthread_cond_init(&dev->work_cv, NULL);
  pthread_cond_init(&dev->done_cv, NULL);
  if (!mem_init(dev))
    goto fail;
  race_init(dev);
  exec_start(dev);
  streams_init(dev);
  if (!dev->defstream || !exec_start_workers(dev))
    goto fail;
  return dev;
fail:
  sim_destroy(dev);
  return NULL;
}

void sim_destroy(SimDevice *dev) {
  if (!dev)
    return;
  exec_finish(dev);
  pthread_mutex_lock(&dev->mu);
  streams_leaks(dev);
  mem_leaks(dev);
  streams_free(dev);
  mem_free_all(dev);
  while (dev->all_ops) {  /* ops the token front door still holds die with the device */
    Op *op = dev->all_ops;
    dev->all_ops = op->allnext;
    if (op->vc)
      vc_unref(dev, op->vc);
    free(op->deps);
    free(op->succ);
    free(op);
  }
  dev->free_ops = NULL;
  race_free_all(dev);
  free(dev->rq);
  free(dev->oacc);
  free(dev->seen);
  free(dev->threads);
  pthread_mutex_unlock(&dev->mu);
  pthread_cond_destroy(&dev->work_cv);
  pthread_cond_destroy(&dev->done_cv);
  pthread_mutex_destroy(&dev->mu);
  free(dev);
}
