-- Version 8: the links found by the first 8 hex digits of their commit's
-- hash, for log (docs/performance.md). A commit hash is random, so log's
-- 1,000 look-ups land on as many pages of an index keyed by the whole
-- hash: with 50,000 links, 500 of links_commit's 661 pages read from the
-- file by each log. Keyed by 8 digits the index has a third of the pages.
-- A prefix may be another commit's too: log keeps only the rows of the
-- hashes it asked for.
CREATE INDEX links_commit_prefix ON links(substr(commitHash, 1, 8));
