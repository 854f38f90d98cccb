package cli

import (
	"fmt"
	"io"
	"runtime/debug"
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
