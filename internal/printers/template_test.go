package printers

import (
	"bytes"
	"testing"
)

// A template prints the same each time it is used: get pods -w prints it
// once per change. client-go's jsonpath cuts a parsed template as it
// ranges, so a range printed nothing ("not in range, nothing to end") the
// second time.
func TestTemplatePrintsAgain(t *testing.T) {
	type pod struct {
		Name string `json:"name"`
	}
	type flow struct {
		Pod    pod    `json:"pod"`
		Status string `json:"status"`
	}
	head := struct {
		Kind  string `json:"kind"`
		Items []flow `json:"items"`
	}{Kind: "FlowList"}
	items := []flow{{pod{"a"}, "Running"}, {pod{"b"}, "Pending"}}
	for _, output := range []string{
		`jsonpath={range .items[*]}{.pod.name} {.status}{"\n"}{end}`,
		`jsonpath={.items[*].pod.name}`,
		`custom-columns=NAME:.pod.name,STATUS:{range .status}{@}{end}`,
	} {
		tmpl, err := OutputFormat(output, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", output, err)
		}
		var first bytes.Buffer
		for i := range 3 {
			var b bytes.Buffer
			if err := tmpl.Print(&b, &head, Each(items), false); err != nil {
				t.Fatalf("%s, print %d: %v", output, i+1, err)
			}
			if i == 0 {
				first = b
				if first.Len() == 0 || !bytes.Contains(first.Bytes(), []byte("a")) {
					t.Fatalf("%s printed %q", output, first.String())
				}
			} else if b.String() != first.String() {
				t.Errorf("%s, print %d: %q, the first: %q", output, i+1, b.String(), first.String())
			}
		}
	}
}
