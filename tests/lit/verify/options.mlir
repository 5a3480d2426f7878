// --verify-diagnostics checks parsing and verification and runs nothing: options of a run, and
// --diff, are usage errors; --split-input-file runs several programs, so one --trace cannot hold
// them. A program without directives and diagnostics passes the check silently.
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --verify-diagnostics -e main %s 2>&1 | FileCheck %s --check-prefix=RUNOPT
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --verify-diagnostics --sched=serial %s 2>&1 | FileCheck %s --check-prefix=RUNOPT
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --diff --split-input-file %s 2>&1 | FileCheck %s --check-prefix=DIFF
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --trace=%t.trace %s 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: %gpuinterp --verify-diagnostics %s 2>&1 | count 0
// RUN: %gpuinterp --help | FileCheck %s --check-prefix=HELP

// RUNOPT: error: --verify-diagnostics checks parsing and verification and runs nothing
// DIFF: error: --diff cannot be used with --split-input-file or --verify-diagnostics
// TRACE: error: --split-input-file runs several programs: --trace does not apply
// HELP: --split-input-file
// HELP: --verify-diagnostics

func.func @main() {
  return
}
