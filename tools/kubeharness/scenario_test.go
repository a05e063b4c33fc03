package main

import (
	"strings"
	"testing"
)

// Every scenario file must load strictly and be runnable: each step names a
// pod or ConfigMap the file defines, and the story the corpus tests are
// written from is there.
func TestScenariosAreConsistent(t *testing.T) {
	scs, err := loadScenarios("scenarios")
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) < 20 {
		t.Fatalf("loaded %d scenarios, want the 20+ in scenarios/", len(scs))
	}
	nodes := map[string]string{}
	for _, sc := range scs {
		if len(strings.Fields(sc.Story)) < 10 {
			t.Errorf("%s: story too short: %q", sc.Name, sc.Story)
		}
		if sc.Node == "" {
			t.Errorf("%s: no node", sc.Name)
		} else if other, dup := nodes[sc.Node]; dup {
			t.Errorf("%s: node %q also used by %s (concurrent runs need their own)", sc.Name, sc.Node, other)
		}
		nodes[sc.Node] = sc.Name
		if len(sc.Steps) == 0 {
			t.Errorf("%s: no steps", sc.Name)
		}
		for i, st := range sc.Steps {
			for _, key := range []string{st.Create, st.Delete, st.Static, st.Unstatic, st.Resize, st.DeleteMirror} {
				if _, ok := sc.Pods[key]; key != "" && !ok {
					t.Errorf("%s step %d (%s): no pod %q", sc.Name, i, st, key)
				}
			}
			if _, ok := sc.ConfigMaps[st.CreateConfigMap]; st.CreateConfigMap != "" && !ok {
				t.Errorf("%s step %d: no configMap %q", sc.Name, i, st.CreateConfigMap)
			}
		}
		for _, f := range sc.Runtime.Failures {
			if f.Call == "" || f.Match == "" || f.Message == "" {
				t.Errorf("%s: incomplete failure rule %+v", sc.Name, f)
			}
		}
	}
}

func TestSupports(t *testing.T) {
	for _, tc := range []struct {
		min, max, version string
		want              bool
	}{
		{"1.29", "", "v1.28.15", false},
		{"1.29", "", "v1.29.15", true},
		{"", "", "v1.37.2", true},
		{"1.33", "1.35", "v1.36.3", false},
		{"1.33", "1.35", "v1.35.4", true},
	} {
		sc := &scenario{MinVersion: tc.min, MaxVersion: tc.max}
		if got := sc.supports(tc.version); got != tc.want {
			t.Errorf("supports(min %q max %q, %s) = %v, want %v", tc.min, tc.max, tc.version, got, tc.want)
		}
	}
}

func TestImageFactsStable(t *testing.T) {
	id1, d1, s1 := imageFacts("docker.io/library/nginx:1.27.3")
	id2, d2, s2 := imageFacts("docker.io/library/nginx:1.27.3")
	if id1 != id2 || d1 != d2 || s1 != s2 {
		t.Fatal("image facts differ for the same name")
	}
	if !strings.HasPrefix(d1, "docker.io/library/nginx@sha256:") || len(id1) != len("sha256:")+64 {
		t.Errorf("id %q digest %q", id1, d1)
	}
	if s1 < 5_000_000 || s1 > 90_000_000 {
		t.Errorf("size %d outside 5-90 MB", s1)
	}
}
