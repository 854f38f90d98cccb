//go:build !linux

package gitx

import "io"

// growPipe enlarges git's output pipe where the system allows it (Linux).
func growPipe(io.Reader) {}
