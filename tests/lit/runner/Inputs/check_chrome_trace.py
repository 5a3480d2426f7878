"""Checks a Chrome Trace Event JSON file written by libmgpusim (MGPUSIM_TRACE=file.json).

Prints a short summary that the lit test matches with FileCheck:
  tracks: host stream 2 stream 3 ...      thread names of the program's process, in tid order
  workers: host thread worker 1 ...       thread names of the workers view
  ops: N   calls: N   flows: N            complete op slices, API call slices, flow pairs
  flow kinds: dep=N event=N ...           the happens-before edges drawn
and fails (exit 1) when the JSON does not parse or a flow has no matching start or finish.
"""
import collections
import json
import sys

with open(sys.argv[1]) as f:
    doc = json.load(f)

events = doc["traceEvents"]
names = {1: {}, 2: {}}
for e in events:
    if e["ph"] == "M" and e["name"] == "thread_name":
        names[e["pid"]][e["tid"]] = e["args"]["name"]
print("tracks:", " ".join(names[1][t] for t in sorted(names[1])))
print("workers:", " ".join(names[2][t] for t in sorted(names[2])))

ops = [e for e in events if e["ph"] == "X" and e.get("cat") == "op"]
calls = [e for e in events if e["ph"] == "X" and e.get("cat") == "api"]
starts = {e["id"]: e for e in events if e["ph"] == "s"}
finishes = {e["id"]: e for e in events if e["ph"] == "f"}
if set(starts) != set(finishes):
    sys.exit("unmatched flows: %s" % sorted(set(starts) ^ set(finishes)))
for i, s in starts.items():
    if finishes[i]["ts"] < s["ts"]:
        sys.exit("flow %d goes back in time" % i)
for e in ops + calls:
    if e["dur"] <= 0:
        sys.exit("slice without duration: %r" % e)
print("ops: %d calls: %d flows: %d" % (len(ops), len(calls), len(starts)))
kinds = collections.Counter(s["name"] for s in starts.values())
print("flow kinds:", " ".join("%s=%d" % kv for kv in sorted(kinds.items())))
for e in events:
    if e["ph"] == "i" and e.get("cat") == "violation":
        a = e["args"]
        print("violation:", e["name"], *[a[k] for k in ("loc", "loc2") if k in a])
