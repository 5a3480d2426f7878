#!/bin/sh
# exit-code.sh — run a command and succeed only if it exits with exactly
# the given status (lit's `not` accepts any failure, a crash included).
#
# usage: exit-code.sh STATUS COMMAND [ARG...]
# The command's stdout and stderr pass through unchanged, so it can feed
# FileCheck:  // RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp ... 2>&1 | FileCheck %s
# The command runs under `timeout ${EXIT_CODE_TIMEOUT:-60}`: a parser that
# loops on malformed input fails instead of hanging the suite.
if [ $# -lt 2 ]; then
    echo "usage: exit-code.sh STATUS COMMAND [ARG...]" >&2
    exit 2
fi
want=$1
shift
timeout "${EXIT_CODE_TIMEOUT:-60}" "$@"
got=$?
if [ "$got" -ne "$want" ]; then
    if [ "$got" -eq 124 ]; then
        echo "exit-code.sh: timed out after ${EXIT_CODE_TIMEOUT:-60}s: $*" >&2
    elif [ "$got" -gt 128 ]; then
        echo "exit-code.sh: expected exit status $want, got $got (killed by signal $((got - 128))): $*" >&2
    else
        echo "exit-code.sh: expected exit status $want, got $got: $*" >&2
    fi
    exit 1
fi
exit 0
