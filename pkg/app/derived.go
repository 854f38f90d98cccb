package app

import (
	"context"

	"github.com/git-convo/git-convo/pkg/share/notes"
)

// Derived links: squash and rebase merges recognised from teammates'
// notes, in no local database. doctor --derived lists them; share clean
// and unlink withdraw them.

// DerivedLink is one derived link, with where it lives and whether
// today's rules would make it again.
type DerivedLink = notes.DerivedLink

// Derived is a repository's derived links, read for a withdrawal.
type Derived struct {
	Links []DerivedLink
	// Shared: sharing is on, so a withdrawal is shared on the next push
	// (else it stays in this clone).
	Shared bool
	g      notes.Git
	s      notes.Settings
}

// DerivedLinks lists the derived links of the repository of dir that
// readers still believe.
func (a *App) DerivedLinks(ctx context.Context, dir string) (Derived, error) {
	g, s, err := notesOf(ctx, dir)
	if err != nil {
		return Derived{}, err
	}
	d := Derived{Shared: s.On, g: g, s: s}
	o, err := g.Options(ctx, s, a.cfg.Version)
	if err != nil {
		return d, err
	}
	d.Links, err = g.DerivedLinks(ctx, o)
	return d, err
}

// Withdraw withdraws links of d, one record each in this clone's note,
// saying why: every reader then ignores them.
func (d Derived) Withdraw(ctx context.Context, links []DerivedLink, why string) error {
	for _, l := range links {
		if err := d.g.Withdraw(ctx, l.Commit, l.Conversation, why, d.s); err != nil {
			return err
		}
	}
	return nil
}
