package cli

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/git-convo/git-convo/pkg/errlog"
	"github.com/git-convo/git-convo/pkg/ingest"
	"github.com/git-convo/git-convo/pkg/source"
	"github.com/git-convo/git-convo/pkg/term"
)

// captureMemoryLimit is the soft memory limit capture runs under: the GC
// then collects a huge payload's transient copies (raw JSON, decoded fields,
// SQLite's bound values) early, so the peak stays near what the payload's
// size requires.
const captureMemoryLimit = 128 << 20

// readPayload reads one hook payload from stdin: at most maxPayload bytes,
// and a clear "too large" past that (not a JSON error at the cut).
func readPayload(env *Env) ([]byte, error) {
	debug.SetMemoryLimit(captureMemoryLimit)
	data, err := io.ReadAll(io.LimitReader(env.Stdin, maxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %v", err)
	}
	if len(data) > maxPayload {
		return nil, fmt.Errorf("the payload is too large (over %d MiB); nothing recorded, already recorded data is untouched", maxPayload>>20)
	}
	return data, nil
}

// captureFailed reports a capture problem on stderr and in the log.
func captureFailed(env *Env, log errlog.Log, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(env.Stderr, "git-convo capture: %s\n", term.Line(msg))
	log.Printf("capture", "%s", msg)
}

// parseHookPayload reads one hook payload of src from stdin and parses it.
// A problem it reports (captureFailed) and returns false.
func parseHookPayload(env *Env, log errlog.Log, src source.Source, eventFlag string) ([]byte, source.Activity, bool) {
	data, err := readPayload(env)
	if err != nil {
		captureFailed(env, log, "%v", err)
		return nil, source.Activity{}, false
	}
	a, err := ingest.Parse(src, data, eventFlag)
	if err != nil {
		captureFailed(env, log, "%v (nothing recorded; already recorded data is untouched)", err)
		return nil, source.Activity{}, false
	}
	return data, a, true
}
