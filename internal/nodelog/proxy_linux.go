package nodelog

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill kubectl proxy when podflow ends
// without stopping it (a signal, a crash).
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
