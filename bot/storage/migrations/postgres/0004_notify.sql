-- PostgreSQL twin of sqlite/0004_notify.sql (same table; ids and times BIGINT).
-- Each person's notification settings (the /pickomino notify command). A person with no
-- row gets the defaults: a ping when their turn starts.
CREATE TABLE notify_settings (
    user_id     BIGINT  PRIMARY KEY,
    turn_pings  INTEGER NOT NULL DEFAULT 1,   -- 1: a short message mentions them on their turn
    updated_at  BIGINT  NOT NULL
);
