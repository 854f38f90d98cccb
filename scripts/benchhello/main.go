// Command benchhello is the floor scripts/bench.sh measures git-convo's
// start against: a hello world linking go-sqlite3 (cgo, as git-convo does),
// built with the same toolchain.
package main

import (
	"fmt"

	_ "github.com/mattn/go-sqlite3"
)

func main() { fmt.Println("hello") }
