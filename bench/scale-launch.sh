#!/usr/bin/env bash
# What kernel launches cost as they grow, against native C measured in the same run:
#   bench/scale-launch.sh [quick|sched]
# Builds and runs build/bench/launch (bench/launch.c says what each figure is): vector-add
# launches of 2^10, 2^16, 2^20 and 2^24 elements in blocks of 32 to 1024 threads against the same
# loop in C, the fixed cost of a launch at 1, 256 and 4096 blocks, and the sim's threads
# scheduler against serial on a large kernel and on chains of async ops. It prints medians of
# five rounds (one with `quick`), in CPU time of the process, and each ratio with its target;
# `sched` runs the schedulers' part alone (five rounds, 2^24 elements).
# The machine's load average is printed first: wall-time figures mean little when it exceeds the
# cores, and CPU time then still compares the two sides fairly.
set -euo pipefail
cd "$(dirname "$0")/.."
ninja -C . build/bench/launch >/dev/null
echo "cores: $(nproc), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exec build/bench/launch "$@"
