-- Version 10: log finds the links of its commits by the commits' time
-- (docs/performance.md). Commit hashes are random, so log's 1,000 look-ups
-- landed on nearly every leaf of links_commit_prefix (version 8): ~200 page
-- reads of the file a `log -n 1000`. Keyed by the commit's time first, the
-- links of the newest commits lie together, and the walk knows each
-- commit's time as it hands log its hashes.
--
-- commits.gitMs is the commit object's committer time (ms), written only
-- where it was read from the object as stored (store.Commit.ObjectTime: no
-- replace ref or graft in the way); NULL otherwise (the Node prototype's
-- rows, whose time log cannot trust to be git's).
-- links.commitMs is a copy of its commit's gitMs, kept by the triggers
-- below whatever writes first. A commit's time is part of its hash, so a
-- copy once made never goes out of date; a link with no copy (its commit
-- not recorded from git yet) is found through links_commit_untimed by the
-- hash's first 8 digits (store/loglinks.go).
ALTER TABLE commits ADD COLUMN gitMs INTEGER;
-- Rows written before this version: from git, unless a prototype's
-- database was adopted or imported into this one (then none is trusted).
UPDATE commits SET gitMs = committedMs
WHERE committedMs > 0 AND committedMs % 1000 = 0
  AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'prototypeAdopted' OR key LIKE 'prototypeImported:%');

ALTER TABLE links ADD COLUMN commitMs INTEGER;
UPDATE links SET commitMs = (SELECT c.gitMs FROM commits c WHERE c.commitHash = links.commitHash);

CREATE INDEX links_commit_time ON links(commitMs, commitHash);
CREATE INDEX links_commit_untimed ON links(substr(commitHash, 1, 8)) WHERE commitMs IS NULL;
-- Only log read it.
DROP INDEX links_commit_prefix;

-- One trigger makes both of a new link's copies (version 9's and this).
DROP TRIGGER links_conv_seen;
CREATE TRIGGER links_copies AFTER INSERT ON links
BEGIN
    UPDATE links SET
        convSeenMs = (SELECT c.firstSeenMs FROM conversations c WHERE c.conversationId = NEW.conversationId),
        commitMs = (SELECT c.gitMs FROM commits c WHERE c.commitHash = NEW.commitHash)
    WHERE id = NEW.id;
END;

CREATE TRIGGER commits_time_insert AFTER INSERT ON commits
WHEN NEW.gitMs IS NOT NULL
BEGIN
    UPDATE links SET commitMs = NEW.gitMs WHERE commitHash = NEW.commitHash;
END;

CREATE TRIGGER commits_time_update AFTER UPDATE OF gitMs ON commits
WHEN NEW.gitMs IS NOT OLD.gitMs
BEGIN
    UPDATE links SET commitMs = NEW.gitMs WHERE commitHash = NEW.commitHash;
END;
