package notes

import "os"

// environ is the process's environment, for commands that add to it.
func environ() []string { return os.Environ() }
