# lit configuration for gpuinterp's .mlir tests.
#
# Substitutions:
#   %gpuinterp   the gpuinterp binary of the tree under test (GPUINTERP_TREE, default build/)
#   %mgpusim     build/libmgpusim.so (always the normal tree: mlir-runner is not sanitized)
#   %mlir_opt, %mlir_runner, %mlir_lib_dir   the upstream oracle from mlir-22-tools
# FileCheck, not, split-file and count come from llvm-22-tools.
# Features: mlir-opt (llvm-22's mlir-opt is installed); nvcc (CUDA's nvcc, NVCC or /usr/local/cuda/bin/nvcc, is there: tests/ptx/cu's PTX can
# be regenerated and checked).
import os
import lit.formats

config.name = "gpuinterp"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
tree = os.environ.get("GPUINTERP_TREE", "build")
tree = tree if os.path.isabs(tree) else os.path.join(root, tree)
llvm_bin = "/usr/lib/llvm-22/bin"
mlir_lib = "/usr/lib/llvm-22/lib"

config.test_exec_root = os.path.join(tree, "lit")
config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", os.environ["PATH"])])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%gpuinterp", os.path.join(tree, "gpuinterp")))
config.substitutions.append(("%mgpusim", os.path.join(root, "build", "libmgpusim.so")))
config.substitutions.append(("%mlir_opt", os.path.join(llvm_bin, "mlir-opt")))
config.substitutions.append(("%mlir_runner", os.path.join(llvm_bin, "mlir-runner")))
config.substitutions.append(("%mlir_lib_dir", mlir_lib))
config.substitutions.append(("%root", root))
config.substitutions.append(("%python", "python3"))
# mlir-opt is there (always, on the test machines): tests that compile with it say REQUIRES: mlir-opt
if os.access(os.path.join(llvm_bin, "mlir-opt"), os.X_OK):
    config.available_features.add("mlir-opt")
# lower/ is written: tests of the lowering (REQUIRES: lowering) run
config.available_features.add("lowering")
# CUDA's compiler, for the PTX corpus (tests/ptx/cu/regen.sh): tests that need it say REQUIRES: nvcc
nvcc = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
if os.access(nvcc, os.X_OK):
    config.available_features.add("nvcc")
    config.environment["NVCC"] = nvcc
