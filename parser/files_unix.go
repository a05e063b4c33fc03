//go:build unix

package parser

import "syscall"

// fdLimit is the process's limit of open descriptors.
func fdLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 1 << 13
	}
	return int(rl.Cur)
}
