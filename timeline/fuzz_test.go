package timeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/podflow/podflow/parser"
)

var fuzzPods = []string{"default/a", "default/b", "kube-system/static-x"}
var fuzzUIDs = []string{"11111111-1111-1111-1111-111111111111", "22222222-2222-2222-2222-222222222222", "0123456789abcdef0123456789abcdef", ""}
var fuzzContainers = []string{"init-config", "nginx", "app"}
var fuzzEvents = []string{"Pulling", "Pulled", "Created", "Started", "Failed", "BackOff", "Killing", "FailedMount", "FailedCreatePodSandBox"}
var fuzzErrs = []string{
	`failed to "StartContainer" for "nginx" with CrashLoopBackOff: "back-off 10s restarting failed container=nginx pod=a_default(uid)"`,
	`failed to "StartContainer" for "app" with ErrImagePull: "not found"`,
	`failed to "CreatePodSandbox" for "a_default(uid)" with CreatePodSandboxError: "cni"`,
	`unmounted volumes=[config], unattached volumes=[], failed to process volumes=[]: context deadline exceeded`,
	`[failed to "KillContainer" for "x" with KillContainerError: "e", failed to "StartContainer"`,
}

// recordsFrom turns fuzz bytes into a record sequence built from the
// pipeline's own markers, so the fuzzer explores the engine's states
// rather than log syntax.
func recordsFrom(data []byte) []*parser.Record {
	var recs []*parser.Record
	t := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	markers := Reference.Markers
	for i := 0; i+4 <= len(data); i += 4 {
		mk := markers[int(data[i])%len(markers)]
		t = t.Add(time.Duration(data[i+3]) * 100 * time.Millisecond)
		pod := fuzzPods[int(data[i+1])%len(fuzzPods)]
		uid := fuzzUIDs[int(data[i+1]>>4)%len(fuzzUIDs)]
		ctr := fuzzContainers[int(data[i+2])%len(fuzzContainers)]
		rec := &parser.Record{Time: t, Format: parser.FormatKlog, Verbosity: -1, Component: "kubelet", Host: []string{"", "n1"}[data[i+2]>>7], Pos: parser.Position{Input: "fuzz", Line: int64(i/4 + 1)}}
		str := func(k, v string) parser.Field {
			return parser.Field{Key: k, Raw: `"` + v + `"`, Value: parser.Value{Kind: parser.KindString, Str: v}}
		}
		rec.Msg = mk.Msg
		if mk.Msg == "" {
			rec.Msg = mk.Prefix + `"` + pod + `"`
			rec.Format = parser.FormatKlogLegacy
		}
		switch {
		case mk.Event != "":
			rec.Msg = "Event occurred"
			rec.Fields = append(rec.Fields, str("object", pod), str("fieldPath", "spec.containers{"+ctr+"}"), str("kind", "Pod"),
				str("reason", fuzzEvents[int(data[i+2])%len(fuzzEvents)]), str("message", `Back-off pulling image "x"`))
		case mk.ErrHas != "" || mk.Special == SpecialSyncError:
			rec.Msg = "Error syncing pod, skipping"
			rec.Err = fuzzErrs[int(data[i+2])%len(fuzzErrs)]
			rec.Fields = append(rec.Fields, str("err", rec.Err), str("pod", pod), str("podUID", uid))
		case mk.Special == SpecialSyncLoop:
			rec.Fields = append(rec.Fields, str("source", []string{"api", "file"}[data[i+2]&1]),
				parser.Field{Key: "pods", Value: parser.Value{Kind: parser.KindList, List: []parser.Value{{Kind: parser.KindString, Str: pod}}}})
		case mk.Special == SpecialPLEG:
			typ := []string{"ContainerStarted", "ContainerDied", "ContainerRemoved"}[int(data[i+2])%3]
			rec.Fields = append(rec.Fields, str("pod", pod), parser.Field{Key: "event", Value: parser.Value{Kind: parser.KindObject, Obj: []parser.Field{
				str("ID", uid), str("Type", typ), str("Data", string(rune('a'+data[i+3]%6))),
			}}})
		case mk.Special == SpecialStatusPatch:
			rec.Fields = append(rec.Fields, str("pod", pod), str("podUID", uid), str("patch",
				`{"metadata":{"uid":"`+fuzzUIDs[int(data[i+3])%len(fuzzUIDs)]+`"},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[{"name":"`+ctr+`","containerID":"x://`+string(rune('a'+data[i+3]%6))+`","state":{"terminated":{"exitCode":1}}}]}}`))
		case mk.Special == SpecialStartup:
			rec.Fields = append(rec.Fields, str("pod", pod), str("podStartE2EDuration", "1.5s"), str("podCreationTimestamp", "2026-11-22 06:00:00 +0000 UTC"))
		case mk.Special == SpecialInitAction:
			// Statuses repeat word for word, as the kubelet logs them.
			status := fmt.Sprintf(`{"ID":"x://%c","Name":%q,"State":%q,"StartedAt":"2026-11-22T06:00:0%d.5Z","FinishedAt":"2026-11-22T06:00:0%dZ","ExitCode":%d}`,
				'a'+data[i+3]%6, ctr, []string{"exited", "running", "exited"}[data[i+2]%3], data[i+3]%4, 1+data[i+3]%8, data[i+3]%2)
			rec.Fields = append(rec.Fields, str("pod", pod), str("podUID", uid), str("container", ctr),
				parser.Field{Key: "status", Value: parser.Value{Kind: parser.KindObject, Str: status}})
		case mk.Special == SpecialFinished:
			rec.Fields = append(rec.Fields, str("podID", uid), str("containerID", string(rune('a'+data[i+3]%6))), parser.Field{Key: "exitCode", Value: parser.Value{Kind: parser.KindNumber, Num: float64(data[i+2] % 3)}})
		default:
			rec.Fields = append(rec.Fields, str("pod", pod), str("podUID", uid), str("containerName", ctr), str("container", ctr), str("containerType", []string{"init container", "container"}[data[i+2]&1]))
		}
		recs = append(recs, rec)
	}
	return recs
}

type sliceSource struct {
	recs []*parser.Record
	i    int
}

func (s *sliceSource) Next() (*parser.Record, error) {
	if s.i >= len(s.recs) {
		return nil, io.EOF
	}
	s.i++
	return s.recs[s.i-1], nil
}

func checkInvariants(t *testing.T, fl *FlowList) {
	t.Helper()
	if _, err := json.Marshal(fl); err != nil {
		t.Fatalf("FlowList does not marshal: %v", err)
	}
	for _, f := range fl.Items {
		if f.Verdict == "" {
			t.Fatalf("flow %s has no verdict", f.Pod.Key())
		}
		for _, s := range f.Stages {
			if s.Start != nil && s.End != nil && s.End.Before(*s.Start) {
				t.Fatalf("flow %s stage %s ends before it starts", f.Pod.Key(), s.ID)
			}
			if s.Duration < 0 {
				t.Fatalf("negative duration")
			}
		}
	}
}

func FuzzRecordSequence(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 20, 0, 0, 3, 30, 0, 1, 5, 40, 1, 2, 7})
	f.Add(bytes.Repeat([]byte{7, 17, 33, 2, 50, 1, 0, 9}, 40))
	for i := 0; i < len(Reference.Markers); i++ {
		f.Add([]byte{byte(i), 0, 0, 1, byte(i + 1), 16, 1, 2, byte(i + 2), 32, 130, 3})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fl, _ := Build(&sliceSource{recs: recordsFrom(data)}, Options{})
		checkInvariants(t, fl)
	})
}

// FuzzLogText runs arbitrary text through the parser and the engine.
func FuzzLogText(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		// A slice around the pod's first lines keeps seeds small.
		if i := bytes.Index(data, []byte("SyncLoop ADD\" source=\"api\" pods=[\"")); i > 0 {
			end := min(len(data), i+16<<10)
			f.Add(data[i-200 : end])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := NewBuilder(Options{})
		r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: "fuzz", Year: 2026, Want: b.Want})
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			b.Add(rec)
		}
		checkInvariants(t, b.Finish())
	})
}

// The builder's caches (flowCache, …) must not change what it concludes:
// the same records through a builder that uses none give the same list.
func FuzzCachesMatchReference(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 20, 0, 0, 3, 30, 0, 1, 5, 40, 1, 2, 7})
	f.Add(bytes.Repeat([]byte{7, 17, 33, 2, 50, 1, 0, 9}, 40))
	for i := 0; i < len(Reference.Markers); i++ {
		f.Add([]byte{byte(i), 0, 0, 1, byte(i + 1), 16, 1, 2, byte(i + 2), 32, 130, 3, byte(i + 3), 48, 2, 1})
	}
	// A pod's records between changes to the indexes: added, synced,
	// deleted and added again (a new flow by the same name), then its UIDs
	// learnt (the first one, then another: a new incarnation).
	f.Add([]byte{
		0, 0x30, 0, 1, 17, 0x30, 0, 1, 2, 0x30, 0, 1, 17, 0x30, 0, 1,
		0, 0x30, 0, 1, 17, 0x30, 0, 1, 16, 0x30, 0, 1,
		17, 0x00, 0, 1, 16, 0x30, 0, 1, 17, 0x10, 0, 1, 16, 0x30, 0, 1, 17, 0x00, 0, 1,
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ref := NewBuilder(Options{}), NewBuilder(Options{})
		ref.setReference()
		for _, rec := range recordsFrom(data) {
			fast.Add(rec)
			ref.Add(rec)
		}
		got, err := json.Marshal(fast.Finish())
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(ref.Finish())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("with caches:\n%s\nwithout:\n%s", got, want)
		}
	})
}
