-- Version 6: what a log line shows of a conversation, in an index of its
-- own (docs/performance.md), so that log reads no conversation's row: a
-- row holds searchableText, every prompt of the conversation, in overflow
-- pages that SQLite walked to reach agent and activityMs behind it (a
-- conversation with 24 KB of prompts: five pages). firstPrompt, read only
-- for a conversation with no title, stays in the row.
CREATE INDEX conversations_log ON conversations(conversationId, activityMs, title, agent);
