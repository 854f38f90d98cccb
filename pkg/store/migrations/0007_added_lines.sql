-- Version 7: the lines a diff added to a file, as git log -p -U0 printed
-- them, kept so that blame clips teammates' notes (pkg/share/notes) with
-- no diff of the commits it already read. Keyed by what the answer is a
-- function of: the file's mode and blob before and after, and the
-- settings git diffed with (its version, its diff configuration, the
-- file's attributes), so that no row goes stale: a cache of git's own
-- answer, nothing more.
CREATE TABLE added_lines (
    settings TEXT NOT NULL,
    blobs    TEXT NOT NULL,
    lines    TEXT NOT NULL,
    PRIMARY KEY (settings, blobs)
) WITHOUT ROWID;
