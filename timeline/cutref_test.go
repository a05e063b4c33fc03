package timeline

import (
	"sort"
	"strings"
	"testing"
)

// TestCutAndPartialReferences: lines cut at the terminal's width or by a
// pager (kubeadm-2853, website-26167, kubeadm-3100 in testdata/wild) and
// references that name less than a whole pod find a known pod only when
// one alone fits, and never start a pod from a cut name; the sync loop
// adds a pod once, so a second ADD of a name is another pod.
func TestCutAndPartialReferences(t *testing.T) {
	const (
		addMain1 = `I0405 09:10:00.000000   51736 kubelet.go:2070] "SyncLoop ADD" source="file" pods=["kube-system/etcd-kube-main1"]` + "\n"
		addMain2 = `I0405 09:10:00.100000   51736 kubelet.go:2070] "SyncLoop ADD" source="file" pods=["kube-system/etcd-kube-main2"]` + "\n"
		// kubeadm-2853's line, its pod field cut by the pager ('>').
		cutLine = `E0405 09:12:43.879031   51736 pod_workers.go:965] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"etcd\" with CrashLoopBackOff: \"back-off 5m0s restarting failed container=etcd\"" pod="kube-system/etcd-kube-ma>` + "\n"
	)
	for _, tc := range []struct {
		name, log string
		pods      []string // namespace/name=verdict, sorted
		check     func(t *testing.T, fl *FlowList)
	}{{
		name: "a cut pod field finds the one pod it fits",
		log:  addMain1 + cutLine,
		pods: []string{"kube-system/etcd-kube-main1"},
		check: func(t *testing.T, fl *FlowList) {
			f := onlyFlow(t, fl, "etcd-kube-main1")
			if len(f.Containers) != 1 || f.Containers[0].Name != "etcd" || f.Containers[0].BackOffs != 1 {
				t.Errorf("the cut line did not reach etcd-kube-main1: %+v", f.Containers)
			}
		},
	}, {
		name: "two pods cut to one prefix never merge",
		log:  addMain1 + addMain2 + cutLine,
		pods: []string{"kube-system/etcd-kube-main1", "kube-system/etcd-kube-main2"},
		check: func(t *testing.T, fl *FlowList) {
			for _, f := range fl.Items {
				if len(f.Containers) != 0 {
					t.Errorf("%s took the ambiguous cut line", f.Pod.Name)
				}
			}
		},
	}, {
		name: "a cut name starts no pod",
		log:  cutLine,
	}, {
		// website-26167: the UID is whole, the name cut: the pod is the
		// UID's, and the cut text names nothing.
		name: "printf line cut in the name",
		log:  `E0120 18:09:51.082703   20983 pod_workers.go:191] Error syncing pod 6417f25519336bd4ed85dafc437a1bb4 ("kube-contro` + "\n",
		pods: []string{"6417f25519336bd4ed85dafc437a1bb4"},
	}, {
		// kubeadm-3100's cut, in the dockertools form: the name ends at
		// '_' so it is whole; the namespace, cut, is learnt from the
		// static pod's ADD, which is the same pod.
		name: "whole name, cut namespace",
		log: `E0822 17:14:33.608768   19457 docker_manager.go:2010] Failed to create pod infra container: RunContainerError; Skipping pod "kube-apiserver-node-0000117042_kube` + "\n" +
			`I0822 17:14:40.000000   19457 kubelet.go:1856] SyncLoop (ADD, "file"): "kube-apiserver-node-0000117042_kube-system(39331450e9847ee0dce70d380a0e5407)"` + "\n",
		pods: []string{"kube-system/kube-apiserver-node-0000117042"},
	}, {
		// A name alone finds the pod of that name whatever its namespace.
		name: "name alone",
		log: `I1130 14:20:00.000000    2094 kubelet.go:1856] SyncLoop (ADD, "api"): "web-5b09f3c1-qzt7n_shop(482b3a81-7986-4a12-8465-5580d55927c7)"` + "\n" +
			`I1130 14:27:18.827604    2094 kubelet_pods.go:1247] Killing unwanted pod "web-5b09f3c1-qzt7n"` + "\n",
		pods: []string{"shop/web-5b09f3c1-qzt7n"},
	}, {
		name: "second ADD without REMOVE is another pod",
		log:  addMain1 + strings.Replace(addMain1, "09:10:00", "09:20:00", 1),
		pods: []string{"kube-system/etcd-kube-main1", "kube-system/etcd-kube-main1"},
	}, {
		name: "an ADD of the same UID again is the same pod",
		log: `I1130 14:20:00.000000    2094 kubelet.go:1856] SyncLoop (ADD, "api"): "web-5b09f3c1-qzt7n_shop(482b3a81-7986-4a12-8465-5580d55927c7)"` + "\n" +
			`I1130 14:21:00.000000    2094 kubelet.go:1856] SyncLoop (ADD, "api"): "web-5b09f3c1-qzt7n_shop(482b3a81-7986-4a12-8465-5580d55927c7)"` + "\n",
		pods: []string{"shop/web-5b09f3c1-qzt7n"},
	}, {
		name: "a new UID under an ADDed name is another pod",
		log: `I1130 14:20:00.000000    2094 kubelet.go:1856] SyncLoop (ADD, "api"): "web-0_shop(482b3a81-7986-4a12-8465-5580d55927c7)"` + "\n" +
			`I1130 14:21:00.000000    2094 kubelet.go:1856] SyncLoop (ADD, "api"): "web-0_shop(99999999-7986-4a12-8465-5580d55927c7)"` + "\n",
		pods: []string{"shop/web-0", "shop/web-0"},
	}, {
		// k8s-106419 (1.22): each ADD cut in the pod's name, each
		// admission's pod="name_ns(uid)" cut in the namespace. No pod
		// starts from a cut ADD; the admission names each pod in whole,
		// and the latest cut ADD it fits gives it its namespace and its
		// observed stage (the kubelet admits a pod as it adds it).
		name: "cut ADDs and cut admissions",
		log: `I1114 06:29:10.137750    4417 kubelet.go:1932] "SyncLoop ADD" source="api" pods=[istio-system/proxy-int-ingressgateway-6b7d9` + "\n" +
			`I1114 06:29:10.139007    4417 predicate.go:143] "Predicate failed on Pod" pod="proxy-int-ingressgateway-6b7d9c8f5d-w2hxl_ist` + "\n" +
			`I1114 06:29:12.942553    4417 kubelet.go:1932] "SyncLoop ADD" source="api" pods=[istio-system/proxy-int-ingressgateway-6b7d9` + "\n" +
			`I1114 06:29:12.943900    4417 predicate.go:143] "Predicate failed on Pod" pod="proxy-int-ingressgateway-6b7d9c8f5d-c5mvk_ist` + "\n",
		pods: []string{"istio-system/proxy-int-ingressgateway-6b7d9c8f5d-c5mvk", "istio-system/proxy-int-ingressgateway-6b7d9c8f5d-w2hxl"},
		check: func(t *testing.T, fl *FlowList) {
			for _, f := range fl.Items {
				if obs := stageOf(f, StObserved); f.Verdict != VerdictRejected || obs.Status != StatusDone || len(obs.Evidence) != 1 {
					t.Errorf("%s: %s, observed %+v", f.Pod.Name, f.Verdict, obs)
				}
			}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildBytes(t, "cut.log", []byte(tc.log))
			var pods []string
			for _, f := range fl.Items {
				pods = append(pods, f.Pod.Key())
			}
			sort.Strings(pods)
			if strings.Join(pods, " ") != strings.Join(tc.pods, " ") {
				t.Errorf("pods %v, want %v", pods, tc.pods)
			}
			if tc.check != nil {
				tc.check(t, fl)
			}
		})
	}
}
