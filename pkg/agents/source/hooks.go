package source

import "time"

// HookRecordNote marks a conversation rebuilt from git-convo's hook records
// because the agent's own store no longer has it.
const HookRecordNote = "rebuilt from git-convo's hook records (the agent's own store does not have this conversation): " +
	"the prompts and the agent's final answers only, without thinking, tool steps or code."

// HookMessage is one recorded prompt (role "user") or final answer.
func HookMessage(role, text string, atMs int64) Message {
	m := Message{Role: role, Text: text}
	if atMs > 0 {
		m.CreatedAt = time.UnixMilli(atMs)
	}
	return m
}
