-- Version 6 is another branch's (reserved while this one was written):
-- this file only holds its place, and goes when that migration comes in.
SELECT 1;
