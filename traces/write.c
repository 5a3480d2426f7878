/* write.c — render a recording as readable text or as Chrome Trace Event JSON.
 *
 * Both writers first index the ops: for every op id, the events that enqueued, started and ended it,
 * so edges and violations (which only carry op ids) can be drawn at the right place and named by the
 * op's location.
 *
 * Text is built to be diffed. Events are grouped by track, and within a track kept in recording
 * order: the host track (calls, enqueues, edges) is one thread, each stream runs its ops in order, so
 * each group is deterministic even when workers interleave differently. Violations may be found on any
 * worker, so they are sorted. Nothing time- or address-dependent is printed.
 *
 * JSON follows the Trace Event Format (the "JSON Object Format" with a traceEvents array):
 *   pid 1 is the program: tid 0 the host, tid S stream S, TID_CHAIN + c chain c (the high-level
 *   form's logical streams, chains_build), TID_VIOLATIONS the violations; pid 2 ("workers") has the
 *   same op slices on the threads that ran them, without flows.
 *   API calls and ops are complete events ("X"); enqueues and violations are instants ("i").
 *   Every happens-before edge is a flow: "s" inside the source slice (1 ns before it ends), "f"
 *   1 ns before the target's slice begins, which it binds to as the next slice on its track; a
 *   finish on the host binds with "bp":"e" to the enclosing synchronization call. Slices are
 *   placed by lay_out so that none overlaps another on its track and no arrow points back.
 *   tests/corpus-tools/check-chrome-trace.py holds the output to these rules.
 *   Timestamps are microseconds with three decimals (nanosecond resolution), written with integer
 *   arithmetic so the output does not depend on the locale.
 */
#include "traces/traces.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct OpInfo {
    uint64_t op;
    const TraceEvent *enq, *start, *end;
    uint64_t first_dep; /* the source of the op's first dependency edge, or TRACE_HOST */
    uint64_t chain;     /* an op on no stream: its chain (logical stream), 1, 2, ...; else 0 */
    uint64_t ts, te;    /* Chrome: where its slice is drawn (lay_out) */
} OpInfo;

typedef struct Index {
    const TraceEvent **ev; /* recording order */
    size_t n;
    OpInfo *ops; /* sorted by op id */
    size_t n_ops;
} Index;

static int by_op(const void *a, const void *b)
{
    uint64_t x = ((const OpInfo *)a)->op, y = ((const OpInfo *)b)->op;
    return x < y ? -1 : x > y;
}

static OpInfo *op_find(const Index *ix, uint64_t op)
{
    if (op == TRACE_HOST)
        return NULL;
    OpInfo key = {.op = op};
    return bsearch(&key, ix->ops, ix->n_ops, sizeof key, by_op);
}

static void index_free(Index *ix)
{
    free(ix->ev);
    free(ix->ops);
}

/* Chains: the logical streams of ops that are on no stream (the high-level form's token ops).
 * Walking the ops in enqueue order (their ids), an op continues the chain of its first dependency
 * when that dependency is the last op of its chain so far; otherwise (no dependency, a dependency
 * on a stream, or one whose chain already went on: a fork) it starts a new chain. So a run of
 * `%t2 = gpu.memcpy async [%t1]`, `%t3 = ... [%t2]` is one chain, each fork starts one, and a join
 * (`gpu.wait async [%a, %b]`) continues its first operand's: as the lowering turns them into
 * streams. Each op of a chain waits for the one before it, so a chain's ops run in order, under
 * every scheduler. Chains are numbered in the order their first ops were enqueued. */
static int chains_build(Index *ix)
{
    for (size_t i = 0; i < ix->n; i++) {
        const TraceEvent *e = ix->ev[i];
        if (e->kind != TRACE_EDGE || e->edge != TRACE_EDGE_DEP || e->op == TRACE_HOST)
            continue;
        OpInfo *o = op_find(ix, e->op2);
        if (o && !o->first_dep)
            o->first_dep = e->op;
    }
    uint64_t *last = calloc(ix->n_ops + 2, sizeof *last); /* last[c]: chain c's newest op */
    if (!last)
        return -1;
    uint64_t n = 0;
    for (size_t i = 0; i < ix->n_ops; i++) {
        OpInfo *o = &ix->ops[i];
        const TraceEvent *e = o->enq ? o->enq : o->start;
        if (!e || e->stream)
            continue;
        OpInfo *d = op_find(ix, o->first_dep);
        o->chain = d && d->chain && last[d->chain] == d->op ? d->chain : ++n;
        last[o->chain] = o->op;
    }
    free(last);
    return 0;
}

/* Snapshots the events recorded so far and indexes their ops. Returns 0 or -1 (out of memory). */
static int index_build(TraceRecorder *rec, Index *ix)
{
    memset(ix, 0, sizeof *ix);
    ix->n = trace_recorder_count(rec);
    ix->ev = malloc((ix->n ? ix->n : 1) * sizeof *ix->ev);
    ix->ops = malloc((ix->n ? ix->n : 1) * sizeof *ix->ops);
    if (!ix->ev || !ix->ops)
        goto fail;
    for (size_t i = 0; i < ix->n; i++) {
        const TraceEvent *e = ix->ev[i] = trace_recorder_event(rec, i);
        if ((e->kind == TRACE_ENQUEUE || e->kind == TRACE_START || e->kind == TRACE_END) && e->op)
            ix->ops[ix->n_ops++] = (OpInfo){.op = e->op};
    }
    qsort(ix->ops, ix->n_ops, sizeof *ix->ops, by_op);
    size_t k = 0;
    for (size_t i = 0; i < ix->n_ops; i++)
        if (k == 0 || ix->ops[k - 1].op != ix->ops[i].op)
            ix->ops[k++] = ix->ops[i];
    ix->n_ops = k;
    for (size_t i = 0; i < ix->n; i++) {
        const TraceEvent *e = ix->ev[i];
        OpInfo *o = (e->kind == TRACE_ENQUEUE || e->kind == TRACE_START || e->kind == TRACE_END)
                        ? op_find(ix, e->op) : NULL;
        if (!o)
            continue;
        /* The first of each is kept: an op is enqueued, started and ended once. */
        if (e->kind == TRACE_ENQUEUE && !o->enq)
            o->enq = e;
        else if (e->kind == TRACE_START && !o->start)
            o->start = e;
        else if (e->kind == TRACE_END && !o->end)
            o->end = e;
    }
    if (chains_build(ix))
        goto fail;
    return 0;
fail:
    index_free(ix);
    return -1;
}

/* What an op is called: what the host ran ("gpu.memcpy"), else its kind ("memcpy"). */
static const char *op_name(const OpInfo *o)
{
    if (o && o->enq && o->enq->detail)
        return o->enq->detail;
    return o && o->enq && o->enq->name ? o->enq->name : "op";
}

/* An access's mode as the text and JSON traces spell it. */
static const char *mode_name(TraceAccessMode m)
{
    return m & TRACE_ATOMIC                    ? "atomic"
           : m == (TRACE_READ | TRACE_WRITE) ? "readwrite"
           : m == TRACE_WRITE                 ? "write"
                                              : "read";
}

/* ---- text ---- */

static void text_accesses(FILE *out, const TraceEvent *e)
{
    for (size_t i = 0; i < e->n_accesses; i++) {
        const TraceAccess *a = &e->accesses[i];
        const char *m = mode_name(a->mode);
        if (a->buffer)
            fprintf(out, " %s b%" PRIu64 "[%" PRIu64 ",%" PRIu64 ")", m, a->buffer, a->offset,
                    a->offset + a->size);
        else
            fprintf(out, " %s untracked(%" PRIu64 " bytes)", m, a->size);
    }
}

static void text_endpoint(FILE *out, const Index *ix, uint64_t op)
{
    if (op == TRACE_HOST) {
        fputs("host", out);
        return;
    }
    fprintf(out, "op %" PRIu64, op);
    OpInfo *o = op_find(ix, op);
    if (o && o->enq && o->enq->loc)
        fprintf(out, " (%s)", o->enq->loc);
}

static void text_host(FILE *out, const Index *ix, const TraceEvent *e)
{
    switch (e->kind) {
    case TRACE_CALL:
        fprintf(out, "  call %s", e->name ? e->name : "?");
        if (e->loc)
            fprintf(out, " at %s", e->loc);
        if (e->detail)
            fprintf(out, ": %s", e->detail);
        break;
    case TRACE_ENQUEUE:
        fprintf(out, "  enqueue op %" PRIu64 " %s", e->op, e->detail ? e->detail : e->name ? e->name : "?");
        if (e->stream)
            fprintf(out, " on stream %" PRIu64, e->stream);
        if (e->loc)
            fprintf(out, " at %s", e->loc);
        text_accesses(out, e);
        break;
    case TRACE_EDGE:
        fprintf(out, "  edge %s ", trace_edge_kind_name(e->edge));
        text_endpoint(out, ix, e->op);
        fputs(" -> ", out);
        text_endpoint(out, ix, e->op2);
        break;
    default:
        return;
    }
    fputc('\n', out);
}

/* A start or end with its track in the text form: streams by id, then chains (CHAIN + number). */
#define CHAIN (UINT64_C(1) << 62)

typedef struct DevEvent {
    uint64_t track;
    const TraceEvent *e;
} DevEvent;

static uint64_t text_track(const Index *ix, const TraceEvent *e)
{
    if (e->stream)
        return e->stream;
    OpInfo *o = op_find(ix, e->op);
    return CHAIN + (o ? o->chain : 0);
}

static int by_track_then_seq(const void *a, const void *b)
{
    const DevEvent *x = a, *y = b;
    if (x->track != y->track)
        return x->track < y->track ? -1 : 1;
    return x->e->seq < y->e->seq ? -1 : x->e->seq > y->e->seq;
}

static int cmp_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int by_violation(const void *a, const void *b)
{
    const TraceEvent *x = *(const TraceEvent *const *)a, *y = *(const TraceEvent *const *)b;
    if (x->op != y->op)
        return x->op < y->op ? -1 : 1;
    if (x->op2 != y->op2)
        return x->op2 < y->op2 ? -1 : 1;
    int c = cmp_str(x->name, y->name);
    if (!c)
        c = cmp_str(x->detail, y->detail);
    if (!c)
        c = x->seq < y->seq ? -1 : x->seq > y->seq;
    return c;
}

int trace_write_text(TraceRecorder *rec, FILE *out)
{
    Index ix;
    DevEvent *dev = NULL;
    const TraceEvent **vio = NULL;
    int rc = -1;
    if (index_build(rec, &ix))
        return -1;
    size_t n_dev = 0, n_vio = 0;
    dev = malloc((ix.n ? ix.n : 1) * sizeof *dev);
    vio = malloc((ix.n ? ix.n : 1) * sizeof *vio);
    if (!dev || !vio)
        goto out;

    fputs("trace v1\nhost:\n", out);
    for (size_t i = 0; i < ix.n; i++) {
        const TraceEvent *e = ix.ev[i];
        if (e->kind == TRACE_START || e->kind == TRACE_END)
            dev[n_dev++] = (DevEvent){text_track(&ix, e), e};
        else if (e->kind == TRACE_VIOLATION)
            vio[n_vio++] = e;
        else
            text_host(out, &ix, e);
    }

    /* Streams, then chains: each runs its ops in order, so each group is deterministic. */
    qsort(dev, n_dev, sizeof *dev, by_track_then_seq);
    for (size_t i = 0; i < n_dev; i++) {
        const TraceEvent *e = dev[i].e;
        if (i == 0 || dev[i - 1].track != dev[i].track) {
            if (e->stream)
                fprintf(out, "stream %" PRIu64 ":\n", e->stream);
            else
                fprintf(out, "chain %" PRIu64 ":\n", dev[i].track - CHAIN);
        }
        fprintf(out, "  %s op %" PRIu64, e->kind == TRACE_START ? "start" : "end", e->op);
        OpInfo *o = op_find(&ix, e->op);
        if (e->kind == TRACE_START && o && o->enq)
            fprintf(out, " %s", op_name(o));
        text_accesses(out, e);
        fputc('\n', out);
    }

    qsort(vio, n_vio, sizeof *vio, by_violation);
    if (n_vio)
        fputs("violations:\n", out);
    for (size_t i = 0; i < n_vio; i++) {
        const TraceEvent *e = vio[i];
        fprintf(out, "  %s ", e->name ? e->name : "violation");
        text_endpoint(out, &ix, e->op);
        if (e->op2 != TRACE_HOST) {
            fputs(" and ", out);
            text_endpoint(out, &ix, e->op2);
        }
        if (e->detail)
            fprintf(out, ": %s", e->detail);
        fputc('\n', out);
    }
    size_t dropped = trace_recorder_dropped(rec);
    if (dropped)
        fprintf(out, "dropped %zu events (out of memory)\n", dropped);
    rc = ferror(out) ? -1 : 0;
out:
    free(dev);
    free(vio);
    index_free(&ix);
    return rc;
}

/* ---- Chrome Trace Event JSON ---- */

typedef struct Json {
    FILE *out;
    int first;      /* no event written yet */
    uint64_t flows; /* flow ids handed out */
} Json;

/* Writes s as a JSON string. Valid UTF-8 passes through; control characters are escaped and bytes
 * that do not form valid UTF-8 become U+FFFD, so the file always parses. */
static void json_str(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    fputc('"', out);
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
            p++;
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
            p++;
        } else if (c < 0x80) {
            fputc(c, out);
            p++;
        } else {
            int n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : -1;
            int ok = n > 0;
            for (int i = 1; ok && i <= n; i++)
                ok = (p[i] & 0xc0) == 0x80;
            /* Reject overlong forms and surrogates, as JSON parsers do. */
            if (ok && n == 2 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0)))
                ok = 0;
            if (ok && n == 3 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
                ok = 0;
            if (ok) {
                fwrite(p, 1, (size_t)n + 1, out);
                p += n + 1;
            } else {
                fputs("\\ufffd", out);
                p++;
            }
        }
    }
    fputc('"', out);
}

static void json_ts(FILE *out, const char *key, uint64_t ns)
{
    fprintf(out, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000, (unsigned)(ns % 1000));
}

/* pid 1 holds what the program did, on its tracks (tids): TID_HOST, a stream's id, TID_CHAIN + a
 * chain's number, TID_VIOLATIONS. pid 2 ("workers") holds the same ops again on the simulator's
 * threads (tid = worker; 0 is the host thread), without flows. */
enum { PID_PROGRAM = 1, PID_WORKERS = 2 };
enum { TID_HOST = 0, TID_CHAIN = 1000000, TID_VIOLATIONS = 2000000 };

static void json_begin(Json *j, const char *ph, const char *name, int pid, uint64_t tid)
{
    fputs(j->first ? "\n" : ",\n", j->out);
    j->first = 0;
    fprintf(j->out, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%" PRIu64 ",\"name\":", ph, pid, tid);
    json_str(j->out, name);
}

static void json_meta(Json *j, const char *what, int pid, uint64_t tid, const char *name, uint64_t sort)
{
    char key[32];
    json_begin(j, "M", what, pid, tid);
    fputs(",\"args\":{\"name\":", j->out);
    json_str(j->out, name);
    fputs("}}", j->out);
    snprintf(key, sizeof key, "%s_sort_index", strncmp(what, "thread", 6) == 0 ? "thread" : "process");
    json_begin(j, "M", key, pid, tid);
    fprintf(j->out, ",\"args\":{\"sort_index\":%" PRIu64 "}}", sort);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int op_drawn(const OpInfo *o)
{
    return o && o->start && o->end;
}

static uint64_t op_tid(const OpInfo *o)
{
    return o->start->stream ? o->start->stream : TID_CHAIN + o->chain;
}

/* ---- layout: where each op's slice is drawn ----
 *
 * Times come from several threads, each read before the recorder's lock, so an op's start can be
 * recorded a few nanoseconds before the end of the op it waited for. Slices are drawn from the
 * recorded times, moved only as far as needed for the picture to say what happened: an op starts
 * no earlier than the end of the op before it on its track and of every op it has an edge from,
 * and lasts at least 2 ns (a flow leaves it 1 ns before its end, strictly inside). Edges go from
 * earlier ops to later ones (ids are given at enqueue), so one pass in id order does it. */

typedef struct Pair {
    size_t to, from; /* indices into ix->ops */
} Pair;

static int by_to(const void *a, const void *b)
{
    const Pair *x = a, *y = b;
    return x->to < y->to ? -1 : x->to > y->to;
}

typedef struct TrackOp {
    uint64_t tid, op;
    size_t i; /* index into ix->ops */
} TrackOp;

static int by_tid_then_op(const void *a, const void *b)
{
    const TrackOp *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

static int lay_out(Index *ix)
{
    size_t n = ix->n_ops, n_pairs = 0, n_drawn = 0;
    Pair *pairs = malloc((ix->n + n + 1) * sizeof *pairs);
    TrackOp *order = malloc((n + 1) * sizeof *order);
    if (!pairs || !order) {
        free(pairs);
        free(order);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (op_drawn(&ix->ops[i]))
            order[n_drawn++] = (TrackOp){op_tid(&ix->ops[i]), ix->ops[i].op, i};
    qsort(order, n_drawn, sizeof *order, by_tid_then_op);
    for (size_t i = 1; i < n_drawn; i++) /* each op after the one before it on its track */
        if (order[i].tid == order[i - 1].tid)
            pairs[n_pairs++] = (Pair){order[i].i, order[i - 1].i};
    for (size_t i = 0; i < ix->n; i++) {
        const TraceEvent *e = ix->ev[i];
        if (e->kind != TRACE_EDGE || e->op == TRACE_HOST || e->op2 == TRACE_HOST || e->op >= e->op2)
            continue;
        OpInfo *from = op_find(ix, e->op), *to = op_find(ix, e->op2);
        if (op_drawn(from) && op_drawn(to))
            pairs[n_pairs++] = (Pair){(size_t)(to - ix->ops), (size_t)(from - ix->ops)};
    }
    qsort(pairs, n_pairs, sizeof *pairs, by_to);
    size_t p = 0;
    for (size_t i = 0; i < n; i++) {
        OpInfo *o = &ix->ops[i];
        while (p < n_pairs && pairs[p].to < i)
            p++;
        if (!op_drawn(o))
            continue;
        uint64_t ts = o->start->t_ns ? o->start->t_ns : 1; /* a flow arrives 1 ns before */
        for (; p < n_pairs && pairs[p].to == i; p++)
            if (ix->ops[pairs[p].from].te > ts)
                ts = ix->ops[pairs[p].from].te;
        o->ts = ts;
        o->te = o->end->t_ns > ts + 2 ? o->end->t_ns : ts + 2;
    }
    free(pairs);
    free(order);
    return 0;
}

static void json_flow(Json *j, const char *name, uint64_t src_tid, uint64_t src_ts, uint64_t dst_tid,
                      uint64_t dst_ts, int enclosing)
{
    uint64_t id = ++j->flows;
    json_begin(j, "s", name, PID_PROGRAM, src_tid);
    fprintf(j->out, ",\"cat\":\"happens-before\",\"id\":%" PRIu64, id);
    json_ts(j->out, "ts", src_ts);
    fputc('}', j->out);
    json_begin(j, "f", name, PID_PROGRAM, dst_tid);
    fprintf(j->out, ",\"cat\":\"happens-before\",\"id\":%" PRIu64, id);
    if (enclosing)
        fputs(",\"bp\":\"e\"", j->out);
    json_ts(j->out, "ts", dst_ts);
    fputc('}', j->out);
}

static void json_accesses(FILE *out, const TraceEvent *e)
{
    fputs(",\"accesses\":\"", out);
    for (size_t i = 0; i < e->n_accesses; i++) {
        const TraceAccess *a = &e->accesses[i];
        const char *m = mode_name(a->mode);
        if (a->buffer)
            fprintf(out, "%s%s b%" PRIu64 "[%" PRIu64 ",%" PRIu64 ")", i ? " " : "", m, a->buffer,
                    a->offset, a->offset + a->size);
        else
            fprintf(out, "%s%s untracked(%" PRIu64 " bytes)", i ? " " : "", m, a->size);
    }
    fputc('"', out);
}

/* An op's slice: on its track (pid 1), or on its worker's (pid 2, at ts). */
static void json_op(Json *j, const OpInfo *o, int pid, uint64_t ts)
{
    const TraceEvent *enq = o->enq;
    json_begin(j, "X", op_name(o), pid,
               pid == PID_PROGRAM ? op_tid(o) : o->start->worker);
    fputs(pid == PID_PROGRAM ? ",\"cat\":\"op\"" : ",\"cat\":\"worker\"", j->out);
    json_ts(j->out, "ts", ts);
    json_ts(j->out, "dur", o->te - o->ts);
    fprintf(j->out, ",\"args\":{\"op\":%" PRIu64, o->op);
    if (o->start->stream)
        fprintf(j->out, ",\"stream\":%" PRIu64, o->start->stream);
    else
        fprintf(j->out, ",\"chain\":%" PRIu64, o->chain);
    fprintf(j->out, ",\"worker\":%u", o->start->worker);
    if (enq && enq->name) {
        fputs(",\"kind\":", j->out);
        json_str(j->out, enq->name);
    }
    if (enq && enq->loc) {
        fputs(",\"loc\":", j->out);
        json_str(j->out, enq->loc);
    }
    if (enq && enq->n_accesses)
        json_accesses(j->out, enq);
    if (o->end->n_accesses)
        json_accesses(j->out, o->end);
    fputs("}}", j->out);
}

static void json_edge(Json *j, const Index *ix, const TraceEvent *e)
{
    const char *name = trace_edge_kind_name(e->edge);
    OpInfo *from = op_find(ix, e->op), *to = op_find(ix, e->op2);
    uint64_t src_tid, src_ts;
    if (e->op == TRACE_HOST) {
        src_tid = TID_HOST;
        src_ts = e->t_ns; /* recorded inside the host call that made the edge */
    } else if (op_drawn(from)) {
        src_tid = op_tid(from);
        src_ts = from->te - 1;
    } else {
        return; /* the op never ran: nothing to anchor the arrow to */
    }
    if (e->op2 == TRACE_HOST) {
        /* into the host call that waited, which enclosed the edge's recording */
        if (e->op != TRACE_HOST && src_ts > e->t_ns)
            src_ts = e->t_ns > from->ts ? e->t_ns : from->ts;
        json_flow(j, name, src_tid, src_ts, TID_HOST, e->t_ns > src_ts ? e->t_ns : src_ts, 1);
        return;
    }
    if (!op_drawn(to))
        return;
    json_flow(j, name, src_tid, src_ts, op_tid(to), to->ts - 1, 0);
}

static uint64_t json_violation(Json *j, const Index *ix, const TraceEvent *e, uint64_t after)
{
    /* The instant sits after the ends of both ops (so both arrows point forward) and after the
     * violation before it (so each arrow binds to its own instant). */
    uint64_t ts = e->t_ns > after ? e->t_ns : after;
    uint64_t ops[2] = {e->op, e->op2};
    for (int i = 0; i < 2; i++) {
        OpInfo *o = op_find(ix, ops[i]);
        if (op_drawn(o) && o->te + 2 > ts)
            ts = o->te + 2;
    }
    for (int i = 0; i < 2; i++) {
        OpInfo *o = op_find(ix, ops[i]);
        if (op_drawn(o) && (i == 0 || ops[1] != ops[0]))
            json_flow(j, "violation", op_tid(o), o->te - 1, TID_VIOLATIONS, ts - 1, 0);
    }
    json_begin(j, "i", e->name ? e->name : "violation", PID_PROGRAM, TID_VIOLATIONS);
    fputs(",\"cat\":\"violation\",\"s\":\"t\"", j->out);
    json_ts(j->out, "ts", ts);
    fputs(",\"args\":{", j->out);
    fprintf(j->out, "\"op\":%" PRIu64 ",\"op2\":%" PRIu64, e->op, e->op2);
    for (int i = 0; i < 2; i++) {
        OpInfo *o = op_find(ix, ops[i]);
        if (o && o->enq && o->enq->loc) {
            fputs(i ? ",\"loc2\":" : ",\"loc\":", j->out);
            json_str(j->out, o->enq->loc);
        }
    }
    fputs(",\"detail\":", j->out);
    json_str(j->out, e->detail);
    fputs("}}", j->out);
    return ts + 2;
}

static int by_worker_then_ts(const void *a, const void *b)
{
    const OpInfo *x = *(const OpInfo *const *)a, *y = *(const OpInfo *const *)b;
    if (x->start->worker != y->start->worker)
        return x->start->worker < y->start->worker ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

/* The workers view: each worker's ops in time order, moved later where the layout made two of
 * them overlap. */
static int json_workers(Json *j, Index *ix)
{
    const OpInfo **w = malloc((ix->n_ops + 1) * sizeof *w);
    if (!w)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < ix->n_ops; i++)
        if (op_drawn(&ix->ops[i]))
            w[n++] = &ix->ops[i];
    if (n)
        json_meta(j, "process_name", PID_WORKERS, 0, "workers", PID_WORKERS);
    qsort(w, n, sizeof *w, by_worker_then_ts);
    uint64_t free_at = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || w[i]->start->worker != w[i - 1]->start->worker) {
            char name[48];
            if (w[i]->start->worker)
                snprintf(name, sizeof name, "worker %u", w[i]->start->worker);
            else
                snprintf(name, sizeof name, "host thread");
            json_meta(j, "thread_name", PID_WORKERS, w[i]->start->worker, name, w[i]->start->worker);
            free_at = 0;
        }
        uint64_t ts = w[i]->ts > free_at ? w[i]->ts : free_at;
        json_op(j, w[i], PID_WORKERS, ts);
        free_at = ts + (w[i]->te - w[i]->ts);
    }
    free(w);
    return 0;
}

int trace_write_chrome(TraceRecorder *rec, FILE *out)
{
    Index ix;
    if (index_build(rec, &ix))
        return -1;
    if (lay_out(&ix)) {
        index_free(&ix);
        return -1;
    }
    Json j = {.out = out, .first = 1};
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);

    json_meta(&j, "process_name", PID_PROGRAM, 0, "gpuinterp", PID_PROGRAM);
    json_meta(&j, "thread_name", PID_PROGRAM, TID_HOST, "host", TID_HOST);
    /* One name per track that has ops, in tid order: streams, then chains. */
    uint64_t *tids = malloc((ix.n_ops ? ix.n_ops : 1) * sizeof *tids);
    if (!tids) {
        index_free(&ix);
        return -1;
    }
    size_t n_tids = 0;
    for (size_t i = 0; i < ix.n_ops; i++)
        if (op_drawn(&ix.ops[i]))
            tids[n_tids++] = op_tid(&ix.ops[i]);
    qsort(tids, n_tids, sizeof *tids, by_u64);
    for (size_t i = 0; i < n_tids; i++) {
        if (i > 0 && tids[i] == tids[i - 1])
            continue;
        char name[48];
        if (tids[i] < TID_CHAIN)
            snprintf(name, sizeof name, "stream %" PRIu64, tids[i]);
        else
            snprintf(name, sizeof name, "chain %" PRIu64, tids[i] - TID_CHAIN);
        json_meta(&j, "thread_name", PID_PROGRAM, tids[i], name, tids[i]);
    }
    free(tids);

    int any_violation = 0;
    uint64_t vio_ts = 0;
    for (size_t i = 0; i < ix.n; i++) {
        const TraceEvent *e = ix.ev[i];
        switch (e->kind) {
        case TRACE_CALL:
            json_begin(&j, "X", e->name ? e->name : "call", PID_PROGRAM, TID_HOST);
            fputs(",\"cat\":\"api\"", out);
            json_ts(out, "ts", e->t_ns);
            json_ts(out, "dur", e->dur_ns ? e->dur_ns : 1);
            fputs(",\"args\":{", out);
            fputs("\"loc\":", out);
            json_str(out, e->loc);
            if (e->detail) {
                fputs(",\"detail\":", out);
                json_str(out, e->detail);
            }
            fputs("}}", out);
            break;
        case TRACE_ENQUEUE: {
            char name[64];
            snprintf(name, sizeof name, "enqueue op %" PRIu64, e->op);
            json_begin(&j, "i", name, PID_PROGRAM, TID_HOST);
            fputs(",\"cat\":\"enqueue\",\"s\":\"t\"", out);
            json_ts(out, "ts", e->t_ns);
            fprintf(out, ",\"args\":{\"op\":%" PRIu64 ",\"stream\":%" PRIu64 ",\"kind\":", e->op, e->stream);
            json_str(out, e->name);
            if (e->detail) {
                fputs(",\"what\":", out);
                json_str(out, e->detail);
            }
            fputs(",\"loc\":", out);
            json_str(out, e->loc);
            fputs("}}", out);
            break;
        }
        case TRACE_END: {
            OpInfo *o = op_find(&ix, e->op);
            if (op_drawn(o) && o->end == e)
                json_op(&j, o, PID_PROGRAM, o->ts);
            break;
        }
        case TRACE_EDGE:
            json_edge(&j, &ix, e);
            break;
        case TRACE_VIOLATION:
            if (!any_violation)
                json_meta(&j, "thread_name", PID_PROGRAM, TID_VIOLATIONS, "violations", TID_VIOLATIONS);
            any_violation = 1;
            vio_ts = json_violation(&j, &ix, e, vio_ts);
            break;
        case TRACE_START:
            break;
        }
    }
    int rc = json_workers(&j, &ix);
    fputs("\n]}\n", out);
    index_free(&ix);
    return rc || ferror(out) ? -1 : 0;
}

int trace_write(TraceRecorder *rec, TraceFormat format, FILE *out)
{
    return format == TRACE_FORMAT_TEXT ? trace_write_text(rec, out) : trace_write_chrome(rec, out);
}

TraceFormat trace_format_for_path(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".json") == 0 ? TRACE_FORMAT_CHROME : TRACE_FORMAT_TEXT;
}

int trace_write_path(TraceRecorder *rec, TraceFormat format, const char *path)
{
    if (strcmp(path, "-") == 0)
        return trace_write(rec, format, stdout) || fflush(stdout) ? -1 : 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = trace_write(rec, format, f);
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}
