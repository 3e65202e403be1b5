-- PostgreSQL twin of sqlite/0006_turn_pings.sql (same table; ids and times BIGINT).
-- The turn ping in each channel (bot.ui.pings): kept here, not only in memory, so a ping
-- posted before a restart is still deleted when its turn ends, or at start-up if the
-- turn ended while the bot was down. At most one a channel.
CREATE TABLE turn_pings (
    channel_id  BIGINT  PRIMARY KEY,
    guild_id    BIGINT  NOT NULL,         -- a sharded process cleans up only its guilds
    session_id  BIGINT  NOT NULL,
    turn        TEXT    NOT NULL,         -- the turn it belongs to: '<session>:<turn key>'
    message_id  BIGINT  NOT NULL,
    created_at  BIGINT  NOT NULL
);
