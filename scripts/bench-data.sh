#!/usr/bin/env bash
# make bench-data: the generated kubelet logs `make bench` reads, written
# to bench-data/ (git-ignored) when missing. Same seed, same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
DATA=${DATA:-bench-data}
SEED=${SEED:-1}
mkdir -p "$DATA"
gen() { # size name [benchgen flags: -gzip, -noise]
  local size=$1 f=$DATA/$2 a gz=0
  shift 2
  for a in "$@"; do if [ "$a" = -gzip ]; then gz=1; fi; done
  if [ -s "$f" ] && { [ "$gz" = 0 ] || [ -s "$f.gz" ]; }; then return; fi
  echo "bench-data: generating $f ($size${1:+ $*})" >&2
  $GO run ./tools/benchgen -seed "$SEED" -size "$size" -o "$f" "$@"
}
gen 100MiB kubelet-100m.log -gzip
gen 1GiB kubelet-1g.log -gzip
gen 2GiB kubelet-2g.log
# -v=4 where most lines are the node's own (4,771 pods, one every ~37 s).
gen 1GiB kubelet-1g-noise.log -noise
