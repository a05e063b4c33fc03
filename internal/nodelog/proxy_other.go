//go:build !linux

package nodelog

import "os/exec"

// dieWithParent: only Linux kills a child with its parent; elsewhere
// kubectl proxy ends when Client.Close stops it.
func dieWithParent(*exec.Cmd) {}
