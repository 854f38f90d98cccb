-- Version 12: the lines forgotten conversations wrote, as hashes only.
-- forget deletes a conversation's edit lines; a commit recorded after it
-- that adds some of them (a cherry-pick, a split, a copy) would find no
-- writer for them and give them to a person. forget keeps, for each
-- distinctive line the conversation wrote (link.Distinctive), the line's
-- 8-byte hash (link.LineHash), its repository and when it was written: no
-- text, no conversation id. A commit whose unclaimed lines include one is
-- not examined (its unclaimed lines unknown, pkg/store/lines.go). Pruned
-- with edit_lines (EditLineRetentionDays); forget --repo deletes its rows.
CREATE TABLE forgotten_lines (
    repoKey  TEXT    NOT NULL,
    lineHash INTEGER NOT NULL,
    atMs     INTEGER NOT NULL,
    PRIMARY KEY (repoKey, lineHash, atMs)
) WITHOUT ROWID;
CREATE INDEX forgotten_lines_at ON forgotten_lines(atMs);
