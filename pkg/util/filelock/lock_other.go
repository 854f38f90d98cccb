//go:build !unix

package filelock

import "time"

// Lock is a no-op where flock is missing: the renames that claim queued and
// spooled work still give each piece to one drain.
func Lock(string, time.Duration) (func(), error) { return func() {}, nil }
