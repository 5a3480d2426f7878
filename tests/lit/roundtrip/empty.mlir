// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// A file with no operation at all: mlir-opt wraps nothing in an implicit
// module and prints `module {\n}`; with locations the module is at FILE:0:0.
