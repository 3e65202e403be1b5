-- PostgreSQL twin of sqlite/0010_reviews.sql (same table; ids and times BIGINT).
-- Each finished game's review (bot.plugin.review, bot.ui.reviews): computed once, in the
-- background when the game ends (its events are dropped in the final commit), and read
-- by the end screen's Review button and `/<game> score game ... review`. `data` is the
-- review as JSON (GameReview.to_dict). 0009 is another branch's (ratings).
CREATE TABLE game_reviews (
    game_id     BIGINT  PRIMARY KEY,      -- the session id, as in the history tables
    kind        TEXT    NOT NULL,         -- the game's kind (a practice game's too)
    guild_id    BIGINT  NOT NULL,         -- its community, as in the history tables
    data        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);
