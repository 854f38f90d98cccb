// Package agents is the registry of the coding agents git-convo reads: the
// front ends (pkg/cli, pkg/mcpserver) and the write path (pkg/write/ingest) loop
// over it and name no agent. The registry is a value, built once by the
// composition root (cmd/, through pkg/agents/builtin) and passed down: no
// package-level list, so a test can plug in an agent of its own.
package agents

import (
	"fmt"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// Registry is the agents of one git-convo, in registration order: the order
// import reads them (--limit's budget goes to the first ones first), the
// help texts list them and doctor checks them. The first is the default:
// the agent of a conversation that names none (stored before there were
// two) and of capture without --agent.
type Registry struct {
	list []source.Agent
}

// New returns a registry of the agents given. Names must be unique and
// non-empty; a duplicate is a programming error and panics at start-up.
func New(agents ...source.Agent) *Registry {
	r := &Registry{}
	seen := map[string]bool{}
	for _, a := range agents {
		if a.Name() == "" || seen[a.Name()] {
			panic(fmt.Sprintf("agents: empty or duplicate agent name %q", a.Name()))
		}
		seen[a.Name()] = true
		r.list = append(r.list, a)
	}
	return r
}

// Agents returns every agent, in registration order. A nil registry has
// none.
func (r *Registry) Agents() []source.Agent {
	if r == nil {
		return nil
	}
	return r.list
}

// Names lists every agent's name, in registration order.
func (r *Registry) Names() []string {
	var out []string
	for _, a := range r.Agents() {
		out = append(out, a.Name())
	}
	return out
}

// Default is the name of the first agent ("" when there is none).
func (r *Registry) Default() string {
	if as := r.Agents(); len(as) > 0 {
		return as[0].Name()
	}
	return ""
}

// UnknownError is an agent name no agent answers to.
type UnknownError struct {
	Name  string
	Known []string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown agent %q: the agents are %s", e.Name, strings.Join(e.Known, ", "))
}

// Lookup returns the named agent; "" is the default one. An unknown name
// is an *UnknownError listing the known ones.
func (r *Registry) Lookup(name string) (source.Agent, error) {
	if name == "" {
		name = r.Default()
	}
	for _, a := range r.Agents() {
		if a.Name() == name {
			return a, nil
		}
	}
	return nil, &UnknownError{Name: name, Known: r.Names()}
}

// For returns the named agent's source for an environment; "" is the
// default agent's.
func (r *Registry) For(name string, getenv func(string) string) (source.Source, error) {
	a, err := r.Lookup(name)
	if err != nil {
		return nil, err
	}
	return a.Source(getenv), nil
}

// All returns every agent's source for an environment, in registration
// order.
func (r *Registry) All(getenv func(string) string) []source.Source {
	var out []source.Source
	for _, a := range r.Agents() {
		out = append(out, a.Source(getenv))
	}
	return out
}

// Display is the agent's name as people say it; an unknown name is shown
// as it is.
func (r *Registry) Display(name string) string {
	if a, err := r.Lookup(name); err == nil {
		return a.Words().Display
	}
	return name
}

// Where is where the named agent keeps its conversations, or what stops it
// from being located, said so that the user can act.
func (r *Registry) Where(name string, getenv func(string) string) (string, error) {
	a, err := r.Lookup(name)
	if err != nil {
		return "", err
	}
	return a.Store(getenv)
}

// LateWriters are the agents whose Source is a source.LateWriter: their
// conversations may have been written after the hook read them, so the
// write path reads them again (enrich, the commit hook's refresh).
func (r *Registry) LateWriters(getenv func(string) string) []string {
	if getenv == nil { // a caller that locates nothing: the sources are only asked what they are
		getenv = func(string) string { return "" }
	}
	var out []string
	for _, a := range r.Agents() {
		if _, ok := a.Source(getenv).(source.LateWriter); ok {
			out = append(out, a.Name())
		}
	}
	return out
}
