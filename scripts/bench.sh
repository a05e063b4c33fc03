#!/usr/bin/env bash
# make bench: Go benchmarks (parser, engine) and a whole-process comparison
# of `podflow get pods` with grep (and rg when installed) on generated
# kubelet logs. Every timing is the median of $RUNS runs in this one
# invocation, file in page cache; compare the ratios, not the seconds,
# across machines.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
BIN=${BIN:-bin}
DATA=${DATA:-bench-data}
RUNS=${RUNS:-5}
GOBENCH=${GOBENCH:-1} # 0 skips the Go benchmarks
OUTPUTS=${OUTPUTS:-1} # 0 skips the output kinds against get pods
# BASE=<git revision> also builds podflow at that revision and runs its get
# pods in the same rounds as HEAD's, for the ratio of the two (a change to
# parser/ or timeline/ must not slow get pods by more than 5%).
BASE=${BASE:-}

need() { command -v "$1" >/dev/null 2>&1; }
if [ ! -x /usr/bin/time ] || ! /usr/bin/time -f %M true >/dev/null 2>&1; then
  echo "bench: installing GNU time for peak RSS" >&2
  if need apt-get; then apt-get install -y -qq time >/dev/null 2>&1 || true; fi
fi
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is needed for peak RSS" >&2; exit 1; }

mkdir -p "$BIN"
$GO build -o "$BIN/podflow" ./cmd/podflow
$GO build -o "$BIN/benchgen" ./tools/benchgen
if [ -n "$BASE" ]; then
  rev=$(git rev-parse --short "$BASE^{commit}") || { echo "bench: BASE=$BASE: no such revision" >&2; exit 2; }
  src=$(mktemp -d)
  trap 'rm -rf "$src"' EXIT
  git archive "$rev" | tar -x -C "$src"
  bin=$(cd "$BIN" && pwd)
  (cd "$src" && $GO build -o "$bin/podflow-base" ./cmd/podflow)
  echo "base: $rev ($(git log -1 --format=%cs "$rev"))"
fi
"$(dirname "$0")/bench-data.sh"

F1=$DATA/kubelet-1g.log
F2=$DATA/kubelet-2g.log
F100=$DATA/kubelet-100m.log
FN=$DATA/kubelet-1g-noise.log # most lines the node's own, not the pods'

if [ "$GOBENCH" = 1 ]; then
  echo "== Go benchmarks (median of $RUNS)"
  $GO test -run '^$' -bench . -benchmem -count "$RUNS" ./parser/ ./timeline/ > "$BIN/gobench.txt"
  # The TUI's loader on the 1 GiB file: time to the first snapshot with pods.
  PODFLOW_BENCH_LOG=$PWD/$DATA/kubelet-1g.log $GO test -run '^$' -bench TUIFirstPods -benchtime 1x -count "$RUNS" ./tui/ >> "$BIN/gobench.txt"
  # Median of every metric per benchmark, benchstat-style.
  awk '
    /^Benchmark/ {
      name = $1; sub(/-[0-9]+$/, "", name)
      if (!(name in seen)) { seen[name] = 1; order[++n] = name }
      for (i = 3; i + 1 <= NF; i += 2) {
        key = name SUBSEP $(i + 1)
        if (!(key in cnt)) { units[name] = units[name] " " $(i + 1) }
        vals[key, ++cnt[key]] = $i
      }
    }
    function median(key,   m, i, j, t, a) {
      m = cnt[key]
      for (i = 1; i <= m; i++) a[i] = vals[key, i] + 0
      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    END {
      for (k = 1; k <= n; k++) {
        name = order[k]; line = sprintf("%-44s", name)
        split(substr(units[name], 2), u, " ")
        for (i = 1; i in u; i++) line = line sprintf("  %g %s", median(name SUBSEP u[i]), u[i])
        print line
      }
    }' "$BIN/gobench.txt"
  echo
fi

# add LABEL CMD... queues a command; runall then runs every queued command
# $RUNS times, round by round (one run of each per round), so that a slow
# spell of a shared machine falls on all of them alike and the ratios
# compare like with like; it prints the median wall seconds and median
# peak RSS (KiB) of each. stdout goes to a file (GNU grep stops at the
# first match when its output is /dev/null).
declare -A WALL RSS TS MS
LABELS=() CMDS=()
add() {
  LABELS+=("$1"); shift
  CMDS+=("$(printf '%q ' "$@")")
}
median() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
runall() {
  local i k out label
  for ((i = 0; i < RUNS; i++)); do
    for k in "${!LABELS[@]}"; do
      out=$(eval "/usr/bin/time -f '%e %M' ${CMDS[k]}" 2>&1 >"$BIN/bench-out.txt" | tail -1)
      label=${LABELS[k]}
      TS[$label]+=" ${out% *}"
      MS[$label]+=" ${out#* }"
    done
  done
  for label in "${LABELS[@]}"; do
    WALL[$label]=$(median "${TS[$label]}")
    RSS[$label]=$(median "${MS[$label]}")
    printf '%-34s %8.2f s  %8.1f MiB peak RSS\n' "$label" "${WALL[$label]}" "$(echo "${RSS[$label]}" | awk '{print $1/1024}')"
  done
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

warm() { for f in "$@"; do cat "$f" >/dev/null; done; }

echo "== whole process (median of $RUNS rounds, each command once a round, $(nproc) cores, page cache warm)"
warm "$F1" "$F2" "$F100" "$F1.gz" "$F100.gz" "$FN"
pods=$("$BIN/podflow" get pods --no-headers "$F1" 2>/dev/null | wc -l || true)
# The pod lines pod prints: the first that is not running.
pod=$("$BIN/podflow" get pods --no-headers "$F1" 2>/dev/null | awk '$4 != "Running" {print $2; exit}' || true)
echo "1 GiB file: $(wc -l <"$F1") lines, $pods pods; lines pod $pod"
npods=$("$BIN/podflow" get pods --no-headers "$FN" 2>/dev/null | wc -l || true)
echo "1 GiB noise file: $(wc -l <"$FN") lines, $npods pods"
add "grep -cF SyncLoop 1GiB" grep -cF SyncLoop "$F1"
if need rg; then add "rg -c SyncLoop 1GiB" rg -c SyncLoop "$F1"; fi
add "podflow get pods 100MiB" "$BIN/podflow" get pods "$F100"
add "podflow get pods 1GiB" "$BIN/podflow" get pods "$F1"
if [ -n "$BASE" ]; then add "base get pods 1GiB" "$BIN/podflow-base" get pods "$F1"; fi
add "grep -cF SyncLoop 1GiB-noise" grep -cF SyncLoop "$FN"
add "podflow get pods 1GiB-noise" "$BIN/podflow" get pods "$FN"
if [ -n "$BASE" ]; then add "base get pods 1GiB-noise" "$BIN/podflow-base" get pods "$FN"; fi
add "podflow get pods 2GiB" "$BIN/podflow" get pods "$F2"
add "podflow get pods 100MiB.gz" "$BIN/podflow" get pods "$F100.gz"
add "podflow get pods 1GiB.gz" "$BIN/podflow" get pods "$F1.gz"
add "zcat 1GiB.gz | grep -cF SyncLoop" sh -c "zcat '$F1.gz' | grep -cF SyncLoop"
add "grep -F <pod> 1GiB" grep -F "$pod" "$F1"
add "podflow lines pod <pod> 1GiB" "$BIN/podflow" lines pod "$pod" "$F1"
runall

if [ "$OUTPUTS" = 1 ]; then
  # Every output kind against get pods -o name on the 1 GiB log, paired
  # as above (one run of each per round, stdout to a file): the printers
  # should cost about their bytes, not the engine's time again.
  echo
  echo "== outputs on the 1 GiB log against get pods -o name (median of $RUNS rounds)"
  OLABELS=("get pods -o name" "get pods -o wide" "get pods -o json" "get pods -o yaml" "trace -o chrome" "trace -o otlp" "report" "stats")
  LABELS=() CMDS=()
  unset TS MS
  declare -A TS MS
  add "get pods -o name" "$BIN/podflow" get pods -o name "$F1"
  add "get pods -o wide" "$BIN/podflow" get pods -o wide "$F1"
  add "get pods -o json" "$BIN/podflow" get pods -o json "$F1"
  add "get pods -o yaml" "$BIN/podflow" get pods -o yaml "$F1"
  add "trace -o chrome" "$BIN/podflow" trace -o chrome "$F1"
  add "trace -o otlp" "$BIN/podflow" trace -o otlp "$F1"
  add "report" "$BIN/podflow" report "$F1"
  add "stats" "$BIN/podflow" stats "$F1"
  runall
  echo
  for label in "${OLABELS[@]}"; do
    printf '%-20s / get pods -o name   %s x   [<= 2.0]\n' "$label" "$(ratio "${WALL[$label]}" "${WALL[get pods -o name]}")"
  done
fi

echo
echo "== figures (targets in brackets)"
printf 'get pods 1GiB / grep -cF 1GiB       %s x   [<= 1.0]\n' "$(ratio "${WALL[podflow get pods 1GiB]}" "${WALL[grep -cF SyncLoop 1GiB]}")"
printf 'get pods 1GiB-noise / grep -cF 1GiB-noise  %s x   [<= 1.0]\n' "$(ratio "${WALL[podflow get pods 1GiB-noise]}" "${WALL[grep -cF SyncLoop 1GiB-noise]}")"
if need rg; then
  printf 'get pods 1GiB / rg -c 1GiB          %s x\n' "$(ratio "${WALL[podflow get pods 1GiB]}" "${WALL[rg -c SyncLoop 1GiB]}")"
fi
printf 'peak RSS get pods 1GiB (%s pods)  %s MiB [<= 100]\n' "$pods" "$(awk -v k="${RSS[podflow get pods 1GiB]}" 'BEGIN{printf "%.1f", k/1024}')"
if [ -n "$BASE" ]; then
  printf 'get pods 1GiB / base %s          %s x   [<= 1.05]\n' "$rev" "$(ratio "${WALL[podflow get pods 1GiB]}" "${WALL[base get pods 1GiB]}")"
  printf 'get pods 1GiB-noise / base %s    %s x   [<= 1.05]\n' "$rev" "$(ratio "${WALL[podflow get pods 1GiB-noise]}" "${WALL[base get pods 1GiB-noise]}")"
  printf 'peak RSS 1GiB / base %s          %s x   [<= 1.10]\n' "$rev" "$(ratio "${RSS[podflow get pods 1GiB]}" "${RSS[base get pods 1GiB]}")"
fi
printf 'time 2GiB / time 1GiB               %s x   [<= 2.1]\n' "$(ratio "${WALL[podflow get pods 2GiB]}" "${WALL[podflow get pods 1GiB]}")"
printf 'lines pod 1GiB / grep -F pod 1GiB   %s x   (two passes: the analysis, then the lines)\n' "$(ratio "${WALL[podflow lines pod <pod> 1GiB]}" "${WALL[grep -F <pod> 1GiB]}")"
printf 'get pods 1GiB: %s MB/s; 1GiB.gz: %s MB/s of log\n' \
  "$(awk -v t="${WALL[podflow get pods 1GiB]}" -v s="$(stat -c %s "$F1")" 'BEGIN{printf "%.0f", s/t/1e6}')" \
  "$(awk -v t="${WALL[podflow get pods 1GiB.gz]}" -v s="$(stat -c %s "$F1")" 'BEGIN{printf "%.0f", s/t/1e6}')"
if [ "$GOBENCH" = 1 ]; then
  med() { awk -v b="$1" -v u="$2" '$1 ~ b {for (i=3;i<NF;i++) if ($(i+1)==u) print $i}' "$BIN/gobench.txt" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
  echo "TUI first pods on 1GiB: $(med BenchmarkTUIFirstPods ms/first-pods) ms  [<= 1000]"
  echo "engine: $(med BenchmarkEngine records/s) records/s; parser on generated log: $(med 'BenchmarkParseGenerated/workers=1' MB/s) MB/s on 1 core, $(med 'BenchmarkParseGenerated/workers=[2-9]' MB/s) MB/s on all"
  echo "parser allocs per uninteresting line: $(awk '/BenchmarkParse\/text-unwanted/ {for (i=3;i<NF;i++) if ($(i+1)=="allocs/line") print $i}' "$BIN/gobench.txt" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')  [0]"
fi
