// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// index dialect: constants, arithmetic, comparisons, casts, sizeof.

func.func @index_ops(%a: index, %b: index, %i: i32, %l: i64) -> index {
  %c0 = index.constant 0
  %c42 = index.constant 42
  %cneg = index.constant -3
  %t = index.bool.constant true
  %f = index.bool.constant false
  %0 = index.add %a, %b
  %1 = index.sub %a, %c42
  %2 = index.mul %0, %1
  %3 = index.divs %a, %b
  %4 = index.divu %a, %b
  %5 = index.ceildivs %a, %b
  %6 = index.ceildivu %a, %b
  %7 = index.floordivs %a, %b
  %8 = index.rems %a, %b
  %9 = index.remu %a, %b
  %10 = index.maxs %a, %b
  %11 = index.maxu %a, %b
  %12 = index.mins %a, %b
  %13 = index.minu %a, %b
  %14 = index.shl %a, %b
  %15 = index.shrs %a, %b
  %16 = index.shru %a, %b
  %17 = index.and %a, %b
  %18 = index.or %a, %b
  %19 = index.xor %a, %b
  %20 = index.cmp eq(%a, %b)
  %21 = index.cmp ne(%a, %b)
  %22 = index.cmp slt(%a, %b)
  %23 = index.cmp sle(%a, %b)
  %24 = index.cmp sgt(%a, %b)
  %25 = index.cmp sge(%a, %b)
  %26 = index.cmp ult(%a, %b)
  %27 = index.cmp ule(%a, %b)
  %28 = index.cmp ugt(%a, %b)
  %29 = index.cmp uge(%a, %b)
  %30 = index.casts %i : i32 to index
  %31 = index.castu %l : i64 to index
  %32 = index.casts %a : index to i64
  %33 = index.castu %a : index to i16
  %34 = index.sizeof
  return %2 : index
}
