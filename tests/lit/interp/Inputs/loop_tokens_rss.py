"""Peak memory of async gpu ops chained through an scf.for's iter_args, at two trip counts.

A loop that carries its token to the next iteration owns it (interp/gpu.c, "tokens carried by
scf.for"): each iteration's token is dropped once the next one takes its place, so the run's peak
memory must not grow with the trip count. Three shapes, each run alone (the others' loops run no
iteration):
  flat     one loop: one carried token replaced each iteration, one passed on unchanged
  nested   a loop that runs an inner token loop each iteration, its init a fresh token and its
           result waited for
  through  a loop that carries its token through an inner loop
Usage: loop_tokens_rss.py GPUINTERP [SCHED ...]; prints one line per schedule and shape, then
"ok" or what grew. ASan's quarantine, which would keep freed memory around, is turned off."""
import os
import subprocess
import sys
import tempfile

PROG = """module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n0 = arith.constant N0 : index
    %n1 = arith.constant N1 : index
    %n2 = arith.constant N2 : index
    %f = arith.constant 1.0 : f32
    %h = memref.alloc() : memref<4xf32>
    %d, %t0 = gpu.alloc async () : memref<4xf32>
    %r:2 = scf.for %i = %c0 to %n0 step %c1 iter_args(%t = %t0, %p = %t0) -> (!gpu.async.token, !gpu.async.token) {
      %a = gpu.memset async [%t] %d, %f : memref<4xf32>, f32
      %b = gpu.wait async [%a, %p]
      scf.yield %b, %p : !gpu.async.token, !gpu.async.token
    }
    scf.for %j = %c0 to %n1 step %c1 {
      %e = gpu.wait async [%r#0]
      %q = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %e) -> (!gpu.async.token) {
        %a = gpu.memset async [%t] %d, %f : memref<4xf32>, f32
        scf.yield %a : !gpu.async.token
      }
      gpu.wait [%q]
    }
    %x = scf.for %j = %c0 to %n2 step %c1 iter_args(%tt = %r#0) -> (!gpu.async.token) {
      %q = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %tt) -> (!gpu.async.token) {
        %a = gpu.memset async [%t] %d, %f : memref<4xf32>, f32
        scf.yield %a : !gpu.async.token
      }
      scf.yield %q : !gpu.async.token
    }
    %t1 = gpu.memcpy async [%x, %r#1] %h, %d : memref<4xf32>, memref<4xf32>
    gpu.wait [%t1]
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %d : memref<4xf32>
    memref.dealloc %h : memref<4xf32>
    return
  }
}
"""
SHAPES = ("flat", "nested", "through")


def peak_kb(exe, sched, shape, n, tmp):
    prog = PROG
    for i in range(len(SHAPES)):
        # an outer iteration of nested and through runs two ops, flat's one
        trips = 0 if i != shape else (n if i == 0 else n // 2)
        prog = prog.replace("N%d :" % i, "%d :" % trips)
    path = os.path.join(tmp, "loop-%s-%d.mlir" % (SHAPES[shape], n))
    with open(path, "w") as f:
        f.write(prog)
    env = dict(os.environ)
    asan = env.get("ASAN_OPTIONS", "")
    env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "quarantine_size_mb=0"
    p = subprocess.Popen([exe, "--sched=" + sched, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    out = p.stdout.read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0 or "[1,  1,  1,  1]" not in out:
        sys.exit("%s, %d ops, under %s: exit status %d, output:\n%s" % (SHAPES[shape], n, sched, status, out))
    return ru.ru_maxrss


def main():
    exe = sys.argv[1]
    scheds = sys.argv[2:] or ["serial"]
    small, large = 20000, 400000
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for s in scheds:
            for shape in range(len(SHAPES)):
                a, b = peak_kb(exe, s, shape, small, tmp), peak_kb(exe, s, shape, large, tmp)
                print("%s %s: %d ops %d KB, %d ops %d KB" % (s, SHAPES[shape], small, a, large, b))
                # 380,000 more ops kept about 130 MB of tokens when each was kept to the end
                if b - a > 16 * 1024:
                    bad.append("%s %s: peak memory grew by %d KB" % (s, SHAPES[shape], b - a))
    print("\n".join(bad) if bad else "ok")


main()
