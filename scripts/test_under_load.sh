#!/bin/sh
# Runs `deno task test` N times in a row (default 3) while CPU hogs keep every core busy, as on a loaded
# machine: tests must judge outcomes, never wall time. Stops at the first red run; the hogs end with the script.
#   sh scripts/test_under_load.sh [runs]        (or: deno task test:load [runs])
set -eu
runs=${1:-3}
cores=$(nproc 2>/dev/null || echo 2)
hogs=""
stop_hogs() { [ -n "$hogs" ] && kill $hogs 2>/dev/null || true; }
trap stop_hogs EXIT INT TERM
for _ in $(seq "$cores"); do
  sh -c 'while :; do :; done' &
  hogs="$hogs $!"
done
echo "CPU hogs on $cores cores:$hogs"
for run in $(seq "$runs"); do
  started=$(date +%s)
  if deno task test; then
    echo "run $run of $runs: green in $(($(date +%s) - started)) s under load"
  else
    echo "run $run of $runs: RED after $(($(date +%s) - started)) s under load"
    exit 1
  fi
done
