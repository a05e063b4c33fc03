package timeline

import (
	"testing"
	"time"
)

// Judging from what the lines prove (issue #25, change point 4): a pasted
// slice begins and ends mid-life, and a pod is placed where its first
// line puts it, ends where its last lines say, and its stall is timed
// from the first line that shows the trouble. Reconstructions of the
// kubelet's lines (messages and keys of the catalog, values replaced),
// one per symptom seen in the wild.
func TestSliceJudgedByItsLines(t *testing.T) {
	const uid = "4c1f8e2a-7b3d-4e9a-a5c6-1d2e3f4a5b6c"
	const pod = "cart-6c9d7b8f5-pq2rs"
	pleg := func(at, typ, id string) string {
		return `I1122 ` + at + `   21321 kubelet.go:2737] "SyncLoop (PLEG): event for pod" pod="shop/` + pod + `" event={"ID":"` + uid + `","Type":"` + typ + `","Data":"` + id + `"}`
	}
	backOff := func(at string) string {
		return `E1122 ` + at + `   21321 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"cart\" with ImagePullBackOff: \"Back-off pulling image \\\"registry.example.com/shop/cart:2.1\\\"\"" pod="shop/` + pod + `" podUID="` + uid + `"`
	}
	const id1 = "9e15054750847faaa8db2632276acff6d80e61d931c44946abf028e9ede15931"
	const id2 = "12470fbbe8fbd02a46ddfaf38ae98230c13cc1bc05c64a37359b03d2b68992db"
	for _, tc := range []struct {
		name    string
		lines   []string
		verdict Verdict
		waited  time.Duration // 0: not checked
	}{
		{name: "a running pod seen only through PLEG: a container died and started again",
			lines:   []string{pleg("07:10:01.100000", "ContainerDied", id1), pleg("07:10:02.300000", "ContainerStarted", id2)},
			verdict: VerdictRunning},
		{name: "a pod's status alone, phase Running",
			lines:   []string{`I1122 07:10:03.245731   21321 status_manager.go:1184] "Patch status for pod" pod="shop/` + pod + `" podUID="` + uid + `" patch="{\"metadata\":{\"uid\":\"` + uid + `\"},\"status\":{\"phase\":\"Running\",\"podIP\":\"10.1.2.3\"}}"`},
			verdict: VerdictRunning},
		{name: "phase Running of a pod whose container waits to start again proves no run",
			lines: []string{
				`E1122 07:10:02.000000   21321 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"cart\" with RunContainerError: \"failed to create containerd task: exec: \\\"/app\\\": permission denied\"" pod="shop/` + pod + `" podUID="` + uid + `"`,
				`I1122 07:10:03.245731   21321 status_manager.go:1184] "Patch status for pod" pod="shop/` + pod + `" podUID="` + uid + `" patch="{\"metadata\":{\"uid\":\"` + uid + `\"},\"status\":{\"containerStatuses\":[{\"name\":\"cart\",\"ready\":false,\"restartCount\":0,\"started\":false,\"state\":{\"waiting\":{\"reason\":\"RunContainerError\"}}}],\"phase\":\"Running\"}}"`,
			},
			verdict: VerdictStalled},
		{name: "a slice that begins at SyncLoop DELETE",
			lines: []string{
				`I1122 07:10:01.100000   21321 kubelet.go:2456] "SyncLoop DELETE" source="api" pods=["shop/` + pod + `"]`,
				`I1122 07:10:01.200000   21321 kuberuntime_container.go:809] "Killing container with a grace period" pod="shop/` + pod + `" podUID="` + uid + `" containerName="cart" containerID="containerd://` + id1 + `" gracePeriod=30`,
			},
			verdict: VerdictTerminating},
		{name: "a stall timed from its first failure, not from a later PLEG start taken for the sandbox",
			lines: []string{backOff("07:10:00.100000"), backOff("07:10:15.100000"), backOff("07:10:30.100000"), backOff("07:10:45.100000"),
				pleg("07:11:13.100000", "ContainerStarted", id1), backOff("07:11:31.100000")},
			verdict: VerdictStalled, waited: 91 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := onlyFlow(t, buildLines(t, tc.lines...), pod)
			if f.Verdict != tc.verdict {
				t.Errorf("verdict %s at %s (%s), want %s", f.Verdict, f.StalledAt, f.Reason, tc.verdict)
			}
			if tc.waited != 0 && time.Duration(f.Waited) != tc.waited {
				t.Errorf("waited %s, want %s", time.Duration(f.Waited), tc.waited)
			}
		})
	}
}
