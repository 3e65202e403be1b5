-- PostgreSQL twin of sqlite/0009_ratings.sql (the same tables; DOUBLE PRECISION, as
-- PostgreSQL's REAL is single precision and the ratings must be kept to the last digit).
-- Skill ratings (bot.history.ratings): Weng-Lin (openskill's Plackett-Luce model), per game
-- kind and community (a server, or a chat without one), for people and for each level of
-- computer player. SQL cannot run openskill: this only makes the tables; the ratings
-- of the games stored before are built by `python -m bot ratings rebuild` (README).

-- A computer player's level ("easy", "normal", "hard"), so the ratings can be rebuilt
-- from history; NULL for people, and for computer players stored before (their level
-- is read from their name then).
ALTER TABLE history_players ADD COLUMN bot_level TEXT;

-- One rating a player, game kind and community: a person by user_id (bot_level ''),
-- a level of computer player by bot_level (user_id 0). mu and sigma are doubles, stored
-- exactly, so a rebuild gives the live ratings back to the last digit.
CREATE TABLE ratings (
    game       TEXT NOT NULL,
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    bot_level  TEXT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, user_id, bot_level)
);

-- The last game rated in each community: a game that ends before it (same second, lower
-- id) makes the community's ratings be replayed in order, so live equals rebuilt.
CREATE TABLE rating_marks (
    game         TEXT NOT NULL,
    guild_id     BIGINT NOT NULL,
    ended_at     BIGINT NOT NULL,
    game_id      BIGINT NOT NULL,
    games        INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id)
);
