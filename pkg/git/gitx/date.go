package gitx

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ApproxDate reads a date as git log --since does (git's approxidate:
// "2.weeks", "yesterday", "2 weeks ago", "last friday", dates), so every
// git-convo option that takes a date takes the forms git does. git is asked
// through an expiry-date config value, which it parses with approxidate and
// refuses when it cannot read it; this needs no repository. Ages are counted
// back from now, through git's clock variable, so GIT_CONVO_NOW holds here too.
func ApproxDate(ctx context.Context, s string, now time.Time) (time.Time, error) {
	r := runner{env: append(os.Environ(), "GIT_TEST_DATE_NOW="+strconv.FormatInt(now.Unix(), 10))}
	out, err := r.output(ctx, "-c", "convo.date="+s, "config", "--type=expiry-date", "convo.date")
	if err != nil {
		return time.Time{}, fmt.Errorf("git cannot read %q as a date", s)
	}
	// git prints a time before 1970 ("100 years ago") as the unsigned
	// two's complement of the negative count of seconds.
	u, err := strconv.ParseUint(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("git read %q as %q, not a time", s, strings.TrimSpace(string(out)))
	}
	return time.Unix(int64(u), 0), nil
}
