package cmd

import (
	"strings"
	"testing"

	"github.com/podflow/podflow/internal/sanitize"
)

func TestShortenReason(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ContainerCreating", "ContainerCreating"},
		{`Failed to pull image "docker.io/library/nginx:1.27.99": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.27.99": failed to resolve reference "docker.io/library/nginx:1.27.99": docker.io/library/nginx:1.27.99: not found`,
			`Failed to pull image "docker.io/library/nginx:1.27.99" … not found`},
		{"Back-off restarting failed container worker in pod worker-5d8f7b9c4-m2v6n_default(5c18c6f7-a0eb-41a1-8101-c7db6cf1e29f) (last exit code 1)",
			"Back-off restarting failed container worker (last exit code 1)"},
		{`unmounted volumes=[config], unattached volumes=[config kube-api-access-x]: timed out waiting for the condition`,
			`unmounted volumes=[config], unattached … timed out waiting for the condition`},
		// No link boundary that fits: cut.
		{"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789", "0123456789012345678901234567890123456789012345678901234567890123456789012345678…"},
	}
	for _, tt := range tests {
		if got := shorten(tt.in, shortReason); got != tt.want {
			t.Errorf("shorten(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if textWidth(shorten(tt.in, shortReason)) > shortReason {
			t.Errorf("shorten(%q) wider than %d", tt.in, shortReason)
		}
	}
}

// FuzzOneLine holds oneLine's shortcut for text it would not change to
// the whole fold: sanitize, then one space between words.
func FuzzOneLine(f *testing.F) {
	for _, s := range []string{"", " ", "a", "a b", "a  b", " a", "a ", "a\nb", "a\tb", "\x1b[31mred", "é", "ns/pod-7c9f\x7f", "a\u200bb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.Join(strings.Fields(sanitize.Sanitize(strings.ReplaceAll(s, "\n", " "))), " ")
		if got := sanitize.OneLine(s); got != want {
			t.Errorf("sanitize.OneLine(%q) = %q, want %q", s, got, want)
		}
	})
}
