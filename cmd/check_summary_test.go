package cmd

import (
	"strings"
	"testing"
)

// check's summary counts the pods that broke a rule by verdict, in get
// pods' words: of v1.36.3's scenarios the crash loop is Failed and the
// pull failure, the init container's failure and the start failure are
// Stalled, not "failed".
func TestCheckSummaryByVerdict(t *testing.T) {
	code, out, _ := runCheck(t, nil, "../testdata/corpus/v1.36.3")
	first, _, _ := strings.Cut(out, "\n")
	if code != 1 || !strings.HasPrefix(first, "FAIL  1 rule broken; 4 of ") || !strings.HasSuffix(first, " pods broke one (1 Failed, 3 Stalled)") {
		t.Errorf("exit %d, summary %q", code, first)
	}
}
