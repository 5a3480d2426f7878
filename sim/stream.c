/* stream.c - streams and events as CUDA defines them, on top of the op graph.
 *
 * A stream is its last op plus the ops the next op must also wait for (from StreamWaitEvent); each
 * op submitted on it depends on all of those, then becomes the last op. An event is a snapshot: a
 * reference to one op, replaced by each record (a new generation), so a wait that already took the
 * old snapshot keeps it. Recording on a stream with pending waits first folds them into a marker,
 * so the snapshot covers them (a record after a wait completes after the waited event, as in CUDA).
 * Waiting on a never-recorded event is a no-op; a record on an idle stream is complete at once.
 *
 * Handles. A SimStream/SimEvent is a 64-bit value, not a pointer:
 *     0x51d (12 bits) | kind (4) | generation (16) | slot index + 1 (32)
 * The slot table remembers, per slot, the kind, whether it is live, where it was created and
 * destroyed, and its generation. Decoding never touches memory the value points to, so any value
 * a program passes is safe to check. Destroyed slots queue up (FIFO) before reuse, so the common
 * use-after-destroy still finds its tombstone; a reused slot has a new generation and reads as
 * "stale". NULL as a stream is the default stream (id 1), which is never destroyed.
 *
 * Locking: every function takes dev->mu for its whole body (waits release it while they sleep).
 */
#include "sim/simint.h"

#include <stdlib.h>
#include <string.h>

#define H_TAG 0x51dull
enum { KEEP_TOMBSTONES = 64 };

static uint64_t h_encode(unsigned kind, uint16_t gen, uint32_t idx) {
  return H_TAG << 52 | (uint64_t)kind << 48 | (uint64_t)gen << 32 | (uint64_t)(idx + 1);
}

static bool h_decode(const void *h, unsigned *kind, uint16_t *gen, uint32_t *idx) {
  uint64_t v = (uint64_t)(uintptr_t)h;
  if (v >> 52 != H_TAG || (uint32_t)v == 0)
    return false;
  *kind = (unsigned)(v >> 48 & 0xf);
  *gen = (uint16_t)(v >> 32);
  *idx = (uint32_t)v - 1;
  return true;
}

static const char *kind_name(unsigned k) {
  return k == H_STREAM ? "stream" : k == H_EVENT ? "event" : "handle";
}

static bool slot_alloc(SimDevice *dev, unsigned kind, void *obj, const char *loc, uint32_t *out) {
  uint32_t i;
  if (dev->nfree > KEEP_TOMBSTONES) {
    i = dev->free_head - 1;
    dev->free_head = dev->slots[i].next_free;
    if (!dev->free_head)
      dev->free_tail = 0;
    dev->nfree--;
    dev->slots[i].gen++;
  } else {
    void *p = xrealloc_array(dev->slots, &dev->capslots, dev->nslots + 1, sizeof *dev->slots);
    if (!p)
      return false;
    dev->slots = p;
    i = dev->nslots++;
    dev->slots[i].gen = 1;
  }
  Slot *sl = &dev->slots[i];
  sl->kind = (uint8_t)kind;
  sl->live = true;
  sl->created = loc;
  sl->destroyed = NULL;
  sl->obj = obj;
  sl->next_free = 0;
  *out = i;
  return true;
}

static void slot_kill(SimDevice *dev, uint32_t i, const char *loc) {
  Slot *sl = &dev->slots[i];
  sl->live = false;
  sl->obj = NULL;
  sl->destroyed = loc;
  sl->next_free = 0;
  if (dev->free_tail)
    dev->slots[dev->free_tail - 1].next_free = i + 1;
  else
    dev->free_head = i + 1;
  dev->free_tail = i + 1;
  dev->nfree++;
}

/* Find the live object of kind `want` behind h, or report what h is and return NULL. */
static void *lookup(SimDevice *dev, const void *h, unsigned want, const char *loc, SimStatus *st) {
  if (!h && want == H_STREAM)
    return dev->defstream;
  SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc};
  unsigned kind;
  uint16_t gen;
  uint32_t idx;
  *st = SIM_ERR_HANDLE;
  if (!h) {
    diag_emit(dev, &d, "expects an event, got a null handle");
    return NULL;
  }
  if (!h_decode(h, &kind, &gen, &idx) || idx >= dev->nslots || dev->slots[idx].kind != kind) {
    diag_emit(dev, &d, "expects a %s, got %p, which is not a stream or event of this device",
              kind_name(want), h);
    return NULL;
  }
  Slot *sl = &dev->slots[idx];
  d.loc2 = sl->created;
  if (sl->gen != gen) {
    diag_emit(dev, &d, "expects a %s, got a %s that was destroyed (its slot is reused since)",
              kind_name(want), kind_name(kind));
    return NULL;
  }
  if (kind != want) {
    diag_emit(dev, &d, "expects %s %s, got %s %s (created at '%s'%s%s%s)",
              want == H_EVENT ? "an" : "a", kind_name(want), kind == H_EVENT ? "an" : "a",
              kind_name(kind), LOC(sl->created),
              sl->live ? "" : ", destroyed at '", sl->live ? "" : LOC(sl->destroyed),
              sl->live ? "" : "'");
    return NULL;
  }
  if (!sl->live) {
    d.loc2 = sl->destroyed;
    diag_emit(dev, &d, "use of a destroyed %s (created at '%s', destroyed at '%s')",
              kind_name(kind), LOC(sl->created), LOC(sl->destroyed));
    return NULL;
  }
  *st = SIM_OK;
  return sl->obj;
}

static void api_event(SimDevice *dev, const char *name, const char *loc, uint64_t stream,
                      uint64_t event) {
  if (!dev->cfg.observer)
    return;
  SimObs ev = {.kind = SIM_OBS_API, .name = name, .loc = loc, .stream = stream, .other = event,
               .worker = -1};
  obs_emit(dev, &ev);
}

static Stream *stream_new(SimDevice *dev) {
  Stream *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->id = 1;  /* the default stream; others get slot + 2 (see sim_stream_id) */
  return s;
}

static void stream_drop_work(SimDevice *dev, Stream *s) {
  if (s->last)
    op_unref(dev, s->last);
  s->last = NULL;
  for (size_t i = 0; i < s->nwaits; i++)
    op_unref(dev, s->waits[i]);
  s->nwaits = 0;
}

void streams_init(SimDevice *dev) {
  dev->defstream = stream_new(dev);
}

/* Submit desc on s: it waits for s's last op and pending waits, and becomes the last op. */
static SimStatus stream_push(SimDevice *dev, Stream *s, const SimOpDesc *desc, Op **ref) {
  Op *small[8], **deps = small;
  size_t n = 1 + s->nwaits;
  if (n > 8 && !(deps = malloc(n * sizeof *deps)))
    return SIM_ERR_MEMORY;
  deps[0] = s->last;
  if (s->nwaits)
    memcpy(deps + 1, s->waits, s->nwaits * sizeof *deps);
  Op *op = NULL;
  SimStatus st = op_submit(dev, desc, deps, n, s, &op);
  if (op) {
    stream_drop_work(dev, s);
    s->last = op;
    if (ref) {
      op->refs++;
      *ref = op;
    }
  }
  if (deps != small)
    free(deps);
  return st;
}

/* Fold pending waits into a marker, so s->last alone stands for all work on s. */
static SimStatus stream_fold(SimDevice *dev, Stream *s, const char *loc) {
  if (!s->nwaits)
    return SIM_OK;
  SimOpDesc d = {.kind = SIM_OP_MARKER, .loc = loc};
  return stream_push(dev, s, &d, NULL);
}

static bool stream_add_wait(Stream *s, Op *op) {
  for (size_t i = 0; i < s->nwaits; i++)
    if (s->waits[i] == op)
      return true;
  if (op == s->last)
    return true;
  void *p = xrealloc_array(s->waits, &s->capwaits, s->nwaits + 1, sizeof *s->waits);
  if (!p)
    return false;
  s->waits = p;
  s->waits[s->nwaits++] = op;
  op->refs++;
  return true;
}

SimStatus sim_stream_create(SimDevice *dev, SimStream *out, const char *loc) {
  if (!dev || !out)
    return SIM_ERR_ARG;
  *out = NULL;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Stream *s = stream_new(dev);
  if (!s || !slot_alloc(dev, H_STREAM, s, loc, &s->slot)) {
    free(s);
    SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc};
    diag_emit(dev, &d, "out of memory creating a stream");
    st = SIM_ERR_MEMORY;
    goto done;
  }
  s->id = (uint64_t)s->slot + 2;
  *out = (SimStream)(uintptr_t)h_encode(H_STREAM, dev->slots[s->slot].gen, s->slot);
  api_event(dev, "stream_create", loc, s->id, 0);
done:
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_stream_destroy(SimDevice *dev, SimStream h, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  if (!h) {
    SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc};
    diag_emit(dev, &d, "the default stream cannot be destroyed");
    st = SIM_ERR_HANDLE;
    goto done;
  }
  Stream *s = lookup(dev, h, H_STREAM, loc, &st);
  if (!s)
    goto done;
  api_event(dev, "stream_destroy", loc, s->id, 0);
  slot_kill(dev, s->slot, loc);
  stream_drop_work(dev, s);  /* the ops hold their own executor references: they still run */
  free(s->waits);
  free(s);
done:
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_stream_submit(SimDevice *dev, SimStream h, const SimOpDesc *desc, SimOp **op) {
  if (op)
    *op = NULL;
  if (!dev || !desc)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Stream *s = lookup(dev, h, H_STREAM, desc->loc, &st);
  if (s)
    st = stream_push(dev, s, desc, op);
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_stream_sync(SimDevice *dev, SimStream h, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Stream *s = lookup(dev, h, H_STREAM, loc, &st);
  if (s) {
    api_event(dev, "stream_sync", loc, s->id, 0);
    Op *last = s->last;
    if (last && s->nwaits == 0) {
      st = ops_wait(dev, &last, 1, "stream", loc);
    } else if (s->nwaits) {
      st = stream_fold(dev, s, loc);
      last = s->last;
      if (st == SIM_OK && last)
        st = ops_wait(dev, &last, 1, "stream", loc);
    }
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_stream_query(SimDevice *dev, SimStream h, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Stream *s = lookup(dev, h, H_STREAM, loc, &st);
  if (s) {
    bool done = !s->last || op_done(s->last);
    for (size_t i = 0; i < s->nwaits; i++)
      done = done && op_done(s->waits[i]);
    if (!done && !sim_tls_ctx) {
      ops_progress(dev);
      done = !s->last || op_done(s->last);
      for (size_t i = 0; i < s->nwaits; i++)
        done = done && op_done(s->waits[i]);
    }
    st = done ? SIM_OK : SIM_NOT_READY;
    if (done && dev->race && !sim_tls_ctx) {  /* the host saw it finish: that orders like a sync */
      if (s->last)
        race_host_join(dev, s->last);
      for (size_t i = 0; i < s->nwaits; i++)
        race_host_join(dev, s->waits[i]);
    }
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_stream_wait_event(SimDevice *dev, SimStream hs, SimEvent he, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Stream *s = lookup(dev, hs, H_STREAM, loc, &st);
  Event *e = s ? lookup(dev, he, H_EVENT, loc, &st) : NULL;
  if (s && e) {
    api_event(dev, "stream_wait_event", loc, s->id, e->id);
    if (e->snap && !stream_add_wait(s, e->snap))
      st = SIM_ERR_MEMORY;
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_stream_wait_op(SimDevice *dev, SimStream hs, SimOp *op, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Stream *s = lookup(dev, hs, H_STREAM, loc, &st);
  if (s && op) {
    if (op->dev != dev || op->refs <= 0 || sim_op_id(op) == 0) {
      SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc};
      diag_emit(dev, &d, "stream wait: not a live token");
      st = SIM_ERR_HANDLE;
    } else if (!stream_add_wait(s, op)) {
      st = SIM_ERR_MEMORY;
    }
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_stream_last_op(SimDevice *dev, SimStream hs, SimOp **out, const char *loc) {
  if (!dev || !out)
    return SIM_ERR_ARG;
  *out = NULL;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Stream *s = lookup(dev, hs, H_STREAM, loc, &st);
  if (s && (st = stream_fold(dev, s, loc)) == SIM_OK && s->last) {
    s->last->refs++;
    *out = s->last;
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_event_create(SimDevice *dev, SimEvent *out, const char *loc) {
  if (!dev || !out)
    return SIM_ERR_ARG;
  *out = NULL;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Event *e = calloc(1, sizeof *e);
  if (!e || !slot_alloc(dev, H_EVENT, e, loc, &e->slot)) {
    free(e);
    SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc};
    diag_emit(dev, &d, "out of memory creating an event");
    st = SIM_ERR_MEMORY;
    goto done;
  }
  e->id = (uint64_t)e->slot + 1;
  *out = (SimEvent)(uintptr_t)h_encode(H_EVENT, dev->slots[e->slot].gen, e->slot);
  api_event(dev, "event_create", loc, 0, e->id);
done:
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_event_destroy(SimDevice *dev, SimEvent h, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Event *e = lookup(dev, h, H_EVENT, loc, &st);
  if (e) {
    api_event(dev, "event_destroy", loc, 0, e->id);
    slot_kill(dev, e->slot, loc);
    if (e->snap)
      op_unref(dev, e->snap);
    free(e);
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_event_record(SimDevice *dev, SimEvent he, SimStream hs, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Event *e = lookup(dev, he, H_EVENT, loc, &st);
  Stream *s = e ? lookup(dev, hs, H_STREAM, loc, &st) : NULL;
  if (e && s) {
    api_event(dev, "event_record", loc, s->id, e->id);
    st = stream_fold(dev, s, loc);
    if (s->last)
      s->last->refs++;
    if (e->snap)
      op_unref(dev, e->snap);
    e->snap = s->last;
    e->recorded = true;
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_event_sync(SimDevice *dev, SimEvent h, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Event *e = lookup(dev, h, H_EVENT, loc, &st);
  if (e) {
    api_event(dev, "event_sync", loc, 0, e->id);
    if (e->snap) {
      Op *snap = e->snap;
      snap->refs++;  /* the event may be re-recorded or destroyed by a callback meanwhile */
      st = ops_wait(dev, &snap, 1, "event", loc);
      op_unref(dev, snap);
    }
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_event_query(SimDevice *dev, SimEvent h, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Event *e = lookup(dev, h, H_EVENT, loc, &st);
  if (e && e->snap) {
    if (!op_done(e->snap) && !sim_tls_ctx)
      ops_progress(dev);
    st = op_done(e->snap) ? SIM_OK : SIM_NOT_READY;
    if (st == SIM_OK && dev->race && !sim_tls_ctx)  /* observed complete: ordered like a sync */
      race_host_join(dev, e->snap);
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

uint64_t sim_stream_id(SimStream h) {
  unsigned kind;
  uint16_t gen;
  uint32_t idx;
  if (!h)
    return 1;
  return h_decode(h, &kind, &gen, &idx) && kind == H_STREAM ? (uint64_t)idx + 2 : 0;
}

uint64_t sim_event_id(SimEvent h) {
  unsigned kind;
  uint16_t gen;
  uint32_t idx;
  return h && h_decode(h, &kind, &gen, &idx) && kind == H_EVENT ? (uint64_t)idx + 1 : 0;
}

void streams_leaks(SimDevice *dev) {
  for (uint32_t i = 0; i < dev->nslots; i++) {
    Slot *sl = &dev->slots[i];
    if (!sl->live)
      continue;
    SimDiag d = {.severity = SIM_SEV_WARNING, .kind = SIM_DIAG_LEAK, .loc = sl->created};
    diag_emit(dev, &d, "%s created here was never destroyed", kind_name(sl->kind));
  }
}

void streams_free(SimDevice *dev) {
  for (uint32_t i = 0; i < dev->nslots; i++) {
    Slot *sl = &dev->slots[i];
    if (!sl->live)
      continue;
    if (sl->kind == H_STREAM) {
      Stream *s = sl->obj;
      stream_drop_work(dev, s);
      free(s->waits);
      free(s);
    } else {
      Event *e = sl->obj;
      if (e->snap)
        op_unref(dev, e->snap);
      free(e);
    }
  }
  free(dev->slots);
  dev->slots = NULL;
  dev->nslots = dev->capslots = 0;
  if (dev->defstream) {
    stream_drop_work(dev, dev->defstream);
    free(dev->defstream->waits);
    free(dev->defstream);
    dev->defstream = NULL;
  }
}
