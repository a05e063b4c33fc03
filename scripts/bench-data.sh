#!/usr/bin/env bash
# make bench-data: the generated kubelet logs `make bench` reads, written
# to bench-data/ (git-ignored) when missing. Same seed, same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
DATA=${DATA:-bench-data}
SEED=${SEED:-1}
mkdir -p "$DATA"
gen() { # size name [-gzip]
  local f=$DATA/$2
  if [ -s "$f" ] && { [ "${3:-}" != -gzip ] || [ -s "$f.gz" ]; }; then return; fi
  echo "bench-data: generating $f ($1)" >&2
  $GO run ./tools/benchgen -seed "$SEED" -size "$1" -o "$f" ${3:-}
}
gen 100MiB kubelet-100m.log -gzip
gen 1GiB kubelet-1g.log -gzip
gen 2GiB kubelet-2g.log
