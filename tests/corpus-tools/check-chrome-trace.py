#!/usr/bin/env python3
"""Checks Chrome Trace Event JSON files against the rules Perfetto's JSON importer applies.

    check-chrome-trace.py [-q] FILE...

Prints `FILE: ok: N events, T tracks, F flows` per good file (nothing with -q) and
`FILE: event #I: what is wrong` per problem, and exits 1 when any file has one, 2 on usage errors.
What is checked, and why (Perfetto's json_trace_tokenizer/parser and flow tracker, and the Trace
Event Format document):

  - The file is one JSON value: an object with a "traceEvents" array (or a bare array), no NaN or
    Infinity, every event an object.
  - Every event has the fields its phase needs: "ph" of a known phase; "name", "pid" and "tid"
    (integers) on all but "M" events that name a process; a number "ts" >= 0 on all but "M";
    "dur" >= 0 on "X"; an "s" scope of g, p or t on instants; an "id" and a "cat" on flow events
    (s, t, f), which Perfetto keys flows by; "args" with "name" on process_name and thread_name,
    with "sort_index" on *_sort_index.
  - Each flow id has exactly one start ("s") and one finish ("f"), the finish not before the start.
  - Flows are bound to slices: a start binds to the slice that encloses it on its track, so one must
    (ts <= flow.ts < ts + dur); a finish with "bp":"e" binds likewise; one without binds to the
    next slice that begins on its track at or after it, so one must begin there.
  - Complete events ("X") on one track (pid, tid) nest properly or do not overlap: Perfetto drops or
    misdraws a slice that ends after its parent. "B"/"E" pairs match per track.
  - One track per stream: op slices (cat "op") carry args.stream or args.chain; every stream (and
    every chain) has exactly one track, and a track holds one stream's ops. Thread names are
    unique within a process, so a viewer shows each track once.

Timestamps are microseconds; they are compared in integer nanoseconds (the writers print three
decimals), so rounding cannot make two slices overlap or part.
"""
import json
import sys
from collections import defaultdict

PHASES = set("XBEiIsftMCbenNODPpRc")


def ns(x):
    return int(round(x * 1000))


def bad_constant(name):
    raise ValueError("%s is not JSON" % name)


def check(path):
    errors = []

    def err(i, msg):
        errors.append("%s: event #%s: %s" % (path, i, msg) if i is not None else "%s: %s" % (path, msg))

    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, parse_constant=bad_constant)
    except (OSError, ValueError) as e:
        return ["%s: does not parse: %s" % (path, e)], None
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        return ["%s: no traceEvents array" % path], None

    slices = defaultdict(list)  # (pid, tid) -> [(ts, end, index)]
    begins = defaultdict(list)  # (pid, tid) -> slice start times, for flows that bind to the next
    starts, finishes = defaultdict(list), defaultdict(list)
    open_be = defaultdict(list)
    thread_names = defaultdict(dict)  # pid -> name -> tid
    stream_tracks = defaultdict(set)  # ("stream", n) / ("chain", n) -> tracks
    track_streams = defaultdict(set)
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            err(i, "not an object")
            continue
        ph = e.get("ph")
        if not isinstance(ph, str) or ph not in PHASES:
            err(i, "no known phase: ph=%r" % (ph,))
            continue
        name = e.get("name")
        if not isinstance(name, str):
            err(i, "%s event without a string name" % ph)
        pid, tid = e.get("pid"), e.get("tid")
        if not isinstance(pid, int) or isinstance(pid, bool):
            err(i, "%s event without an integer pid" % ph)
            continue
        if ph == "M":
            args = e.get("args")
            if name in ("process_name", "thread_name") and not (isinstance(args, dict) and isinstance(args.get("name"), str)):
                err(i, "%s without args.name" % name)
            if name in ("process_sort_index", "thread_sort_index") and not (
                    isinstance(args, dict) and isinstance(args.get("sort_index"), int)):
                err(i, "%s without an integer args.sort_index" % name)
            if name.startswith("thread"):
                if not isinstance(tid, int) or isinstance(tid, bool):
                    err(i, "%s without an integer tid" % name)
                elif name == "thread_name" and isinstance(args, dict):
                    other = thread_names[pid].get(args.get("name"))
                    if other is not None and other != tid:
                        err(i, "thread name %r used by tids %d and %d of pid %d" % (args.get("name"), other, tid, pid))
                    thread_names[pid][args.get("name")] = tid
            continue
        if not isinstance(tid, int) or isinstance(tid, bool):
            err(i, "%s event without an integer tid" % ph)
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or ts < 0:
            err(i, "%s event without a timestamp >= 0: ts=%r" % (ph, ts))
            continue
        t, track = ns(ts), (pid, tid)
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or isinstance(dur, bool) or dur < 0:
                err(i, "complete event without a duration >= 0: dur=%r" % (dur,))
                continue
            slices[track].append((t, t + ns(dur), i))
            begins[track].append(t)
            if e.get("cat") == "op":
                args = e.get("args") or {}
                keys = [(k, args[k]) for k in ("stream", "chain") if k in args]
                if len(keys) != 1:
                    err(i, "op slice without exactly one of args.stream, args.chain")
                else:
                    stream_tracks[keys[0]].add(track)
                    track_streams[track].add(keys[0])
        elif ph in "iI":
            if e.get("s", "t") not in ("g", "p", "t"):
                err(i, "instant with scope %r" % e.get("s"))
            if e.get("s", "t") == "t":
                begins[track].append(t)
        elif ph == "B":
            open_be[track].append((t, i))
            begins[track].append(t)
        elif ph == "E":
            if not open_be[track]:
                err(i, "E without a B on its track")
            else:
                b, bi = open_be[track].pop()
                slices[track].append((b, t, bi))
        elif ph in "stf":
            if "id" not in e or not isinstance(e.get("cat"), str):
                err(i, "flow event without an id and a cat")
                continue
            if ph == "s":
                starts[e["id"]].append((t, track, i, False))
            elif ph == "f":
                finishes[e["id"]].append((t, track, i, e.get("bp") == "e"))
    for track, opened in open_be.items():
        for _, i in opened:
            err(i, "B without an E")

    # Proper nesting per track: a stack of open slices' ends.
    for track, ss in slices.items():
        ss.sort(key=lambda s: (s[0], -(s[1] - s[0]), s[2]))
        stack = []
        for t0, t1, i in ss:
            while stack and stack[-1][0] <= t0:
                stack.pop()
            if stack and t1 > stack[-1][0]:
                err(i, "slice [%d, %d) ns on pid %d tid %d overlaps event #%d, which ends at %d ns" %
                    (t0, t1, track[0], track[1], stack[-1][1], stack[-1][0]))
            stack.append((t1, i))
        begins[track].sort()

    def enclosed(track, t):
        return any(t0 <= t < t1 or (t0 == t1 == t) for t0, t1, _ in slices.get(track, ()))

    for fid in set(starts) | set(finishes):
        s, f = starts.get(fid, []), finishes.get(fid, [])
        if len(s) != 1 or len(f) != 1:
            where = (s or f)[0][2]
            err(where, "flow id %r has %d starts and %d finishes" % (fid, len(s), len(f)))
            continue
        (st, strack, si, _), (ft, ftrack, fi, fenc) = s[0], f[0]
        if ft < st:
            err(fi, "flow id %r finishes (%d ns) before it starts (%d ns)" % (fid, ft, st))
        if not enclosed(strack, st):
            err(si, "flow start %r at %d ns is in no slice of pid %d tid %d" % (fid, st, strack[0], strack[1]))
        if fenc:
            if not enclosed(ftrack, ft):
                err(fi, "flow finish %r (bp e) at %d ns is in no slice of its track" % (fid, ft))
        elif not any(b >= ft for b in begins.get(ftrack, ())):
            err(fi, "flow finish %r at %d ns: no slice begins after it on its track" % (fid, ft))

    for key, tracks in stream_tracks.items():
        if len(tracks) != 1:
            err(None, "%s %s is drawn on %d tracks: %s" % (key[0], key[1], len(tracks), sorted(tracks)))
    for track, keys in track_streams.items():
        if len(keys) != 1:
            err(None, "track pid %d tid %d holds the ops of %s" %
                (track[0], track[1], ", ".join("%s %s" % k for k in sorted(keys))))
    n_tracks = len(set(slices) | set(begins))
    return errors, "%d events, %d tracks, %d flows" % (len(events), n_tracks, len(starts))


def main(argv):
    quiet = False
    files = []
    for a in argv[1:]:
        if a == "-q":
            quiet = True
        elif a.startswith("-"):
            sys.stderr.write("usage: check-chrome-trace.py [-q] FILE...\n")
            return 2
        else:
            files.append(a)
    if not files:
        sys.stderr.write("usage: check-chrome-trace.py [-q] FILE...\n")
        return 2
    failed = False
    for path in files:
        errors, summary = check(path)
        for e in errors[:20]:
            print(e)
        if len(errors) > 20:
            print("%s: %d more problems" % (path, len(errors) - 20))
        if errors:
            failed = True
        elif not quiet:
            print("%s: ok: %s" % (path, summary))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
