package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// Confinement: by default the tools answer only for the server's own
// repository and its work trees. Every conversation of every repository of
// the user is in one links.sqlite, and a prompt-injected agent in one
// client's repository must not read another's conversations, nor link
// them in. A server started outside any repository answers for none. The
// opt-in for every repository is `git convo mcp --all-repositories`
// (Deps.AllRepositories).

// scope is what one tool call may answer for.
type scope struct {
	all bool
	key string // the server's repository (its git common dir: its work trees share it); "" outside any
	top string // its top level
}

type scopeKey struct{}

// scopeMiddleware works out each tool call's scope once, before the tool runs.
func (d *Deps) scopeMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/call" {
			ctx = context.WithValue(ctx, scopeKey{}, d.scopeFor(ctx))
		}
		return next(ctx, method, req)
	}
}

// scope is the call's scope (worked out here when no middleware did).
func (d *Deps) scope(ctx context.Context) scope {
	if sc, ok := ctx.Value(scopeKey{}).(scope); ok {
		return sc
	}
	return d.scopeFor(ctx)
}

func (d *Deps) scopeFor(ctx context.Context) scope {
	if d.AllRepositories {
		return scope{all: true}
	}
	if repo, err := gitx.Open(ctx, d.Dir, false); err == nil {
		return scope{key: app.RepoKey(repo.CommonDir), top: repo.TopLevel}
	}
	return scope{}
}

const optIn = "`git convo mcp --all-repositories` answers for every repository; docs/mcp.md"

// refused says what the scope is, for an error.
func (sc scope) refused(what string) error {
	if sc.key == "" {
		return fmt.Errorf("%s: this server runs outside any repository and answers for none: start it in the repository (%s)", what, optIn)
	}
	return fmt.Errorf("%s: this server answers only for the repository %s and its work trees (%s)", what, sc.top, optIn)
}

// allowRepo refuses a repository outside the scope.
func (sc scope) allowRepo(key, top string) error {
	if sc.all || key == sc.key && key != "" {
		return nil
	}
	return sc.refused(top + " is another repository")
}

// allowConversation refuses a conversation that belongs to no repository of
// the scope: it touched none of its files, worked in its top level, is
// linked to none of its commits, and no shared note of it names it. An
// unknown id is refused too unless unknownOK (a link to a conversation not
// recorded yet), as an agent's own database may still hold it.
func (d *Deps) allowConversation(ctx context.Context, id string, unknownOK bool) error {
	sc := d.scope(ctx)
	if sc.all {
		return nil
	}
	if sc.key == "" {
		return sc.refused("no such conversation")
	}
	in, known, err := d.Store.ConversationInRepo(ctx, id, sc.key, sc.top)
	if err != nil || in || !known && unknownOK {
		return err
	}
	// A teammate's conversation, named by its id or a prefix of it (the
	// local store knows neither, so nothing resolved the prefix).
	for sid := range d.App.SharedNotes(ctx, sc.top).ByConversation() {
		if strings.HasPrefix(sid, id) {
			return nil
		}
	}
	// The id stays out of the message: a prefix may have resolved to another repository's.
	return sc.refused("no such conversation")
}
