-- Version 11: `git convo unlink` is a decision that holds. A withdrawn
-- pair (conversation, commit) is never linked again by auto-linking
-- (record, relink, a late re-score, import, an agent's own commit), its
-- lines are not the conversation's, and an amend or a rebase carries the
-- withdrawal to the new commit (store.MarkRewritten). A manual link
-- (`git convo link`) removes it; forget removes it with the rest.
--
-- carriedFrom is the commit a rewrite carried the withdrawal from (NULL:
-- unlinked by hand from this commit). A squash of that commit with another
-- the conversation is linked to keeps the link: the carried withdrawal
-- goes.
CREATE TABLE unlinks (
    conversationId TEXT NOT NULL,
    commitHash TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    carriedFrom TEXT,
    PRIMARY KEY (conversationId, commitHash)
) WITHOUT ROWID;
-- MarkRewritten and the linking of a commit look its withdrawals up.
CREATE INDEX unlinks_commit ON unlinks(commitHash);
