-- PostgreSQL twin of sqlite/0005_lean_sessions.sql (the state column is TEXT holding
-- JSON, as in 0001: read and rewritten through jsonb).
-- Live messages that match their session, and finished games that take little room.

-- The version each session's live message shows, as last recorded (written shortly after
-- the message is shown). A message behind its session (a reply lost to a crash or to
-- Discord) is shown again at start-up. Existing messages are taken as up to date.
ALTER TABLE sessions ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET shown_version = version;
-- Start-up: the messages to show again.
CREATE INDEX sessions_behind ON sessions (id)
    WHERE shown_version < version AND message_id IS NOT NULL;

-- A finished game keeps its history (game_results, game_stories: the whole story) and a
-- compact session row (the final game, for Play again); its events and the log of the
-- live message go. New games are compacted in their final commit.
DELETE FROM session_events
WHERE session_id IN (
    SELECT id FROM sessions AS s
    WHERE s.status = 'over'
      AND (s.state::jsonb ->> 'started_at' IS NULL
           OR EXISTS (SELECT 1 FROM game_stories AS g WHERE g.game_id = s.id))
);
UPDATE sessions SET state = (state::jsonb - 'log')::text WHERE status = 'over';
