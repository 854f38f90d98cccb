package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestWarnNotCarried: one line a failure, at most notCarriedShown, then how
// many more; outside text escaped.
func TestWarnNotCarried(t *testing.T) {
	errs := func(n int) []error {
		var out []error
		for i := range n {
			out = append(out, fmt.Errorf("forgotten conversations of c%d not carried: git said\n\x1b[2Jbad", i))
		}
		return out
	}
	for _, tc := range []struct {
		n, lines int
		more     string
	}{{0, 0, ""}, {1, 1, ""}, {3, 3, ""}, {4, 4, "and 1 more"}, {40, 4, "and 37 more"}} {
		var b bytes.Buffer
		warnNotCarried(&Env{Stderr: &b}, errs(tc.n))
		out := b.String()
		if got := strings.Count(out, "\n"); got != tc.lines {
			t.Errorf("%d errors: %d lines, want %d:\n%s", tc.n, got, tc.lines, out)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("%d errors: an escape reached the terminal: %q", tc.n, out)
		}
		if tc.more != "" && !strings.Contains(out, tc.more) {
			t.Errorf("%d errors: want %q in:\n%s", tc.n, tc.more, out)
		}
	}
}
