#!/usr/bin/env python3
"""Programs that load --diff's ordering checks, for bench/scale-diff.sh, in time linear in SIZE.

    gen_order.py KIND SIZE [-o FILE] [--synced FILE] [--rows N]

KIND is one of:
  strided  SIZE kernels in one token chain over a buffer of 32 rows of 4 f32 (a thread per row):
           each reads the first two elements of its row and writes their sum to the first (even
           kernels) or the second (odd ones). So every kernel reads 32 separate ranges of 8 bytes
           and writes 32 of 4 (the sim merges only adjacent ranges), and no one write covers a
           read: the read's walk back to a covering write finds none after the first memset.
           --rows N (at most 1024) gives the buffer N rows instead, and each kernel 2 N ranges.
  reads    SIZE ops in one token chain over a buffer of 64 f32: a memset of it all, then in turns
           a kernel that reads elements 32..63 (into a second buffer) and one that writes 0..31,
           so the reads of one range never meet the writes of the other; every 64 ops, 16 reads
           of the whole buffer then 16 kernels that each write one element of it.
  syncs    SIZE memsets of one buffer in one token chain, ordered by their dependencies alone.
           --synced FILE also writes, from FILE (this program lowered by `gpuinterp --lower`),
           that lowering with an mgpuStreamSynchronize after every memset: a lowering whose
           host waits for every op that the program orders after the one before by
           dependencies alone (it loses no concurrency: the program runs them in order too).
  wide     SIZE memsets over SIZE / 16 buffers of 16 f32 in turns, each buffer's in a token
           chain of its own: a graph as wide as a sixteenth of its length.
The program is race-free; the same KIND and SIZE always give the same bytes.
"""
import argparse
import re
import sys


def header(w, kernels):
    w("module attributes {gpu.container_module} {")
    w("  gpu.module @k {")
    for k in kernels:
        for line in k:
            w("    " + line)
    w("  }")
    w("  func.func @main() {")
    for c in (0, 1, 2, 16, 32, 256):
        w("    %%c%d = arith.constant %d : index" % (c, c))
    w("    %f0 = arith.constant 0.0 : f32")
    w("    %f1 = arith.constant 1.0 : f32")


def footer(w):
    w("    return")
    w("  }")
    w("}")


def strided(w, kernels, rows=32):
    n = 4 * rows
    mt = "memref<%dxf32>" % n

    def kernel(name, dst):
        return ["gpu.func @%s(%%m: %s) kernel {" % (name, mt),
                "  %t = gpu.thread_id x",
                "  %c1 = arith.constant 1 : index",
                "  %c4 = arith.constant 4 : index",
                "  %i = arith.muli %t, %c4 : index",
                "  %j = arith.addi %i, %c1 : index",
                "  %%x = memref.load %%m[%%i] : %s" % mt,
                "  %%y = memref.load %%m[%%j] : %s" % mt,
                "  %z = arith.addf %x, %y : f32",
                "  memref.store %%z, %%m[%%%s] : %s" % (dst, mt),
                "  gpu.return",
                "}"]
    header(w, [kernel("even", "i"), kernel("odd", "j")])
    w("    %%cr = arith.constant %d : index" % rows)
    w("    %%m, %%t0 = gpu.alloc async () : %s" % mt)
    w("    %%t1 = gpu.memset async [%%t0] %%m, %%f1 : %s, f32" % mt)
    for k in range(kernels):
        w("    %%t%d = gpu.launch_func async [%%t%d] @k::@%s blocks in (%%c1, %%c1, %%c1) "
          "threads in (%%cr, %%c1, %%c1) args(%%m : %s)" % (k + 2, k + 1, ("even", "odd")[k % 2], mt))
    w("    %%x = gpu.dealloc async [%%t%d] %%m : %s" % (kernels + 1, mt))
    w("    gpu.wait [%x]")
    footer(w)


def reads(w, ops):
    mt, ht = "memref<64xf32>", "memref<32xf32>"
    rd = ["gpu.func @rd(%%m: %s, %%o: %s) kernel {" % (mt, ht),
          "  %t = gpu.thread_id x",
          "  %c32 = arith.constant 32 : index",
          "  %i = arith.addi %t, %c32 : index",
          "  %%x = memref.load %%m[%%i] : %s" % mt,
          "  memref.store %%x, %%o[%%t] : %s" % ht,
          "  gpu.return",
          "}"]
    wr = ["gpu.func @wr(%%m: %s, %%v: f32) kernel {" % mt,
          "  %t = gpu.thread_id x",
          "  memref.store %%v, %%m[%%t] : %s" % mt,
          "  gpu.return",
          "}"]
    one = ["gpu.func @one(%%m: %s, %%i: index) kernel {" % mt,
           "  %v = arith.constant 2.0 : f32",
           "  memref.store %%v, %%m[%%i] : %s" % mt,
           "  gpu.return",
           "}"]
    header(w, [rd, wr, one])
    w("    %%m, %%a0 = gpu.alloc async () : %s" % mt)
    w("    %%o, %%a1 = gpu.alloc async [%%a0] () : %s" % ht)
    w("    %%h = memref.alloc() : %s" % mt)
    w("    %%t0 = gpu.memset async [%%a1] %%m, %%f0 : %s, f32" % mt)
    cur = 0
    for i in range(1, ops):
        nxt = "%%t%d = " % i
        dep = " [%%t%d]" % cur
        if i % 64 < 16:  # whole-buffer reads
            w("    %sgpu.memcpy async%s %%h, %%m : %s, %s" % (nxt, dep, mt, mt))
        elif i % 64 < 32:  # one element each
            w("    %%e%d = arith.constant %d : index" % (i, i % 64))
            w("    %sgpu.launch_func async%s @k::@one blocks in (%%c1, %%c1, %%c1) threads in "
              "(%%c1, %%c1, %%c1) args(%%m : %s, %%e%d : index)" % (nxt, dep, mt, i))
        elif i % 2:
            w("    %sgpu.launch_func async%s @k::@rd blocks in (%%c1, %%c1, %%c1) threads in "
              "(%%c32, %%c1, %%c1) args(%%m : %s, %%o : %s)" % (nxt, dep, mt, ht))
        else:
            w("    %sgpu.launch_func async%s @k::@wr blocks in (%%c1, %%c1, %%c1) threads in "
              "(%%c32, %%c1, %%c1) args(%%m : %s, %%f1 : f32)" % (nxt, dep, mt))
        cur = i
    w("    %%x0 = gpu.dealloc async [%%t%d] %%o : %s" % (cur, ht))
    w("    %%x1 = gpu.dealloc async [%%x0] %%m : %s" % mt)
    w("    gpu.wait [%x1]")
    w("    memref.dealloc %%h : %s" % mt)
    footer(w)


def syncs(w, ops):
    mt = "memref<16xf32>"
    header(w, [])
    w("    %%m, %%t0 = gpu.alloc async () : %s" % mt)
    for i in range(1, ops + 1):
        w("    %%t%d = gpu.memset async [%%t%d] %%m, %%f%d : %s, f32" % (i, i - 1, i % 2, mt))
    w("    %%x = gpu.dealloc async [%%t%d] %%m : %s" % (ops, mt))
    w("    gpu.wait [%x]")
    footer(w)


def wide(w, ops):
    mt = "memref<16xf32>"
    nb = max(1, ops // 16)
    header(w, [])
    last = []
    for b in range(nb):
        w("    %%d%d, %%t%d_0 = gpu.alloc async () : %s" % (b, b, mt))
        last.append("%%t%d_0" % b)
    for i in range(ops):
        b = i % nb
        t = "%%t%d_%d" % (b, i // nb + 1)
        w("    %s = gpu.memset async [%s] %%d%d, %%f%d : %s, f32" % (t, last[b], b, i % 2, mt))
        last[b] = t
    for b in range(nb):
        w("    %%x%d = gpu.dealloc async [%s] %%d%d : %s" % (b, last[b], b, mt))
    w("    gpu.wait [%s]" % ", ".join("%%x%d" % b for b in range(nb)))
    footer(w)


MEMSET = re.compile(r"^( *)llvm\.call @mgpuMemset32\(([^)]*)\).*loc\((.*)\)$")


def synced(src, dst):
    """src's lowering with an mgpuStreamSynchronize of its stream after every mgpuMemset32."""
    out = []
    for line in open(src):
        out.append(line)
        m = MEMSET.match(line.rstrip("\n"))
        if m:
            stream = m.group(2).split(",")[-1].strip()
            out.append("%sllvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> () loc(%s)\n"
                       % (m.group(1), stream, m.group(3)))
    with open(dst, "w") as f:
        f.write("".join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=("strided", "reads", "syncs", "wide"))
    ap.add_argument("size", type=int)
    ap.add_argument("-o", dest="out")
    ap.add_argument("--synced", nargs=2, metavar=("LOWERED", "OUT"))
    ap.add_argument("--rows", type=int, default=32, help="strided: rows of the buffer (1-1024)")
    a = ap.parse_args()
    if not 1 <= a.rows <= 1024:
        ap.error("--rows must be 1 to 1024 (a thread per row, one block)")
    if a.synced:
        synced(*a.synced)
        return 0
    rows = " --rows %d" % a.rows if a.kind == "strided" and a.rows != 32 else ""
    lines = ["// Generated by bench/gen_order.py %s %d%s." % (a.kind, a.size, rows)]
    if a.size > 0:
        if a.kind == "strided":
            strided(lines.append, a.size, a.rows)
        else:
            {"reads": reads, "syncs": syncs, "wide": wide}[a.kind](lines.append, a.size)
    else:
        header(lines.append, [])
        footer(lines.append)
    text = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
