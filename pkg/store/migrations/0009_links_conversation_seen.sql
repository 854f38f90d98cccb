-- Version 9: log finds a link's conversation by when it was first seen
-- (docs/performance.md). Agents name conversations with random UUIDs, so
-- the 1,000 conversations of log's newest commits lay anywhere in an index
-- keyed by their id (conversations_log, version 6): a page read per
-- conversation. Keyed by firstSeenMs first, the conversations of recent
-- commits, first seen at about the time they were written, lie together.
--
-- links.convSeenMs is a copy of the conversation's firstSeenMs, kept by the
-- triggers below whatever writes a link or a conversation. It only finds
-- the entry: the look-up matches the conversation's id too, so a copy
-- that is out of date finds nothing rather than another conversation, and
-- log then looks the conversation up by id (store/loglinks.go).
ALTER TABLE links ADD COLUMN convSeenMs INTEGER;
UPDATE links SET convSeenMs = (SELECT c.firstSeenMs FROM conversations c WHERE c.conversationId = links.conversationId);

CREATE INDEX conversations_seen_log ON conversations(firstSeenMs, conversationId, activityMs, title, agent);
-- Only log read it; a link whose copy is stale falls back to the primary key.
DROP INDEX conversations_log;

CREATE TRIGGER links_conv_seen AFTER INSERT ON links
BEGIN
    UPDATE links SET convSeenMs = (SELECT c.firstSeenMs FROM conversations c WHERE c.conversationId = NEW.conversationId)
    WHERE id = NEW.id;
END;

CREATE TRIGGER conversations_seen_insert AFTER INSERT ON conversations
BEGIN
    UPDATE links SET convSeenMs = NEW.firstSeenMs WHERE conversationId = NEW.conversationId;
END;

CREATE TRIGGER conversations_seen_update AFTER UPDATE OF firstSeenMs ON conversations
WHEN NEW.firstSeenMs IS NOT OLD.firstSeenMs
BEGIN
    UPDATE links SET convSeenMs = NEW.firstSeenMs WHERE conversationId = NEW.conversationId;
END;
