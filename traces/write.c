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
 *   pid 1; tid 0 is the host, tid S is stream S, tid WORKER_TID+w holds ops on no stream that worker w
 *   ran, tid VIOLATION_TID holds violations.
 *   API calls and ops are complete events ("X"); enqueues and violations are instants ("i").
 *   Every happens-before edge is a flow: "s" inside the source slice (just before the source op ends),
 *   "f" on the target track. A flow finish without "bp":"e" binds to the next slice that begins on its
 *   track, so it is placed one nanosecond before the target op starts (or before the violation
 *   instant); a finish on the host binds with "bp":"e" to the enclosing synchronization call.
 *   Timestamps are microseconds with three decimals (nanosecond resolution), written with integer
 *   arithmetic so the output does not depend on the locale.
 */
#include "traces/traces.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { WORKER_TID = 1000000, VIOLATION_TID = 2000000 };

typedef struct OpInfo {
    uint64_t op;
    const TraceEvent *enq, *start, *end;
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
    return 0;
fail:
    index_free(ix);
    return -1;
}

/* ---- text ---- */

static void text_accesses(FILE *out, const TraceEvent *e)
{
    for (size_t i = 0; i < e->n_accesses; i++) {
        const TraceAccess *a = &e->accesses[i];
        const char *m = a->mode == (TRACE_READ | TRACE_WRITE) ? "readwrite"
                        : a->mode == TRACE_WRITE              ? "write"
                                                              : "read";
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
        fprintf(out, "  enqueue op %" PRIu64 " %s", e->op, e->name ? e->name : "?");
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

static int by_stream_then_seq(const void *a, const void *b)
{
    const TraceEvent *x = *(const TraceEvent *const *)a, *y = *(const TraceEvent *const *)b;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
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
    const TraceEvent **dev = NULL, **vio = NULL;
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
            dev[n_dev++] = e;
        else if (e->kind == TRACE_VIOLATION)
            vio[n_vio++] = e;
        else
            text_host(out, &ix, e);
    }

    /* Stream 0 (ops on no stream) sorts first; under `serial` their order is deterministic too. */
    qsort(dev, n_dev, sizeof *dev, by_stream_then_seq);
    for (size_t i = 0; i < n_dev; i++) {
        const TraceEvent *e = dev[i];
        if (i == 0 || dev[i - 1]->stream != e->stream) {
            if (e->stream)
                fprintf(out, "stream %" PRIu64 ":\n", e->stream);
            else
                fputs("no stream:\n", out);
        }
        fprintf(out, "  %s op %" PRIu64, e->kind == TRACE_START ? "start" : "end", e->op);
        OpInfo *o = op_find(&ix, e->op);
        if (e->kind == TRACE_START && o && o->enq && o->enq->name)
            fprintf(out, " %s", o->enq->name);
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

static void json_begin(Json *j, const char *ph, const char *name, uint64_t tid)
{
    fputs(j->first ? "\n" : ",\n", j->out);
    j->first = 0;
    fprintf(j->out, "{\"ph\":\"%s\",\"pid\":1,\"tid\":%" PRIu64 ",\"name\":", ph, tid);
    json_str(j->out, name);
}

static void json_thread_name(Json *j, uint64_t tid, const char *name, uint64_t sort)
{
    json_begin(j, "M", "thread_name", tid);
    fputs(",\"args\":{\"name\":", j->out);
    json_str(j->out, name);
    fputs("}}", j->out);
    json_begin(j, "M", "thread_sort_index", tid);
    fprintf(j->out, ",\"args\":{\"sort_index\":%" PRIu64 "}}", sort);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t op_tid(const OpInfo *o)
{
    if (o->start->stream)
        return o->start->stream;
    return WORKER_TID + o->start->worker;
}

/* Where a flow leaves op o: inside its slice, just before it ends. */
static uint64_t op_out_ts(const OpInfo *o)
{
    uint64_t s = o->start->t_ns, e = o->end->t_ns;
    return e > s + 1 ? e - 1 : s;
}

static uint64_t op_dur(const OpInfo *o)
{
    uint64_t s = o->start->t_ns, e = o->end->t_ns;
    return e > s + 1 ? e - s : 2;
}

static int op_drawn(const OpInfo *o)
{
    return o && o->start && o->end;
}

static void json_flow(Json *j, const char *name, uint64_t src_tid, uint64_t src_ts, uint64_t dst_tid,
                      uint64_t dst_ts, int enclosing)
{
    uint64_t id = ++j->flows;
    json_begin(j, "s", name, src_tid);
    fprintf(j->out, ",\"cat\":\"happens-before\",\"id\":%" PRIu64, id);
    json_ts(j->out, "ts", src_ts);
    fputc('}', j->out);
    json_begin(j, "f", name, dst_tid);
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
        const char *m = a->mode == (TRACE_READ | TRACE_WRITE) ? "readwrite"
                        : a->mode == TRACE_WRITE              ? "write"
                                                              : "read";
        if (a->buffer)
            fprintf(out, "%s%s b%" PRIu64 "[%" PRIu64 ",%" PRIu64 ")", i ? " " : "", m, a->buffer,
                    a->offset, a->offset + a->size);
        else
            fprintf(out, "%s%s untracked(%" PRIu64 " bytes)", i ? " " : "", m, a->size);
    }
    fputc('"', out);
}

static void json_op(Json *j, const OpInfo *o)
{
    const TraceEvent *enq = o->enq;
    char name[64];
    const char *kind = enq && enq->name ? enq->name : "op";
    snprintf(name, sizeof name, "%s", kind);
    json_begin(j, "X", name, op_tid(o));
    fputs(",\"cat\":\"op\"", j->out);
    json_ts(j->out, "ts", o->start->t_ns);
    json_ts(j->out, "dur", op_dur(o));
    fprintf(j->out, ",\"args\":{\"op\":%" PRIu64 ",\"worker\":%u", o->op, o->start->worker);
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
    uint64_t src_tid, src_ts, dst_tid, dst_ts;
    if (e->op == TRACE_HOST) {
        src_tid = 0;
        src_ts = e->t_ns;
    } else if (op_drawn(from)) {
        src_tid = op_tid(from);
        src_ts = op_out_ts(from);
    } else {
        return; /* the op never ran: nothing to anchor the arrow to */
    }
    if (e->op2 == TRACE_HOST) {
        json_flow(j, name, src_tid, src_ts, 0, e->t_ns, 1);
        return;
    }
    if (!op_drawn(to))
        return;
    dst_tid = op_tid(to);
    dst_ts = to->start->t_ns ? to->start->t_ns - 1 : 0;
    json_flow(j, name, src_tid, src_ts, dst_tid, dst_ts, 0);
}

static void json_violation(Json *j, const Index *ix, const TraceEvent *e)
{
    /* The instant sits at the later of the detection time and the ends of both ops, so both arrows
     * point forward in time. */
    uint64_t ts = e->t_ns;
    uint64_t ops[2] = {e->op, e->op2};
    for (int i = 0; i < 2; i++) {
        OpInfo *o = op_find(ix, ops[i]);
        if (op_drawn(o) && o->end->t_ns + 2 > ts)
            ts = o->end->t_ns + 2;
    }
    for (int i = 0; i < 2; i++) {
        OpInfo *o = op_find(ix, ops[i]);
        if (op_drawn(o))
            json_flow(j, "violation", op_tid(o), op_out_ts(o), VIOLATION_TID, ts - 1, 0);
    }
    json_begin(j, "i", e->name ? e->name : "violation", VIOLATION_TID);
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
}

int trace_write_chrome(TraceRecorder *rec, FILE *out)
{
    Index ix;
    if (index_build(rec, &ix))
        return -1;
    Json j = {.out = out, .first = 1};
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);

    json_begin(&j, "M", "process_name", 0);
    fputs(",\"args\":{\"name\":\"gpuinterp\"}}", out);
    json_thread_name(&j, 0, "host", 0);
    /* One name per track that has ops, in tid order: streams, then workers that ran ops on no
     * stream. */
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
        if (tids[i] < WORKER_TID)
            snprintf(name, sizeof name, "stream %" PRIu64, tids[i]);
        else
            snprintf(name, sizeof name, "worker %" PRIu64, tids[i] - WORKER_TID);
        json_thread_name(&j, tids[i], name, tids[i]);
    }
    free(tids);

    int any_violation = 0;
    for (size_t i = 0; i < ix.n; i++) {
        const TraceEvent *e = ix.ev[i];
        switch (e->kind) {
        case TRACE_CALL:
            json_begin(&j, "X", e->name ? e->name : "call", 0);
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
            json_begin(&j, "i", name, 0);
            fputs(",\"cat\":\"enqueue\",\"s\":\"t\"", out);
            json_ts(out, "ts", e->t_ns);
            fprintf(out, ",\"args\":{\"op\":%" PRIu64 ",\"stream\":%" PRIu64 ",\"kind\":", e->op, e->stream);
            json_str(out, e->name);
            fputs(",\"loc\":", out);
            json_str(out, e->loc);
            fputs("}}", out);
            break;
        }
        case TRACE_END: {
            OpInfo *o = op_find(&ix, e->op);
            if (op_drawn(o) && o->end == e)
                json_op(&j, o);
            break;
        }
        case TRACE_EDGE:
            json_edge(&j, &ix, e);
            break;
        case TRACE_VIOLATION:
            if (!any_violation)
                json_thread_name(&j, VIOLATION_TID, "violations", VIOLATION_TID);
            any_violation = 1;
            json_violation(&j, &ix, e);
            break;
        case TRACE_START:
            break;
        }
    }
    fputs("\n]}\n", out);
    index_free(&ix);
    return ferror(out) ? -1 : 0;
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
