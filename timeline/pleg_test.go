package timeline

import (
	"testing"

	"github.com/podflow/podflow/parser"
)

// plegByGet is what plegEvent read of an event object before plegPlain:
// each key by Value.Get.
func plegByGet(s string) (uid, typ, data string) {
	v := parser.Value{Kind: parser.KindObject, Str: s}
	id, _ := v.Get("ID")
	t, _ := v.Get("Type")
	d, _ := v.Get("Data")
	return id.String(), t.String(), d.String()
}

func TestPLEGPlain(t *testing.T) {
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{`{"ID":"cf1ba443-e225-95a9-dba6-bd33abae1f39","Type":"ContainerStarted","Data":"18b147a900c0677d359b7f4871f3b4f3d438aef432babd3545e4b761afb05d27"}`, true},
		{`{"ID":"","Type":"","Data":""}`, true},
		{`{"ID":"u","Type":"ContainerDied","Data":"containerd://abc"}`, true},
		// Any other form is left to Get.
		{`{"ID":"u","Type":"ContainerDied","Data":"a\"b"}`, false},
		{`{"ID":"u","Type":"ContainerDied","Data":"\u0041"}`, false},
		{`{"ID":"u","Type":"Contäiner","Data":"x"}`, false},
		{`{"ID": "u","Type":"ContainerDied","Data":"x"}`, false},
		{`{"Type":"ContainerDied","ID":"u","Data":"x"}`, false},
		{`{"ID":"u","Type":"ContainerDied","Data":"x","ID":"v"}`, false},
		{`{"ID":"u","Type":"ContainerDied","Data":"x"} `, false},
		{`{"ID":"u","Type":"ContainerDied","Data":7}`, false},
		{`{"ID":"u","Type":"ContainerDied"}`, false},
	} {
		uid, typ, data, ok := plegPlain(tc.text)
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v", tc.text, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if wu, wt, wd := plegByGet(tc.text); uid != wu || typ != wt || data != wd {
			t.Errorf("%s: %q %q %q, Get gives %q %q %q", tc.text, uid, typ, data, wu, wt, wd)
		}
	}
}

// plegPlain must read what Get reads wherever it takes a text.
func FuzzPLEGPlain(f *testing.F) {
	f.Add(`{"ID":"cf1ba443-e225-95a9-dba6-bd33abae1f39","Type":"ContainerStarted","Data":"18b147a9"}`)
	f.Add(`{"ID":"u","Type":"ContainerDied","Data":"a\"b"}`)
	f.Add(`{"ID":"","Type":"","Data":""}`)
	f.Fuzz(func(t *testing.T, s string) {
		uid, typ, data, ok := plegPlain(s)
		if !ok {
			return
		}
		if wu, wt, wd := plegByGet(s); uid != wu || typ != wt || data != wd {
			t.Fatalf("%s: %q %q %q, Get gives %q %q %q", s, uid, typ, data, wu, wt, wd)
		}
	})
}
