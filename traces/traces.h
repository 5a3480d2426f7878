/* traces.h — the one event stream every backend emits, and the writers that render it.
 *
 * A trace is a flat list of events appended by a TraceRecorder: host API calls, op enqueue/start/end,
 * happens-before edges between ops (and between an op and the host), and violations (races, misuse).
 * Ops, streams and buffers are named by small integer ids that the caller assigns in host order, never
 * by addresses, so a trace of a deterministic run is itself deterministic.
 *
 * Two writers read a finished recording (and trace_diff compares two through the first):
 *   - text: one line per event, grouped by track (the host first, then each stream and each chain of
 *     token ops, the high-level form's logical streams; then violations),
 *     without timestamps or worker numbers. Ops on one stream run in order and the host is one thread,
 *     so the text is stable under the `serial` scheduler (and largely under the others): it is the form
 *     golden tests diff (traces/golden/).
 *   - Chrome Trace Event JSON, for Perfetto or chrome://tracing: a track per stream and per chain,
 *     API calls as slices on the host track, a flow arrow for every happens-before edge, violations
 *     as instant events on their own track with flows from both ops, and the workers that ran the
 *     ops as a second process.
 *
 * Threads: trace_recorder_add and its helpers may be called from any thread at once (one mutex guards
 * the event list). Readers (trace_recorder_count/event, the writers) must run after recording ended,
 * or at least not race with it; the writers take the lock themselves.
 *
 * This folder knows nothing of MLIR or of the simulator: locations are plain strings.
 */
#ifndef TRACES_TRACES_H
#define TRACES_TRACES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Op id 0 is the host: the source of a submission, the target of a host synchronization. */
#define TRACE_HOST 0

typedef enum TraceKind {
    TRACE_CALL,      /* a host API call returned: name, loc, detail, t_ns = its start, dur_ns */
    TRACE_ENQUEUE,   /* op submitted by the host: op, stream, name (op kind: "memcpy", "memset",
                        "kernel", "marker", ...), detail (what the host ran, as the program names
                        it: "gpu.memcpy", "gpu.launch_func @kernels::@vadd"; may be NULL), loc,
                        accesses known up front */
    TRACE_START,     /* op began on a worker: op, stream, worker */
    TRACE_END,       /* op completed: op, stream; accesses found while running (e.g. a kernel's) */
    TRACE_EDGE,      /* happens-before: op -> op2 (either may be TRACE_HOST), edge says why */
    TRACE_VIOLATION, /* a race or misuse: name = class ("race", "misuse", "leak", ...), op, op2, detail */
} TraceKind;

typedef enum TraceEdgeKind {
    TRACE_EDGE_STREAM, /* previous op on the same stream -> next op */
    TRACE_EDGE_DEP,    /* explicit dependency (an async token) -> op */
    TRACE_EDGE_EVENT,  /* op snapshotted by an event record -> op after the stream wait on it */
    TRACE_EDGE_SYNC,   /* op -> host, when a host wait on it returned */
} TraceEdgeKind;

typedef enum TraceAccessMode {
    TRACE_READ = 1,
    TRACE_WRITE = 2,
    TRACE_ATOMIC = 4, /* with READ | WRITE: an atomic read-modify-write, which conflicts with plain
                         accesses but not with other atomics */
} TraceAccessMode;

/* A byte range of one buffer (an allocation id given by the caller; 0 for memory the caller does not
 * track, e.g. the program's own malloc, printed as "untracked" with its size only). */
typedef struct TraceAccess {
    uint64_t buffer;
    uint64_t offset;
    uint64_t size;
    TraceAccessMode mode;
} TraceAccess;

typedef struct TraceEvent {
    TraceKind kind;
    uint64_t seq;         /* position in the recording, assigned by the recorder */
    uint64_t t_ns;        /* nanoseconds since the recorder was created; 0 = assign now */
    uint64_t dur_ns;      /* TRACE_CALL: how long the call took */
    uint64_t op;          /* op id (>= 1), TRACE_HOST for none */
    uint64_t op2;         /* TRACE_EDGE: target; TRACE_VIOLATION: the other op, or TRACE_HOST */
    uint64_t stream;      /* stream id (>= 1), 0 when the op is on no stream */
    uint32_t worker;      /* TRACE_START: the worker that ran the op */
    TraceEdgeKind edge;   /* TRACE_EDGE only */
    const char *name;     /* call name, op kind, or violation class */
    const char *loc;      /* location string, e.g. "prog.mlir:3:5" or "mgpuMemcpy#2"; may be NULL */
    const char *detail;   /* free text without addresses (e.g. "stream 2"); may be NULL */
    const TraceAccess *accesses;
    size_t n_accesses;
} TraceEvent;

typedef struct TraceRecorder TraceRecorder;

typedef enum TraceFormat {
    TRACE_FORMAT_TEXT,
    TRACE_FORMAT_CHROME,
} TraceFormat;

/* Returns NULL when out of memory. */
TraceRecorder *trace_recorder_create(void);
void trace_recorder_destroy(TraceRecorder *rec);

/* Nanoseconds since the recorder was created (CLOCK_MONOTONIC). */
uint64_t trace_recorder_now(const TraceRecorder *rec);

/* Appends a copy of *ev (strings and accesses are copied; seq is assigned, and t_ns if it was 0).
 * Returns 0, or -1 when out of memory (the event is dropped and the recorder remembers it). */
int trace_recorder_add(TraceRecorder *rec, const TraceEvent *ev);

size_t trace_recorder_count(TraceRecorder *rec);
/* The i-th event in recording order; valid until the recorder is destroyed. */
const TraceEvent *trace_recorder_event(TraceRecorder *rec, size_t i);
/* Events dropped because memory ran out. */
size_t trace_recorder_dropped(TraceRecorder *rec);

/* Shorthands for trace_recorder_add. Each returns its status. */
int trace_call(TraceRecorder *rec, const char *name, const char *loc, uint64_t t_begin,
               const char *detail);
int trace_op_enqueue(TraceRecorder *rec, uint64_t op, uint64_t stream, const char *name,
                     const char *loc, const TraceAccess *acc, size_t n_acc);
int trace_op_start(TraceRecorder *rec, uint64_t op, uint64_t stream, uint32_t worker);
int trace_op_end(TraceRecorder *rec, uint64_t op, uint64_t stream, const TraceAccess *acc,
                 size_t n_acc);
int trace_edge(TraceRecorder *rec, TraceEdgeKind kind, uint64_t from, uint64_t to);
int trace_violation(TraceRecorder *rec, const char *cls, uint64_t op, uint64_t op2,
                    const char *detail);

const char *trace_kind_name(TraceKind kind);
const char *trace_edge_kind_name(TraceEdgeKind kind);

/* Writers. Return 0, or -1 when writing failed (errno set by stdio) or memory ran out. */
int trace_write_text(TraceRecorder *rec, FILE *out);
int trace_write_chrome(TraceRecorder *rec, FILE *out);
int trace_write(TraceRecorder *rec, TraceFormat format, FILE *out);
/* Writes to a file; "-" is stdout. */
int trace_write_path(TraceRecorder *rec, TraceFormat format, const char *path);
/* The format a trace file's name asks for, the one rule of gpuinterp's --trace and libmgpusim's
 * MGPUSIM_TRACE: a name ending in ".json" is Chrome JSON, any other (and "-") text. An explicit
 * format (--trace-format, MGPUSIM_TRACE_FORMAT) overrides it. */
TraceFormat trace_format_for_path(const char *path);

/* Compares two recordings through their text form and, when they differ, prints a unified diff
 * ("--- a_name", "+++ b_name", hunks with three lines of context) to out (may be NULL). Returns
 * the number of lines removed plus added (0: the same), more than 2000 when the traces are too far
 * apart for a diff (then only the first differing line is named), or -1 when memory ran out. */
int trace_diff(TraceRecorder *a, TraceRecorder *b, const char *a_name, const char *b_name, FILE *out);

#endif
