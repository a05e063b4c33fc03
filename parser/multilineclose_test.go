package parser

import (
	"strings"
	"testing"
)

// klog's text logger writes a multi-line string value as `key=<`, its
// lines each after a TAB, and a closing line " >" that carries the keys
// after it (klog textlogger: ` > logger="UnhandledError"` after the err
// of utilruntime.HandleError's "Unhandled Error", 1.31+). The value ends
// at that line and the keys after it are fields of their own, read by the
// reader and by the value parser alike; in a journal too, where a paste
// may have made the TABs spaces. (Template: the 1.31–1.33 runtime
// manager's start failure of an init container whose spec dump holds a
// newline, kuberuntime_manager.go.)
func TestMultilineCloseCarriesKeys(t *testing.T) {
	const errText = "init container &Container{Name:install-cni,Command:[/bin/sh -c set -e\necho hi],} start failed in pod canal-x1k2p_kube-system(9f3c6a21-7e08-4b5d-a1c4-2d8e60f9b73a): CreateContainerConfigError: services have not yet been read at least once, cannot construct envvars"
	for _, tc := range []struct {
		name, text, wantErr string
	}{
		{"klog", `E0908 18:46:02.582015    7468 kuberuntime_manager.go:1358] "Unhandled Error" err=<` + "\n" +
			"\tinit container &Container{Name:install-cni,Command:[/bin/sh -c set -e\n" +
			"\techo hi],} start failed in pod canal-x1k2p_kube-system(9f3c6a21-7e08-4b5d-a1c4-2d8e60f9b73a): CreateContainerConfigError: services have not yet been read at least once, cannot construct envvars\n" +
			` > logger="UnhandledError"` + "\n", errText},
		{"a journal, TABs made spaces", `Sep 08 18:46:02 node-a kubelet[7468]: E0908 18:46:02.582015    7468 kuberuntime_manager.go:1358] "Unhandled Error" err=<` + "\n" +
			"Sep 08 18:46:02 node-a kubelet[7468]:         init container &Container{Name:install-cni,Command:[/bin/sh -c set -e\n" +
			"Sep 08 18:46:02 node-a kubelet[7468]:         echo hi],} start failed in pod canal-x1k2p_kube-system(9f3c6a21-7e08-4b5d-a1c4-2d8e60f9b73a): CreateContainerConfigError: services have not yet been read at least once, cannot construct envvars\n" +
			`Sep 08 18:46:02 node-a kubelet[7468]:  > logger="UnhandledError"` + "\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.text), Options{Name: "x.log", Year: 2025})
			rec, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			if got := rec.Str("logger"); got != "UnhandledError" {
				t.Errorf("logger %q, want UnhandledError (fields %+v)", got, rec.Fields)
			}
			errVal := rec.Err
			if errVal == "" {
				errVal = rec.Str("err")
			}
			if strings.Contains(errVal, "logger") || !strings.HasSuffix(errVal, "cannot construct envvars") {
				t.Errorf("err %q: want it to end where the error does", errVal)
			}
			if tc.wantErr != "" && errVal != tc.wantErr {
				t.Errorf("err %q, want %q", errVal, tc.wantErr)
			}
			if next, err := r.Next(); err == nil {
				t.Errorf("a second record %+v: the closing line is the first's", next)
			}
		})
	}
}
