package parser

import (
	"io"
	"time"
)

// StreamSource is an input read from r as it arrives, as standard input
// is (once, spooled so that its lines can be read back by position): a
// live node's log as the API server passes it on, or the local journal
// as journalctl prints it. name is how positions and errors name it
// (node/NAME, journal); node, when set, is the node its lines belong to,
// and now the time it was asked for, from which the year of times
// without one is taken (as a file's modification time would give it).
func StreamSource(name, node, component string, now time.Time, r io.Reader) Source {
	return Source{Name: name, Node: node, Component: component, ModTime: now, Size: -1, stdin: &stdinInput{r: r, name: name}}
}
