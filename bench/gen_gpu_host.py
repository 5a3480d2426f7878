#!/usr/bin/env python3
"""Writes a large high-level program of gpu host ops for the lowering benchmark (bench/lower.sh).

    bench/gen_gpu_host.py N [--per-func K] > prog.mlir

N blocks of device work, K per func.func (default 50), each block on buffers of its own shape:

    gpu.wait async -> gpu.alloc async -> gpu.memcpy async (host to device)
      -> gpu.wait async (a second stream, joined through an event)
      -> gpu.memset async -> gpu.memcpy async (device to host) -> gpu.dealloc async -> gpu.wait

Every async op has exactly one dependency, so MLIR 22's gpu-to-llvm lowers all of them. @main
allocates and initializes the host buffers, calls every function, checks one element of the
result and frees the buffers: the program runs on the simulator without errors, races or leaks.
Deterministic for a given N and K.
"""
import argparse
import sys

SHAPES = [(64, "f32", "1.5 : f32"), (48, "i32", "7 : i32"), (32, "i16", "9 : i16"),
          (96, "f32", "-0.25 : f32")]


def block(out, b, k):
    n, ety, _ = SHAPES[k % len(SHAPES)]
    ty = "memref<%dx%s>" % (n, ety)
    p = "%%b%d_" % b
    out.append("    %ss = gpu.wait async\n" % p)
    out.append("    %sd, %sa = gpu.alloc async [%ss] () : %s\n" % (p, p, p, ty))
    out.append("    %sup = gpu.memcpy async [%sa] %sd, %%src%d : %s, %s\n" % (p, p, p, k % 4, ty, ty))
    out.append("    %sj = gpu.wait async [%sup]\n" % (p, p))
    out.append("    %sset = gpu.memset async [%sj] %sd, %%v%d : %s, %s\n" % (p, p, p, k % 4, ty, ety))
    out.append("    %sdown = gpu.memcpy async [%sset] %%dst%d, %sd : %s, %s\n" % (p, p, k % 4, p, ty, ty))
    out.append("    %sfree = gpu.dealloc async [%sdown] %sd : %s\n" % (p, p, p, ty))
    out.append("    gpu.wait [%sfree]\n" % p)


def params():
    ps = []
    for k, (n, ety, _) in enumerate(SHAPES):
        ps.append("%%src%d: memref<%dx%s>, %%dst%d: memref<%dx%s>, %%v%d: %s" % (k, n, ety, k, n, ety, k, ety))
    return ", ".join(ps)


def args():
    return ", ".join("%%h%d, %%o%d, %%c%d" % (k, k, k) for k in range(len(SHAPES)))


def types():
    return ", ".join("memref<%dx%s>, memref<%dx%s>, %s" % (n, e, n, e, e) for n, e, _ in SHAPES)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="number of blocks of device work")
    ap.add_argument("--per-func", type=int, default=50, help="blocks per func.func (default 50)")
    a = ap.parse_args()
    w = sys.stdout.write
    w("module attributes {gpu.container_module} {\n")
    nfuncs = (a.n + a.per_func - 1) // a.per_func
    b = 0
    for f in range(nfuncs):
        out = ["  func.func @work%d(%s) {\n" % (f, params())]
        for _ in range(min(a.per_func, a.n - b)):
            block(out, b, b)
            b += 1
        out.append("    return\n  }\n")
        w("".join(out))
    w("  func.func @main() {\n")
    w("    %i0 = arith.constant 0 : index\n    %i1 = arith.constant 1 : index\n")
    for k, (n, ety, val) in enumerate(SHAPES):
        w("    %%c%d = arith.constant %s\n" % (k, val))
        w("    %%n%d = arith.constant %d : index\n" % (k, n))
        w("    %%h%d = memref.alloc() : memref<%dx%s>\n" % (k, n, ety))
        w("    %%o%d = memref.alloc() : memref<%dx%s>\n" % (k, n, ety))
        w("    scf.for %%i = %%i0 to %%n%d step %%i1 {\n" % k)
        w("      memref.store %%c%d, %%h%d[%%i] : memref<%dx%s>\n" % (k, k, n, ety))
        w("      memref.store %%c%d, %%o%d[%%i] : memref<%dx%s>\n" % (k, k, n, ety))
        w("    }\n")
    for f in range(nfuncs):
        w("    call @work%d(%s) : (%s) -> ()\n" % (f, args(), types()))
    w("    %last = memref.load %o0[%i1] : memref<64xf32>\n")
    w("    vector.print %last : f32\n")
    for k, (n, ety, _) in enumerate(SHAPES):
        w("    memref.dealloc %%h%d : memref<%dx%s>\n" % (k, n, ety))
        w("    memref.dealloc %%o%d : memref<%dx%s>\n" % (k, n, ety))
    w("    return\n  }\n}\n")


if __name__ == "__main__":
    main()
