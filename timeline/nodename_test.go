package timeline

import (
	"fmt"
	"testing"
)

// TestRegisteredNodeNameInJSON: in the JSON format the node of "Attempting
// to register node" is a KObj {"name":…}; the node is named after it, and
// an object without a name does not name it with its JSON text.
func TestRegisteredNodeNameInJSON(t *testing.T) {
	for _, tc := range []struct{ node, want string }{
		{`{"name":"worker-7"}`, "worker-7"},
		{`"worker-8"`, "worker-8"},
		{`{"kind":"Node"}`, "json-node.log"},
	} {
		b := NewBuilder(Options{})
		line := fmt.Sprintf(`{"ts":1763800000000,"msg":"Attempting to register node","v":0,"node":%s}`+"\n", tc.node)
		line += `{"ts":1763800001000,"msg":"SyncLoop ADD","v":2,"source":"api","pods":[{"name":"w-1","namespace":"default"}]}` + "\n"
		feed(b, "json-node.log", []byte(line))
		fl := b.Finish()
		if len(fl.Nodes) != 1 || fl.Nodes[0].Name != tc.want {
			t.Errorf("node=%s: nodes %+v, want one named %q", tc.node, fl.Nodes, tc.want)
		}
	}
}
