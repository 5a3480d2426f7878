/* trace.c — the thread-safe trace recorder.
 *
 * Events live in fixed-size chunks so an event, once added, never moves: trace_recorder_event can hand
 * out pointers that stay valid while later events are appended. The strings and access arrays an event
 * points to are copied into a bump arena owned by the recorder, so callers may pass stack buffers.
 *
 * Locking: one mutex (rec->lock) guards the chunk table, the arena and the counters. Recording is
 * append-only and rare compared with the work being traced (it is off unless a trace was asked for),
 * so a plain mutex is simpler than anything lock-free and costs little.
 */
#include "traces/traces.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CHUNK = 1024, BLOCK = 64 * 1024 };

typedef struct Block Block;
struct Block {
    Block *next;
    size_t used, cap;
    alignas(max_align_t) unsigned char data[];
};

struct TraceRecorder {
    pthread_mutex_t lock;
    struct timespec t0;
    TraceEvent **chunks; /* chunks[i] holds events [i*CHUNK, (i+1)*CHUNK) */
    size_t n_chunks, cap_chunks;
    size_t count;
    size_t dropped;
    Block *blocks; /* newest first */
};

static uint64_t since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)(t.tv_sec - t0->tv_sec) * 1000000000u + (uint64_t)t.tv_nsec - (uint64_t)t0->tv_nsec;
}

TraceRecorder *trace_recorder_create(void)
{
    TraceRecorder *rec = calloc(1, sizeof *rec);
    if (!rec)
        return NULL;
    pthread_mutex_init(&rec->lock, NULL);
    clock_gettime(CLOCK_MONOTONIC, &rec->t0);
    return rec;
}

void trace_recorder_destroy(TraceRecorder *rec)
{
    if (!rec)
        return;
    for (size_t i = 0; i < rec->n_chunks; i++)
        free(rec->chunks[i]);
    free(rec->chunks);
    for (Block *b = rec->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    pthread_mutex_destroy(&rec->lock);
    free(rec);
}

uint64_t trace_recorder_now(const TraceRecorder *rec)
{
    return since(&rec->t0);
}

/* Arena allocation, max_align_t aligned. Caller holds the lock. */
static void *arena(TraceRecorder *rec, size_t n)
{
    size_t a = alignof(max_align_t);
    n = (n + a - 1) / a * a;
    Block *b = rec->blocks;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > BLOCK ? n : BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->used = 0;
        b->cap = cap;
        b->next = rec->blocks;
        rec->blocks = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

/* Copies s into the arena; NULL stays NULL. Sets *fail on out-of-memory. */
static const char *copy_str(TraceRecorder *rec, const char *s, int *fail)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = arena(rec, n);
    if (!p) {
        *fail = 1;
        return NULL;
    }
    memcpy(p, s, n);
    return p;
}

static TraceEvent *slot(TraceRecorder *rec)
{
    size_t c = rec->count / CHUNK;
    if (c == rec->n_chunks) {
        if (rec->n_chunks == rec->cap_chunks) {
            size_t cap = rec->cap_chunks ? rec->cap_chunks * 2 : 16;
            TraceEvent **t = realloc(rec->chunks, cap * sizeof *t);
            if (!t)
                return NULL;
            rec->chunks = t;
            rec->cap_chunks = cap;
        }
        TraceEvent *chunk = malloc(CHUNK * sizeof *chunk);
        if (!chunk)
            return NULL;
        rec->chunks[rec->n_chunks++] = chunk;
    }
    return &rec->chunks[c][rec->count % CHUNK];
}

int trace_recorder_add(TraceRecorder *rec, const TraceEvent *ev)
{
    uint64_t now = ev->t_ns ? ev->t_ns : since(&rec->t0);
    int fail = 0;
    pthread_mutex_lock(&rec->lock);
    TraceEvent *e = slot(rec);
    if (!e) {
        fail = 1;
        goto out;
    }
    *e = *ev;
    e->t_ns = now;
    e->seq = rec->count;
    e->name = copy_str(rec, ev->name, &fail);
    e->loc = copy_str(rec, ev->loc, &fail);
    e->detail = copy_str(rec, ev->detail, &fail);
    e->accesses = NULL;
    e->n_accesses = 0;
    if (ev->n_accesses) {
        TraceAccess *a = arena(rec, ev->n_accesses * sizeof *a);
        if (a) {
            memcpy(a, ev->accesses, ev->n_accesses * sizeof *a);
            e->accesses = a;
            e->n_accesses = ev->n_accesses;
        } else {
            fail = 1;
        }
    }
    if (!fail)
        rec->count++;
out:
    if (fail)
        rec->dropped++;
    pthread_mutex_unlock(&rec->lock);
    return fail ? -1 : 0;
}

size_t trace_recorder_count(TraceRecorder *rec)
{
    pthread_mutex_lock(&rec->lock);
    size_t n = rec->count;
    pthread_mutex_unlock(&rec->lock);
    return n;
}

const TraceEvent *trace_recorder_event(TraceRecorder *rec, size_t i)
{
    pthread_mutex_lock(&rec->lock);
    const TraceEvent *e = i < rec->count ? &rec->chunks[i / CHUNK][i % CHUNK] : NULL;
    pthread_mutex_unlock(&rec->lock);
    return e;
}

size_t trace_recorder_dropped(TraceRecorder *rec)
{
    pthread_mutex_lock(&rec->lock);
    size_t n = rec->dropped;
    pthread_mutex_unlock(&rec->lock);
    return n;
}

int trace_call(TraceRecorder *rec, const char *name, const char *loc, uint64_t t_begin,
               const char *detail)
{
    uint64_t now = since(&rec->t0);
    TraceEvent ev = {.kind = TRACE_CALL, .name = name, .loc = loc, .detail = detail,
                     .t_ns = t_begin ? t_begin : now, .dur_ns = t_begin && now > t_begin ? now - t_begin : 0};
    return trace_recorder_add(rec, &ev);
}

int trace_op_enqueue(TraceRecorder *rec, uint64_t op, uint64_t stream, const char *name,
                     const char *loc, const TraceAccess *acc, size_t n_acc)
{
    TraceEvent ev = {.kind = TRACE_ENQUEUE, .op = op, .stream = stream, .name = name, .loc = loc,
                     .accesses = acc, .n_accesses = n_acc};
    return trace_recorder_add(rec, &ev);
}

int trace_op_start(TraceRecorder *rec, uint64_t op, uint64_t stream, uint32_t worker)
{
    TraceEvent ev = {.kind = TRACE_START, .op = op, .stream = stream, .worker = worker};
    return trace_recorder_add(rec, &ev);
}

int trace_op_end(TraceRecorder *rec, uint64_t op, uint64_t stream, const TraceAccess *acc,
                 size_t n_acc)
{
    TraceEvent ev = {.kind = TRACE_END, .op = op, .stream = stream, .accesses = acc,
                     .n_accesses = n_acc};
    return trace_recorder_add(rec, &ev);
}

int trace_edge(TraceRecorder *rec, TraceEdgeKind kind, uint64_t from, uint64_t to)
{
    TraceEvent ev = {.kind = TRACE_EDGE, .edge = kind, .op = from, .op2 = to};
    return trace_recorder_add(rec, &ev);
}

int trace_violation(TraceRecorder *rec, const char *cls, uint64_t op, uint64_t op2,
                    const char *detail)
{
    TraceEvent ev = {.kind = TRACE_VIOLATION, .name = cls, .op = op, .op2 = op2, .detail = detail};
    return trace_recorder_add(rec, &ev);
}

const char *trace_kind_name(TraceKind kind)
{
    switch (kind) {
    case TRACE_CALL: return "call";
    case TRACE_ENQUEUE: return "enqueue";
    case TRACE_START: return "start";
    case TRACE_END: return "end";
    case TRACE_EDGE: return "edge";
    case TRACE_VIOLATION: return "violation";
    }
    return "?";
}

const char *trace_edge_kind_name(TraceEdgeKind kind)
{
    switch (kind) {
    case TRACE_EDGE_STREAM: return "stream";
    case TRACE_EDGE_DEP: return "dep";
    case TRACE_EDGE_EVENT: return "event";
    case TRACE_EDGE_SYNC: return "sync";
    }
    return "?";
}
