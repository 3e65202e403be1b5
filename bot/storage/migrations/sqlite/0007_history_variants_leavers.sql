-- History knows a game's rule variant (Pickomino's Extrawurm) and counts leavers apart.
--
-- history_games.variant: NULL for a game's base rules, else the variant's name. A
-- variant's games are also counted under the aggregate key '<game>:<variant>' (totals,
-- days, periods), so a leaderboard can show only them, or every game without them, as
-- cheaply as all games.
--
-- A person who left a finished game no longer counts it as a game played (nor its
-- score): history_totals.left_games counts it instead. The aggregates stored so far are
-- corrected below; the rolling windows are rebuilt from history_days on their next read.
-- Streaks are left as they were.

ALTER TABLE history_games ADD COLUMN variant TEXT;
UPDATE history_games SET variant = 'extrawurm'
WHERE game = 'pickomino' AND json_extract(options, '$.extrawurm') = 1;

ALTER TABLE history_totals ADD COLUMN left_games INTEGER NOT NULL DEFAULT 0;

CREATE TEMPORARY TABLE left_finished AS
SELECT p.game, p.guild_id, p.user_id, p.ended_at / 86400 AS day, p.score
FROM history_players AS p JOIN history_games AS g USING (game_id)
WHERE p.left_game = 1 AND p.is_bot = 0 AND g.abandoned = 0;

UPDATE history_totals SET
    left_games = (SELECT count(*) FROM left_finished AS l
        WHERE l.game = history_totals.game AND l.guild_id = history_totals.guild_id
            AND l.user_id = history_totals.user_id),
    games = games - (SELECT count(*) FROM left_finished AS l
        WHERE l.game = history_totals.game AND l.guild_id = history_totals.guild_id
            AND l.user_id = history_totals.user_id),
    score = score - (SELECT coalesce(sum(l.score), 0) FROM left_finished AS l
        WHERE l.game = history_totals.game AND l.guild_id = history_totals.guild_id
            AND l.user_id = history_totals.user_id)
WHERE EXISTS (SELECT 1 FROM left_finished AS l
    WHERE l.game = history_totals.game AND l.guild_id = history_totals.guild_id
        AND l.user_id = history_totals.user_id);

UPDATE history_days SET
    games = games - (SELECT count(*) FROM left_finished AS l
        WHERE l.game = history_days.game AND l.guild_id = history_days.guild_id
            AND l.user_id = history_days.user_id AND l.day = history_days.day),
    score = score - (SELECT coalesce(sum(l.score), 0) FROM left_finished AS l
        WHERE l.game = history_days.game AND l.guild_id = history_days.guild_id
            AND l.user_id = history_days.user_id AND l.day = history_days.day)
WHERE EXISTS (SELECT 1 FROM left_finished AS l
    WHERE l.game = history_days.game AND l.guild_id = history_days.guild_id
        AND l.user_id = history_days.user_id AND l.day = history_days.day);
DELETE FROM history_days WHERE games = 0;
DROP TABLE left_finished;

DELETE FROM history_periods;
DELETE FROM history_windows;

-- The variants' own aggregates, from the games stored so far.
INSERT INTO history_totals (game, guild_id, user_id, name, stored_games, games, wins, score,
    best_score, current_streak, longest_streak, left_games)
SELECT g.game || ':' || g.variant, p.guild_id, p.user_id, max(p.name), count(*),
    sum(CASE WHEN g.abandoned = 0 AND p.left_game = 0 THEN 1 ELSE 0 END),
    sum(CASE WHEN g.abandoned = 0 AND p.left_game = 0 THEN p.won ELSE 0 END),
    sum(CASE WHEN g.abandoned = 0 AND p.left_game = 0 THEN p.score ELSE 0 END),
    max(CASE WHEN g.abandoned = 0 AND p.left_game = 0 THEN p.score ELSE 0 END),
    0, 0,
    sum(CASE WHEN g.abandoned = 0 AND p.left_game = 1 THEN 1 ELSE 0 END)
FROM history_players AS p JOIN history_games AS g USING (game_id)
WHERE g.variant IS NOT NULL AND p.is_bot = 0
GROUP BY g.game, g.variant, p.guild_id, p.user_id;

INSERT INTO history_days (game, guild_id, day, user_id, games, wins, score)
SELECT g.game || ':' || g.variant, p.guild_id, p.ended_at / 86400, p.user_id, count(*),
    sum(p.won), sum(p.score)
FROM history_players AS p JOIN history_games AS g USING (game_id)
WHERE g.variant IS NOT NULL AND p.is_bot = 0 AND g.abandoned = 0 AND p.left_game = 0
GROUP BY g.game, g.variant, p.guild_id, p.ended_at / 86400, p.user_id;
