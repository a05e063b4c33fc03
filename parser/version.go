package parser

import (
	"bytes"
	"os"
	"path/filepath"
)

// versionFiles are the files log dumps keep beside a node's logs with the
// Kubernetes version the node ran: kind export logs writes
// kubernetes-version.txt, other collectors kubelet-version.txt.
var versionFiles = []string{"kubelet-version.txt", "kubernetes-version.txt"}

// DumpVersion is the kubelet version a log dump records beside this
// source's file, "" when there is none. Only sources found in a dump layout
// (with a Node) are asked: a version file next to a lone log on the command
// line may belong to anything.
func (s Source) DumpVersion() string {
	if s.Node == "" || s.Path == "" {
		return ""
	}
	dir := filepath.Dir(s.Path)
	for _, name := range versionFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(b) > 256 {
			continue
		}
		v := string(bytes.TrimSpace(b))
		if len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' && !bytes.ContainsAny([]byte(v), " \n\t") {
			return v
		}
	}
	return ""
}
