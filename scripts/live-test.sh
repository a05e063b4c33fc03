#!/bin/sh
# make live-test: podflow against a real API server and real kubelets
# (issue #26). tools/kubeharness (make corpus) builds an unmodified
# kube-apiserver and kubelet of KUBE from the k8s.io/kubernetes module and
# runs them against etcd and its fake CRI; here it runs the two scenarios
# of tools/livetest at once:
#   live-node  a kubelet with the node log query on, three pods (Running,
#              CrashLoopBackOff, ImagePullBackOff);
#   no-query   a kubelet with enableSystemLogQuery: false.
# While they run, this script checks that
#   1. podflow get pods --node kbNN-live (through the API server's node log
#      query) shows what the same log shows read as a file;
#   2. get pods, describe node and stats exit 0 on the live node; --since
#      is said not to apply to a node that keeps its log in a file;
#   3. the node without log query is refused with exit 2, naming
#      enableSystemLogQuery and the NodeLogQuery gate; an unknown node
#      exits 2 saying it is not found.
#
# The kubelet's log query (pkg/kubelet/kubelet_server_journal*.go) reads
# journalctl --unit=kubelet when the journal lists a kubelet.service, else
# the file /var/log/kubelet.log (or /var/log/kubelet, or
# /var/log/kubelet/kubelet.log), opened within /var/log: a symlink is
# followed only when it stays there. So the harness works under
# /var/log/podflow-live and /var/log/kubelet.log links to the live-node
# kubelet's log (the harness writes its stderr to <run dir>/kubelet.log).
# The API server reaches a kubelet by the node's Hostname address first (the
# harness names nodes with --hostname-override), and proxies only to a
# global unicast address (pkg/registry/core/node/strategy.go refuses
# loopback: "address not allowed"), so their names are mapped to this
# machine's first global IPv4 address in /etc/hosts for the run, taken out
# again after, and the two kubelets listen on all addresses.
#
# Needs root (the kubelet), about 1 GB of disk for the builds (shared with
# make corpus) and, on a cold cache, the build time of make corpus.
# Refuses to run on a machine with a kubelet of its own.
set -eu

KUBE=${KUBE:-1.37.2}
GO=${GO:-go}
BIN=${BIN:-bin}
API_PORT=${LIVE_API_PORT:-16443}
ETCD_PORT=${LIVE_ETCD_PORT:-12379}
WORK=/var/log/podflow-live
LINK=/var/log/kubelet.log
HOSTS_TAG="# podflow make live-test"

fail() { echo "live-test: FAIL: $*" >&2; exit 1; }
say() { echo "live-test: $*" >&2; }

[ "$(id -u)" = 0 ] || fail "needs root (it runs a kubelet)"
[ -d tools/kubeharness ] || fail "tools/kubeharness is missing (the harness of make corpus)"
if [ -e "$LINK" ] || [ -L "$LINK" ]; then
	case "$(readlink "$LINK" 2>/dev/null || true)" in
	podflow-live/*) rm -f "$LINK" ;;
	*) fail "$LINK exists and is not this test's link: this machine has a kubelet log of its own" ;;
	esac
fi
if command -v journalctl >/dev/null 2>&1 && journalctl --field _SYSTEMD_UNIT 2>/dev/null | grep -qx 'kubelet.service'; then
	fail "the journal lists a kubelet.service: the log query would read it, not the test's kubelet"
fi
minor=$(echo "$KUBE" | cut -d. -f2)
[ "$minor" -ge 27 ] 2>/dev/null || fail "KUBE=$KUBE: the node log query exists from 1.27"
live=kb$minor-live
noquery=kb$minor-noquery

tmp=$(mktemp -d)
harness_pid=
cleanup() {
	if [ -n "$harness_pid" ]; then
		kill -INT "$harness_pid" 2>/dev/null || true
		wait "$harness_pid" 2>/dev/null || true
	fi
	rm -f "$LINK"
	if grep -q "$HOSTS_TAG" /etc/hosts; then
		grep -v "$HOSTS_TAG" /etc/hosts > "$tmp/hosts" && cat "$tmp/hosts" > /etc/hosts
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

say "building podflow and kubeharness"
$GO build -o "$BIN/podflow" ./cmd/podflow
(cd tools/kubeharness && $GO build -o "../../$BIN/kubeharness" .)
podflow=$(pwd)/$BIN/podflow
# --node asks through kubectl proxy: the kubectl of the same release, from
# the same module, in PATH for the run.
say "building kubectl $KUBE"
"$BIN/kubeharness" build -components kubectl "$KUBE" >&2
kubectl=$(ls -d "${PODFLOW_KUBE_CACHE:-$HOME/.cache/podflow-kube}"/v"$KUBE"*/kubectl | sort -V | tail -1)
[ -x "$kubectl" ] || fail "no kubectl built for $KUBE"
mkdir -p "$tmp/bin"
ln -s "$kubectl" "$tmp/bin/kubectl"
PATH=$tmp/bin:$PATH
export PATH

hostip=$(ip -4 -o addr show scope global 2>/dev/null | awk '{sub(/\/.*/, "", $4); print $4; exit}')
[ -n "$hostip" ] || fail "no global IPv4 address: the API server proxies node log queries only to one"
echo "$hostip $live $noquery $HOSTS_TAG" >> /etc/hosts

# A log left by an earlier run would be taken for this run's; a kubelet
# stopped by a signal leaves its mounts (its root dir, a tmpfs per
# projected volume) behind, deepest first to detach.
awk -v w="$WORK/" 'index($2, w) == 1 {print $2}' /proc/mounts | sort -r | xargs -r umount -l
rm -rf "$WORK/run"
say "starting etcd, kube-apiserver and two kubelets $KUBE (harness log: $tmp/harness.log; a cold build takes long)"
"$BIN/kubeharness" run -kube "$KUBE" -scenarios tools/livetest -parallel 2 -out "$tmp/corpus" \
	-work "$WORK" -api-port "$API_PORT" -etcd-port "$ETCD_PORT" > "$tmp/harness.log" 2>&1 &
harness_pid=$!

# The live kubelet's log, once the harness has started it.
log=
i=0
while [ -z "$log" ]; do
	kill -0 "$harness_pid" 2>/dev/null || { cat "$tmp/harness.log" >&2; fail "the harness ended early"; }
	for f in "$WORK"/run/v*/live-node/kubelet.log; do [ -f "$f" ] && log=$f; done
	i=$((i + 1)); [ $i -lt 7200 ] || fail "no kubelet after 2h"
	sleep 1
done
ln -s "${log#/var/log/}" "$LINK"
kubeconfig=$WORK/pki/kubelet.kubeconfig
say "kubelet log $log, linked as $LINK; kubeconfig $kubeconfig"

# Settled: the three pods have had their turn (web started, worker and
# api backed off at least twice).
i=0
until grep -q 'Observed pod startup duration.*web-7d9f8c6b5-x2kqp' "$log" &&
	[ "$(grep -c 'Back-off restarting failed container.*worker-5d8f7b9c4-m2v6n' "$log")" -ge 2 ] &&
	[ "$(grep -c 'Back-off pulling image.*api-6f5b9d7c4-pl8wz' "$log")" -ge 2 ]; do
	kill -0 "$harness_pid" 2>/dev/null || { cat "$tmp/harness.log" >&2; fail "the harness ended early"; }
	i=$((i + 1)); [ $i -lt 300 ] || { tail -50 "$log" >&2; fail "the pods did not settle in 5m"; }
	sleep 1
done

cols='-o=jsonpath={range .items[*]}{.pod.namespace}/{.pod.name} {.verdict} {.stage}{"\n"}{end}'
say "1. get pods --node $live against the same log read as a file"
"$podflow" get pods --node "$live" --kubeconfig "$kubeconfig" > "$tmp/live.table" 2> "$tmp/live.err" || { cat "$tmp/live.err" >&2; fail "get pods --node $live"; }
"$podflow" get pods --node "$live" --kubeconfig "$kubeconfig" "$cols" > "$tmp/live.rows" 2>> "$tmp/live.err"
cp "$log" "$tmp/kubelet.log"
"$podflow" get pods "$tmp/kubelet.log" "$cols" > "$tmp/file.rows"
cat "$tmp/live.table"
[ "$(wc -l < "$tmp/live.rows")" -eq 3 ] || fail "want the 3 pods, got: $(cat "$tmp/live.rows")"
diff "$tmp/file.rows" "$tmp/live.rows" || fail "the node read through the API server and its log as a file differ"
say "   same pods, verdicts and stages: $(tr '\n' ';' < "$tmp/live.rows")"

say "2. describe node, stats, --since"
"$podflow" describe node "$live" --kubeconfig "$kubeconfig" --evidence 0 > "$tmp/describe" || fail "describe node $live"
head -8 "$tmp/describe"
"$podflow" stats --node "$live" --kubeconfig "$kubeconfig" > /dev/null || fail "stats --node $live"
"$podflow" get pods --node "$live" --kubeconfig "$kubeconfig" --since 1h > /dev/null 2> "$tmp/since.err" || fail "get pods --since"
grep -q 'keeps the kubelet log in a file' "$tmp/since.err" || fail "no note that --since was not applied: $(cat "$tmp/since.err")"

say "3. the node without log query, and a node that does not exist"
set +e
"$podflow" get pods --node "$noquery" --kubeconfig "$kubeconfig" > "$tmp/nq.out" 2> "$tmp/nq.err"
code=$?
set -e
cat "$tmp/nq.err"
[ "$code" -eq 2 ] || fail "--node $noquery: exit $code, want 2"
for want in 'enableSystemLogQuery: true' 'enableSystemLogHandler: true' 'NodeLogQuery'; do
	grep -q "$want" "$tmp/nq.err" || fail "--node $noquery: the error does not name $want"
done
set +e
"$podflow" get pods --node kb-no-such-node --kubeconfig "$kubeconfig" 2> "$tmp/nx.err"
code=$?
set -e
[ "$code" -eq 2 ] && grep -q 'not found' "$tmp/nx.err" || fail "unknown node: exit $code: $(cat "$tmp/nx.err")"
cat "$tmp/nx.err"

say "PASS (kube $KUBE)"
