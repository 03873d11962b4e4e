"""PostgreSQL's schema, step by step from an empty database: applied at open under an
advisory lock, the version kept in ``schema_version``. A change is a new entry at the end,
never an edit of an old one."""

MIGRATIONS: tuple[str, ...] = (
    # 1: everything SQLite's schema 5 holds, in PostgreSQL's types.
    """
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE games (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- never reused: buttons carry it
        user_id BIGINT NOT NULL UNIQUE,         -- one current game per player
        guild_id BIGINT,                        -- server it was started in; NULL: DM, console
        game TEXT NOT NULL,
        deal BIGINT NOT NULL,
        state TEXT NOT NULL,                    -- engine Game.to_dict() as JSON, kept verbatim
        status TEXT NOT NULL DEFAULT 'playing',
        revision INTEGER NOT NULL DEFAULT 0,    -- +1 on every saved change
        started_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        undos INTEGER NOT NULL DEFAULT 0,
        hints INTEGER NOT NULL DEFAULT 0,
        seconds_played DOUBLE PRECISION NOT NULL DEFAULT 0,
        daily TEXT,
        finished_at DOUBLE PRECISION,
        proven_lost_at INTEGER                  -- a revision; stale once the game moves on
    );
    CREATE TABLE results (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game_row BIGINT NOT NULL UNIQUE,        -- games.id: a game is counted once
        user_id BIGINT NOT NULL,
        guild_id BIGINT,
        game TEXT NOT NULL,
        deal BIGINT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'resigned', 'abandoned')),
        moves INTEGER NOT NULL,
        undos INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        redeals_used INTEGER NOT NULL,
        seconds_played DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        daily TEXT                              -- the UTC day of a daily deal, else NULL
    );
    CREATE INDEX results_by_guild
        ON results (guild_id, game, finished_at, user_id, outcome, hints);
    CREATE INDEX results_by_guild_player
        ON results (guild_id, user_id, game, finished_at, outcome, hints);
    CREATE INDEX results_by_user ON results
        (user_id, guild_id, game, finished_at, outcome, hints, moves, seconds_played, daily, id);
    CREATE INDEX results_by_daily ON results (guild_id, daily, game);
    CREATE TABLE daily_attempts (
        user_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        day TEXT NOT NULL,                      -- UTC date, YYYY-MM-DD
        started_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (user_id, game, day)
    );
    CREATE TABLE winnable_deals (
        game TEXT NOT NULL,
        deal BIGINT NOT NULL,
        found_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, deal)
    );
    CREATE TABLE player_settings (
        user_id BIGINT PRIMARY KEY,
        private_boards BOOLEAN NOT NULL,
        four_colour BOOLEAN NOT NULL,
        auto_moves BOOLEAN NOT NULL
    );
    CREATE TABLE board_messages (
        user_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT NOT NULL,             -- the player's live board in that channel
        previous_id BIGINT,                     -- the one it replaced
        PRIMARY KEY (user_id, channel_id)
    );
    """,
    # 2: board_messages.previous_id was never written.
    """
    ALTER TABLE board_messages DROP COLUMN previous_id;
    """,
    # 3: each player's last use of what has a cooldown, shared by every process.
    """
    CREATE TABLE cooldowns (
        user_id BIGINT NOT NULL,
        kind TEXT NOT NULL,                     -- hint, winnable, stats, ...
        used_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (user_id, kind)
    );
    """,
    # 4: each day's daily deal, once chosen (proven winnable), the same for every process;
    #    challenges between members, and the games played for them; each player's last
    #    finished game in each place, for /replay.
    """
    CREATE TABLE daily_deals (
        game TEXT NOT NULL,
        day TEXT NOT NULL,                      -- UTC date, YYYY-MM-DD
        deal BIGINT NOT NULL,
        PRIMARY KEY (game, day)
    );
    CREATE TABLE challenges (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- never reused: buttons carry it
        guild_id BIGINT NOT NULL,
        channel_id BIGINT,                      -- where its message is, once posted
        message_id BIGINT,
        challenger_id BIGINT NOT NULL,          -- 0: a player who asked to be forgotten
        challenged_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        deal BIGINT,                            -- chosen when accepted
        status TEXT NOT NULL,                   -- open, declined, accepted, over
        created_at DOUBLE PRECISION NOT NULL,
        accepted_at DOUBLE PRECISION,
        challenger_outcome TEXT,                -- won, lost, resigned, abandoned
        challenger_moves INTEGER,
        challenger_seconds DOUBLE PRECISION,
        challenged_outcome TEXT,
        challenged_moves INTEGER,
        challenged_seconds DOUBLE PRECISION
    );
    CREATE INDEX challenges_open ON challenges (status, created_at);
    ALTER TABLE games ADD COLUMN challenge_id BIGINT;
    ALTER TABLE results ADD COLUMN challenge_id BIGINT;
    CREATE TABLE replays (
        user_id BIGINT NOT NULL,
        place BIGINT NOT NULL,                  -- the server's id; 0 outside servers
        state TEXT NOT NULL,                    -- the finished game, as games.state
        outcome TEXT NOT NULL,
        hints INTEGER NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (user_id, place)
    );
    """,
    # 5: the language a challenge's message was posted in: every later update of it is
    #    worded in that language, whichever process makes it.
    """
    ALTER TABLE challenges ADD COLUMN language TEXT NOT NULL DEFAULT 'en-US';
    """,
    # 6: each side's hints in its challenge game: a win without hints beats one with them.
    """
    ALTER TABLE challenges ADD COLUMN challenger_hints INTEGER;
    ALTER TABLE challenges ADD COLUMN challenged_hints INTEGER;
    """,
    # 7: one challenge waiting for an answer per pair of members, whichever challenged
    #    whom (the older of any two waiting now end as unanswered); and each member's
    #    challenges waiting for an answer, counted by the index beside it.
    """
    UPDATE challenges SET status = 'expired'
        WHERE status = 'open' AND challenger_id <> 0 AND challenged_id <> 0
        AND id NOT IN (
            SELECT max(id) FROM challenges
            WHERE status = 'open' AND challenger_id <> 0 AND challenged_id <> 0
            GROUP BY LEAST(challenger_id, challenged_id), GREATEST(challenger_id, challenged_id)
        );
    CREATE UNIQUE INDEX challenges_open_pair
        ON challenges (LEAST(challenger_id, challenged_id), GREATEST(challenger_id, challenged_id))
        WHERE status = 'open' AND challenger_id <> 0 AND challenged_id <> 0;
    CREATE INDEX challenges_by_challenger ON challenges (challenger_id, status, created_at);
    """,
)
