package parser

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// LinkError says why path, a symbolic link, cannot be read: a loop (the
// link leads back to itself), or a target that does not exist; nil when
// path is no such link or its target can be read as far as links go.
func LinkError(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	_, err = os.Stat(path)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%s: a symbolic link loop (it leads back to itself); nothing to read there", path)
	case errors.Is(err, fs.ErrNotExist):
		target, _ := os.Readlink(path)
		return fmt.Errorf("%s: a dangling symbolic link (to %s, which does not exist); copy the log it should point to, or name it", path, target)
	}
	return pathError(path, err)
}

// unreadable is the error for a file a directory walk found and could
// not open: a warning naming it, never a silent skip (a node's log that
// another user owns, mode 600, may hold the pod that failed).
func unreadable(path string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("%s: permission denied; this file was not read (run podflow as a user who can read it, e.g. with sudo)", path)
	}
	return fmt.Errorf("%s: cannot be read: %w", path, err)
}
