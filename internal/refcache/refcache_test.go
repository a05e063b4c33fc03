package refcache

import (
	"strconv"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

type node struct{ name string }
type flow struct{ pod string }

func str(s string) *parser.Value { return &parser.Value{Kind: parser.KindString, Str: s} }

func TestGetPutForget(t *testing.T) {
	n1, n2 := &node{"n1"}, &node{"n2"}
	f1, f2 := &flow{"a"}, &flow{"b"}
	dep := DepOf('u', "uid-a")
	tests := []struct {
		name  string
		node  *node
		class byte
		key   Key
		want  *flow
	}{
		{"the same key", n1, 'f', Key{str("default/a"), str("uid-a")}, f1},
		{"another node", n2, 'f', Key{str("default/a"), str("uid-a")}, nil},
		{"another class", n1, 'F', Key{str("default/a"), str("uid-a")}, nil},
		{"another text", n1, 'f', Key{str("default/b"), str("uid-a")}, nil},
		{"the texts split otherwise", n1, 'f', Key{str("default/au"), str("id-a")}, nil},
		{"another kind", n1, 'f', Key{&parser.Value{Kind: parser.KindBare, Str: "default/a"}, str("uid-a")}, nil},
		{"a field more", n1, 'f', Key{str("default/a"), str("uid-a"), str("")}, nil},
		{"a field less", n1, 'f', Key{str("default/a")}, nil},
	}
	var c Cache[node, flow]
	put := Key{str("default/a"), str("uid-a")}
	e, got := c.Get(n1, 'f', &put)
	if got != nil {
		t.Fatal("an empty cache answered")
	}
	c.Put(e, n1, 'f', &put, f1, dep)
	for _, tt := range tests {
		if _, got := c.Get(tt.node, tt.class, &tt.key); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	// A write to another index entry changes nothing; to its own, the
	// answer is forgotten.
	c.Forget(DepOf('u', "uid-b"))
	c.Forget(DepOf('n', "uid-a"))
	if _, got := c.Get(n1, 'f', &put); got != f1 {
		t.Fatal("forgot on another entry's write")
	}
	c.Forget(dep)
	if _, got := c.Get(n1, 'f', &put); got != nil {
		t.Fatal("answered after Forget")
	}
	// Put again, to another flow; Reset forgets all.
	e, _ = c.Get(n1, 'f', &put)
	c.Put(e, n1, 'f', &put, f2, dep)
	if _, got := c.Get(n1, 'f', &put); got != f2 {
		t.Fatal("not remembered after Forget and Put")
	}
	c.Reset()
	if _, got := c.Get(n1, 'f', &put); got != nil {
		t.Fatal("answered after Reset")
	}
}

func TestLongKeysNotRemembered(t *testing.T) {
	var c Cache[node, flow]
	n, f := &node{}, &flow{}
	key := Key{str(strings.Repeat("n", 100)), str(strings.Repeat("u", 36))}
	e, _ := c.Get(n, 'f', &key)
	c.Put(e, n, 'f', &key, f, DepOf('u', "x"))
	if _, got := c.Get(n, 'f', &key); got != nil {
		t.Fatal("a key past keyBytes was remembered")
	}
}

func TestCacheable(t *testing.T) {
	tests := []struct {
		v    *parser.Value
		want bool
	}{
		{nil, true},
		{str("a"), true},
		{&parser.Value{Kind: parser.KindBare, Str: "a"}, true},
		{&parser.Value{Kind: parser.KindObject, Str: `{"name":"a"}`}, true},
		{&parser.Value{Kind: parser.KindObject, Str: ""}, false},
		{&parser.Value{Kind: parser.KindObject, Str: "{}", Obj: []parser.Field{}}, false},
		{&parser.Value{Kind: parser.KindList, Str: "[a]"}, false},
	}
	for i, tt := range tests {
		if got := Cacheable(tt.v); got != tt.want {
			t.Errorf("%d: Cacheable = %v, want %v", i, got, tt.want)
		}
	}
}

// FuzzRefCache runs Get, Put and Forget from the input against a model
// (a map of what is current) and checks that the cache never answers with
// a flow other than the current one: an answer may be missing, never
// stale.
func FuzzRefCache(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 1, 3, 0, 1})
	f.Add([]byte{1, 5, 1, 5, 2, 5, 0, 5, 4, 4, 4})
	f.Add([]byte("pods come and go"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		nodes := []*node{{"a"}, {"b"}}
		var c Cache[node, flow]
		// current[name] is the flow the index names for a pod now; a
		// rename (op 2) makes a new flow, as a new pod under the name.
		current := map[string]*flow{}
		gen := 0
		for i := 0; i+1 < len(ops); i += 2 {
			op, arg := ops[i]%4, ops[i+1]
			n := nodes[arg&1]
			name := "ns/pod-" + strconv.Itoa(int(arg%13))
			uid := "uid-" + strconv.Itoa(int(arg%7))
			key := Key{str(name), str(uid)}
			if arg&0x80 != 0 {
				key[1] = nil
			}
			ix := n.name + "/" + name // the index entry the answer is read from
			switch op {
			case 0, 1: // resolve: from the cache, else from the index and remembered
				e, got := c.Get(n, 'f', &key)
				want := current[ix]
				if got != nil && got != want {
					t.Fatalf("stale answer for %s: %v, index holds %v", ix, got, want)
				}
				if got == nil && want != nil {
					c.Put(e, n, 'f', &key, want, DepOf('n', ix))
				}
			case 2: // the index entry is written: a new flow
				gen++
				current[ix] = &flow{pod: name + "#" + strconv.Itoa(gen)}
				c.Forget(DepOf('n', ix))
			case 3: // the entry is dropped
				delete(current, ix)
				c.Forget(DepOf('n', ix))
			}
		}
	})
}
