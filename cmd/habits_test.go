package cmd

import (
	"strings"
	"testing"
)

// TestKubectlArgHabits, kubectl habits: describe pod's NAME before or after the inputs, and said
// missing when there is none; get pods NAME that matches no pod fails with
// the close names; podflow logs points at lines.
func TestKubectlArgHabits(t *testing.T) {
	log := corpus + "v1.36.3/02-image-pull-failure.log"
	for _, tt := range []struct {
		name      string
		args      []string
		code      int
		out, errs string // wanted in standard output and error
	}{
		{"describe: name after the inputs", []string{"describe", "pod", log, "api-6f5b9d7c4-pl8wz"}, 0, "Name:         api-6f5b9d7c4-pl8wz", ""},
		{"describe: name before", []string{"describe", "pod", "api-6f5b9d7c4-pl8wz", log}, 0, "Status:       ImagePullBackOff", ""},
		{"describe: no name", []string{"describe", "pod", log}, 2, "", "the pod NAME is missing"},
		{"describe: nothing at all (not standard input: empty)", []string{"describe", "pod"}, 2, "", "give the pod NAME"},
		{"describe: DIR then NAME", []string{"describe", "pod", corpus + "v1.36.3/", "worker-5d8f7b9c4-m2v6n"}, 0, "Name:         worker-5d8f7b9c4-m2v6n", ""},
		{"describe: NAME then DIR", []string{"describe", "pod", "worker-5d8f7b9c4-m2v6n", corpus + "v1.36.3/"}, 0, "Name:         worker-5d8f7b9c4-m2v6n", ""},
		{"describe: two names", []string{"describe", "pod", "api", "web", log}, 2, "", "one pod at a time"},
		{"get pods: no such pod", []string{"get", "pods", "api-6f5b9d7c4-pl8wx", log}, 2, "", "Did you mean this?\n\tapi-6f5b9d7c4-pl8wz"},
		{"get pods: one found, one not", []string{"get", "pods", "api-6f5b9d7c4-pl8wz", "nosuch", log}, 2, "api-6f5b9d7c4-pl8wz", `pod "nosuch" not found`},
		{"get pods: found", []string{"get", "pods", log, "api-6f5b9d7c4-pl8wz"}, 0, "ImagePullBackOff", ""},
		{"logs is lines", []string{"logs", "pod", "api", log}, 2, "", "Did you mean this?\n\tlines"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ioS, _, out, errOut := NewTestIO(false)
			code := Main(ioS, append([]string{"podflow"}, tt.args...))
			if code != tt.code || !strings.Contains(out.String(), tt.out) || !strings.Contains(errOut.String(), tt.errs) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant %q and %q", code, tt.code, out, errOut, tt.out, tt.errs)
			}
		})
	}
}
