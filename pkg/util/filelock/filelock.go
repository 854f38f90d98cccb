// Package filelock serialises git-convo processes on a lock file: a drain of
// the queue or the spool waits for another process's drain instead of
// answering before it is done.
package filelock

import "errors"

// ErrBusy: another process held the lock longer than the caller would wait.
var ErrBusy = errors.New("the lock is held by another process")
