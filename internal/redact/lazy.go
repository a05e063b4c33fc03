package redact

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on its first use. The
// package's forty expressions, compiled at start-up, cost every podflow
// run some 10 M instructions and 0.7 MB of heap before it read a line,
// and most runs never redact.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
