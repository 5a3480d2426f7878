// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// Types as function argument types of private declarations: integers of
// every signedness and odd widths, index, floats, memrefs (static, dynamic,
// 0-d, unranked, strided and affine-map layouts, integer and gpu memory
// spaces, vector elements), vectors (incl. scalable), tensors, tuples,
// none, complex, function types, gpu/async tokens, llvm types (ptr with
// address spaces, literal/named/packed/recursive structs, arrays, funcs,
// void, vectors), and types of other dialects kept as written.

func.func private @integers(i1, i2, i7, i8, i16, i32, i33, i64, i128, i256, si8, si32, ui8, ui64, si1, ui1, i1024)
func.func private @floats(f16, bf16, f32, f64, f80, f128, tf32, f8E4M3FN, f8E5M2)
func.func private @index_none(index, none)
func.func private @memrefs(memref<4xf32>, memref<?xf32>, memref<4x?x8xi32>, memref<f32>, memref<*xf32>, memref<*xi8, 3>, memref<0xf32>, memref<4x4xvector<4xf32>>)
func.func private @memref_layouts(memref<4x4xf32, strided<[4, 1]>>, memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<8xf32, strided<[2], offset: 4>>, memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<16xf32, affine_map<(d0)[s0] -> (d0 * 2 + s0)>>, memref<2x3xf32, strided<[1, 2]>>)
func.func private @memref_spaces(memref<4xf32, 1>, memref<4xf32, 3 : i32>, memref<4xf32, #gpu.address_space<global>>, memref<4xf32, #gpu.address_space<workgroup>>, memref<4xf32, #gpu.address_space<private>>, memref<4xf32, strided<[1]>, 5>, memref<4xf32, "memory-space">)
func.func private @vectors(vector<4xf32>, vector<2x3xi8>, vector<[4]xf32>, vector<2x[4]xi1>, vector<1xindex>, vector<f32>)
func.func private @tensors(tensor<4xf32>, tensor<?x?xf64>, tensor<*xi32>, tensor<f32>, tensor<2x3x4xcomplex<f32>>)
func.func private @tuples(tuple<>, tuple<i32>, tuple<i32, f32, tuple<index, memref<2xi8>>>)
func.func private @complex(complex<f32>, complex<f64>, complex<i32>)
func.func private @functions(() -> (), (i32) -> i32, (i32, f32) -> (i1, i64), () -> (() -> ()), ((i32) -> i32) -> i32)
func.func private @tokens(!gpu.async.token, !async.token, !async.value<f32>, !async.value<memref<2xf32>>, !async.group)
func.func private @llvm_ptrs(!llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>, !llvm.ptr<5>, !llvm.ptr<270>)
func.func private @llvm_structs(!llvm.struct<()>, !llvm.struct<(i32)>, !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, !llvm.struct<packed (i8, i32)>, !llvm.struct<"named", (i32, f32)>, !llvm.struct<"opaque_named", opaque>, !llvm.struct<"list", (ptr, i32)>, !llvm.struct<(struct<(i1, i8)>, f64)>)
func.func private @llvm_other(!llvm.array<4 x i32>, !llvm.array<2 x array<3 x f32>>, !llvm.func<void ()>, !llvm.func<i32 (ptr, ...)>, !llvm.func<ptr (i64, f32)>, !llvm.array<0 x ptr<1>>, vector<4xf16>, !llvm.void, !llvm.token)
func.func private @other_dialects(!nvgpu.device.async.token, !transform.any_op, !ptr.ptr<#ptr.generic_space>)
func.func private @results() -> (i32, memref<?xf32, strided<[?], offset: ?>>, !llvm.struct<(i32, i32)>, !gpu.async.token)
