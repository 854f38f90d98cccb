// Package accuracy measures how true git-convo's answer to "who wrote this
// line" is. Its test (go test ./pkg/attribution/accuracy -run TestAccuracy -v) builds a
// real-shaped history with git fast-import, plays scenarios on top of it with
// the real git-convo binary, real git, real hooks and agents' hook payloads,
// and compares what blame --json and log --json say with the truth it kept for
// every line. See docs/linking.md, "Accuracy".
package accuracy
