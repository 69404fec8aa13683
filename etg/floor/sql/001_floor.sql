-- The floor's controller (SPEC §13, issue 27): linked progressive levels, every contribution and
-- every hit, and the only ways in: SECURITY DEFINER functions. Run by etg.floor.schema as the
-- role floor_owner, which owns everything here; a table's role may EXECUTE the table functions
-- and nothing else (no table grants at all), the reader role may SELECT the views.
--
-- Money is integer cents; a rate of progression is exact in millionths and the fractions of a
-- cent wait in carry_millionths, exactly as etg/core/progressive.py keeps a local meter.

CREATE TABLE floor.levels (
    level               text PRIMARY KEY
                        CHECK (level IN ('primary', 'secondary', 'progressive_payout')),
    initial_cents       bigint NOT NULL CHECK (initial_cents > 0),
    reset_cents         bigint NOT NULL CHECK (reset_cents > 0),
    rate_millionths     bigint NOT NULL CHECK (rate_millionths BETWEEN 0 AND 1000000),
    ceiling_cents       bigint CHECK (ceiling_cents IS NULL OR ceiling_cents >= reset_cents),
    -- the reserve's own cap: what would pass it is overflow (null: no cap, as a local meter)
    reserve_cap_cents   bigint CHECK (reserve_cap_cents IS NULL OR reserve_cap_cents >= 0),
    current_cents       bigint NOT NULL CHECK (current_cents >= 0),
    carry_millionths    bigint NOT NULL DEFAULT 0
                        CHECK (carry_millionths >= 0 AND carry_millionths < 1000000),
    reserve_cents       bigint NOT NULL DEFAULT 0 CHECK (reserve_cents >= 0),
    -- the books of the level: seed + contributions + adjustments
    --                       = current + wins + overflow + reserve
    opening_cents       bigint NOT NULL,       -- the initial amount the house put in
    seed_cents          bigint NOT NULL,       -- opening + each reset's top-up
    contributions_cents bigint NOT NULL DEFAULT 0,
    wins_cents          bigint NOT NULL DEFAULT 0,
    overflow_cents      bigint NOT NULL DEFAULT 0,
    adjustments_cents   bigint NOT NULL DEFAULT 0,
    hits                bigint NOT NULL DEFAULT 0,
    paytable            text NOT NULL DEFAULT '',
    updated_at          timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE floor.tables (
    -- as etg.config.cabinet's link table_id: it names the table's role too (<database>.<id>)
    table_id        text PRIMARY KEY CHECK (table_id ~ '^[a-z0-9][a-z0-9_-]{0,31}$'),
    role            text NOT NULL UNIQUE,
    asset_number    text NOT NULL DEFAULT '',
    linked_levels   text[] NOT NULL,
    chain_seq       bigint NOT NULL DEFAULT 0,
    chain_head      text NOT NULL DEFAULT '',
    rounds          bigint NOT NULL DEFAULT 0,
    last_heartbeat  timestamptz,
    state           text NOT NULL DEFAULT 'closed'
                    CHECK (state IN ('open', 'closed', 'jackpot', 'tilted')),
    dealer          text,
    outbox_depth    integer NOT NULL DEFAULT 0 CHECK (outbox_depth >= 0),
    added_at        timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE floor.contributions (
    table_id          text NOT NULL REFERENCES floor.tables,
    round             bigint NOT NULL CHECK (round > 0),
    seat              integer NOT NULL CHECK (seat > 0),
    level             text NOT NULL REFERENCES floor.levels,
    wager_cents       bigint NOT NULL CHECK (wager_cents > 0),
    millionths        bigint NOT NULL,
    to_meter_cents    bigint NOT NULL,
    to_reserve_cents  bigint NOT NULL,
    overflow_cents    bigint NOT NULL,
    at                timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (table_id, round, seat, level)
);
CREATE INDEX contributions_level ON floor.contributions (level);

CREATE TABLE floor.hits (
    hit_id              bigserial PRIMARY KEY,
    level               text NOT NULL REFERENCES floor.levels,
    table_id            text NOT NULL REFERENCES floor.tables,
    round               bigint NOT NULL,
    seat                integer NOT NULL,
    percent             integer NOT NULL CHECK (percent BETWEEN 1 AND 100),
    order_no            bigint NOT NULL,       -- the level's n-th hit: the order paid
    meter_cents         bigint NOT NULL,       -- the meter when the seat was paid
    amount_cents        bigint NOT NULL,
    seeded_cents        bigint NOT NULL,       -- the house's top-up to the reset amount
    from_reserve_cents  bigint NOT NULL,
    reset_to_cents      bigint NOT NULL,       -- the meter after the hit
    claimed_at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    validator           text,
    validator_role      text CHECK (validator_role IN ('floorperson', 'supervisor')),
    validated_at        timestamptz,
    UNIQUE (table_id, round, seat, level),
    UNIQUE (level, order_no)
);

-- Every change of a level's parameters or of a meter by hand, with the supervisor who signed it.
CREATE TABLE floor.adjustments (
    adjustment_id   bigserial PRIMARY KEY,
    kind            text NOT NULL CHECK (kind IN ('level', 'meter')),
    level           text NOT NULL REFERENCES floor.levels,
    before          jsonb NOT NULL,
    after           jsonb NOT NULL,
    delta_cents     bigint NOT NULL DEFAULT 0,
    supervisor      text NOT NULL CHECK (supervisor <> ''),
    reason          text NOT NULL CHECK (reason <> ''),
    at              timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- A meter goes down only through a recorded hit or a signed adjustment (SPEC §13): the functions
-- that do either say so for their own transaction; anything else lowering a meter is refused,
-- even the owner's own UPDATE by hand.
CREATE FUNCTION floor.meter_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.current_cents < OLD.current_cents
       AND coalesce(current_setting('floor.cause', true), '') NOT IN ('hit', 'adjustment') THEN
        RAISE EXCEPTION 'meter % may go down only through a recorded hit or a signed adjustment',
            OLD.level USING ERRCODE = 'ETG06';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER meter_guard BEFORE UPDATE ON floor.levels
    FOR EACH ROW EXECUTE FUNCTION floor.meter_guard();

-- --- helpers (not granted to anyone) ----------------------------------------------------------

-- The caller's table: the session's login role must be the table's own (SECURITY DEFINER
-- changes current_user, never session_user).
CREATE FUNCTION floor._own_table(p_table text) RETURNS floor.tables
LANGUAGE plpgsql STABLE SET search_path = floor, pg_temp AS $$
DECLARE
    t floor.tables;
BEGIN
    SELECT * INTO t FROM floor.tables WHERE table_id = p_table;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no table % on this floor', p_table USING ERRCODE = 'ETG04';
    END IF;
    IF t.role <> session_user THEN
        RAISE EXCEPTION 'role % may not act for table %', session_user, p_table
            USING ERRCODE = 'ETG04';
    END IF;
    RETURN t;
END $$;

CREATE FUNCTION floor._meters() RETURNS jsonb
LANGUAGE sql STABLE SET search_path = floor, pg_temp AS $$
    SELECT coalesce(jsonb_object_agg(level, current_cents ORDER BY level), '{}'::jsonb)
    FROM floor.levels
$$;

CREATE FUNCTION floor._notify(p_payload jsonb) RETURNS void
LANGUAGE sql SET search_path = floor, pg_temp AS $$
    SELECT pg_notify('floor', p_payload::text)
$$;

-- Is any table of the link open for play? Open: not closed, and heard from within 10 s
-- (a table silent longer refuses linked wagers by itself within 3 s of losing the link).
CREATE FUNCTION floor._open_tables() RETURNS text[]
LANGUAGE sql STABLE SET search_path = floor, pg_temp AS $$
    SELECT coalesce(array_agg(table_id ORDER BY table_id), '{}')
    FROM floor.tables
    WHERE state <> 'closed' AND last_heartbeat > clock_timestamp() - interval '10 seconds'
$$;

CREATE FUNCTION floor._hit_json(h floor.hits) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = floor, pg_temp AS $$
    SELECT jsonb_build_object(
        'hit_id', h.hit_id, 'level', h.level, 'table', h.table_id, 'round', h.round,
        'seat', h.seat, 'percent', h.percent, 'order_no', h.order_no,
        'meter_cents', h.meter_cents, 'amount_cents', h.amount_cents,
        'reset_to_cents', h.reset_to_cents, 'validator', h.validator,
        'validator_role', h.validator_role, 'meters', floor._meters())
$$;

-- --- the table's functions ----------------------------------------------------------------------

-- Ship a batch of contributions with the table's chain head and round count. Idempotent on
-- (table, round, seat, level): a retry acknowledges again and counts nothing twice; the same
-- key with another wager is refused. A chain that went backwards is refused (ETG01): the
-- controller is an anchor off the cabinet that no rollback of its disk can take back.
CREATE FUNCTION floor.ship(p_table text, p_batch jsonb, p_chain_seq bigint, p_chain_head text,
                           p_rounds bigint) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    t floor.tables := floor._own_table(p_table);
    item jsonb;
    lv floor.levels;
    v_round bigint; v_seat integer; v_level text; v_wager bigint;
    v_millionths bigint; v_whole bigint; v_cents bigint;
    v_to_reserve bigint; v_overflow bigint;
    v_existing bigint;
    v_acked jsonb := '[]'::jsonb;
    v_new integer := 0;
BEGIN
    IF p_chain_seq < t.chain_seq OR p_rounds < t.rounds
       OR (p_chain_seq = t.chain_seq AND t.chain_seq > 0 AND p_chain_head <> t.chain_head) THEN
        RAISE EXCEPTION 'chain head went backwards: table % sent seq % (% rounds), the '
                        'controller holds seq % (% rounds)',
            p_table, p_chain_seq, p_rounds, t.chain_seq, t.rounds USING ERRCODE = 'ETG01';
    END IF;
    IF jsonb_typeof(p_batch) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'a batch is a JSON array' USING ERRCODE = 'ETG02';
    END IF;
    -- lock the levels the batch touches, always in the same order: no deadlock with a hit
    PERFORM 1 FROM floor.levels
        WHERE level IN (SELECT e->>'level' FROM jsonb_array_elements(p_batch) e)
        ORDER BY level FOR UPDATE;
    FOR item IN SELECT * FROM jsonb_array_elements(p_batch) LOOP
        v_round := (item->>'round')::bigint;
        v_seat := (item->>'seat')::integer;
        v_level := item->>'level';
        v_wager := (item->>'wager_cents')::bigint;
        IF v_round IS NULL OR v_seat IS NULL OR v_level IS NULL OR v_wager IS NULL THEN
            RAISE EXCEPTION 'a contribution needs round, seat, level and wager_cents: %', item
                USING ERRCODE = 'ETG02';
        END IF;
        IF NOT v_level = ANY (t.linked_levels) THEN
            RAISE EXCEPTION 'table % does not link the % level', p_table, v_level
                USING ERRCODE = 'ETG03';
        END IF;
        SELECT wager_cents INTO v_existing FROM floor.contributions
            WHERE table_id = p_table AND round = v_round AND seat = v_seat AND level = v_level;
        IF FOUND THEN
            IF v_existing <> v_wager THEN
                RAISE EXCEPTION 'contribution (%, %, %, %) was % cents, now %: refused',
                    p_table, v_round, v_seat, v_level, v_existing, v_wager
                    USING ERRCODE = 'ETG02';
            END IF;
        ELSE
            -- etg/core/progressive.py contribute(), in the database's own transaction
            SELECT * INTO lv FROM floor.levels WHERE level = v_level;
            v_millionths := v_wager * lv.rate_millionths;
            v_whole := (lv.carry_millionths + v_millionths) / 1000000;
            v_cents := lv.current_cents + v_whole;
            v_to_reserve := 0;
            IF lv.ceiling_cents IS NOT NULL AND v_cents > lv.ceiling_cents THEN
                v_to_reserve := v_cents - greatest(lv.ceiling_cents, lv.current_cents);
            END IF;
            v_overflow := 0;
            IF lv.reserve_cap_cents IS NOT NULL
               AND lv.reserve_cents + v_to_reserve > lv.reserve_cap_cents THEN
                v_overflow := lv.reserve_cents + v_to_reserve
                              - greatest(lv.reserve_cap_cents, lv.reserve_cents);
            END IF;
            INSERT INTO floor.contributions (table_id, round, seat, level, wager_cents,
                    millionths, to_meter_cents, to_reserve_cents, overflow_cents)
                VALUES (p_table, v_round, v_seat, v_level, v_wager, v_millionths,
                        v_whole - v_to_reserve, v_to_reserve - v_overflow, v_overflow);
            UPDATE floor.levels SET
                current_cents = v_cents - v_to_reserve,
                carry_millionths = (lv.carry_millionths + v_millionths) % 1000000,
                reserve_cents = reserve_cents + v_to_reserve - v_overflow,
                overflow_cents = overflow_cents + v_overflow,
                contributions_cents = contributions_cents + v_whole,
                updated_at = clock_timestamp()
                WHERE level = v_level;
            v_new := v_new + 1;
        END IF;
        v_acked := v_acked || jsonb_build_array(jsonb_build_array(v_round, v_seat, v_level));
    END LOOP;
    UPDATE floor.tables SET chain_seq = p_chain_seq, chain_head = p_chain_head,
        rounds = p_rounds WHERE table_id = p_table;
    IF v_new > 0 THEN
        PERFORM floor._notify(jsonb_build_object('kind', 'contribution', 'table', p_table,
                                                 'count', v_new, 'meters', floor._meters()));
    END IF;
    RETURN jsonb_build_object('acked', v_acked, 'meters', floor._meters());
END $$;

-- Claim a hit when the seat is paid (MD Ch. 10 D(4)): the level locked, percent of the meter as
-- it stands paid (etg/core/progressive.py award()), the meter reset, the order recorded. A retry
-- of the same (table, round, seat, level) returns the same hit.
CREATE FUNCTION floor.claim_hit(p_table text, p_round bigint, p_seat integer, p_level text,
                                p_percent integer) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    t floor.tables := floor._own_table(p_table);
    lv floor.levels;
    h floor.hits;
    v_amount bigint; v_remaining bigint; v_seeded bigint; v_cents bigint;
    v_room bigint; v_from_reserve bigint;
BEGIN
    IF NOT p_level = ANY (t.linked_levels) THEN
        RAISE EXCEPTION 'table % does not link the % level', p_table, p_level
            USING ERRCODE = 'ETG03';
    END IF;
    IF p_percent IS NULL OR p_percent NOT BETWEEN 1 AND 100 THEN
        RAISE EXCEPTION 'a hit pays 1 to 100 percent of the meter, not %', p_percent
            USING ERRCODE = 'ETG02';
    END IF;
    SELECT * INTO lv FROM floor.levels WHERE level = p_level FOR UPDATE;
    SELECT * INTO h FROM floor.hits WHERE table_id = p_table AND round = p_round
        AND seat = p_seat AND level = p_level;
    IF FOUND THEN
        IF h.percent <> p_percent THEN
            RAISE EXCEPTION 'hit (%, %, %, %) was claimed at % percent, now %: refused',
                p_table, p_round, p_seat, p_level, h.percent, p_percent USING ERRCODE = 'ETG02';
        END IF;
        RETURN floor._hit_json(h);
    END IF;
    v_amount := lv.current_cents * p_percent / 100;
    v_remaining := lv.current_cents - v_amount;
    v_seeded := greatest(0, lv.reset_cents - v_remaining);
    v_cents := v_remaining + v_seeded;
    IF lv.ceiling_cents IS NULL THEN
        v_from_reserve := lv.reserve_cents;
    ELSE
        v_room := lv.ceiling_cents - v_cents;
        v_from_reserve := greatest(0, least(lv.reserve_cents, v_room));
    END IF;
    PERFORM set_config('floor.cause', 'hit', true);
    UPDATE floor.levels SET
        current_cents = v_cents + v_from_reserve,
        reserve_cents = reserve_cents - v_from_reserve,
        seed_cents = seed_cents + v_seeded,
        wins_cents = wins_cents + v_amount,
        hits = hits + 1,
        updated_at = clock_timestamp()
        WHERE level = p_level;
    PERFORM set_config('floor.cause', '', true);
    INSERT INTO floor.hits (level, table_id, round, seat, percent, order_no, meter_cents,
            amount_cents, seeded_cents, from_reserve_cents, reset_to_cents)
        VALUES (p_level, p_table, p_round, p_seat, p_percent, lv.hits + 1, lv.current_cents,
                v_amount, v_seeded, v_from_reserve, v_cents + v_from_reserve)
        RETURNING * INTO h;
    PERFORM floor._notify(jsonb_build_object('kind', 'hit', 'table', p_table, 'level', p_level,
        'hit_id', h.hit_id, 'seat', p_seat, 'amount_cents', v_amount,
        'meters', floor._meters()));
    RETURN floor._hit_json(h);
END $$;

-- A floorperson or supervisor validated the table's hit (MD Ch. 9 J(4)(c)); a retry by the same
-- validator is the same validation, another validator's is refused.
CREATE FUNCTION floor.validate_hit(p_table text, p_hit_id bigint, p_validator text,
                                   p_role text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    t floor.tables := floor._own_table(p_table);
    h floor.hits;
BEGIN
    IF p_role IS NULL OR p_role NOT IN ('floorperson', 'supervisor') THEN
        RAISE EXCEPTION 'a hit is validated by a floorperson or a supervisor, not %', p_role
            USING ERRCODE = 'ETG02';
    END IF;
    IF coalesce(p_validator, '') = '' THEN
        RAISE EXCEPTION 'a validation names its validator' USING ERRCODE = 'ETG02';
    END IF;
    SELECT * INTO h FROM floor.hits WHERE hit_id = p_hit_id AND table_id = t.table_id
        FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'table % has no hit %', p_table, p_hit_id USING ERRCODE = 'ETG04';
    END IF;
    IF h.validator IS NOT NULL THEN
        IF h.validator <> p_validator OR h.validator_role <> p_role THEN
            RAISE EXCEPTION 'hit % was validated by % (%)', p_hit_id, h.validator,
                h.validator_role USING ERRCODE = 'ETG02';
        END IF;
        RETURN floor._hit_json(h);
    END IF;
    UPDATE floor.hits SET validator = p_validator, validator_role = p_role,
        validated_at = clock_timestamp() WHERE hit_id = p_hit_id RETURNING * INTO h;
    PERFORM floor._notify(jsonb_build_object('kind', 'validation', 'table', p_table,
        'level', h.level, 'hit_id', h.hit_id));
    RETURN floor._hit_json(h);
END $$;

-- The table's heartbeat (each second): its state, dealer and outbox depth in; the meters and
-- the levels' parameters out. A change of state or dealer is notified; a beat alone is not.
CREATE FUNCTION floor.heartbeat(p_table text, p_state text, p_dealer text, p_outbox integer)
    RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    t floor.tables := floor._own_table(p_table);
    v_was_down boolean := t.last_heartbeat IS NULL
                          OR t.last_heartbeat < clock_timestamp() - interval '3 seconds';
BEGIN
    IF p_state IS NULL OR p_state NOT IN ('open', 'closed', 'jackpot', 'tilted') THEN
        RAISE EXCEPTION 'a table''s state is open, closed, jackpot or tilted, not %', p_state
            USING ERRCODE = 'ETG02';
    END IF;
    UPDATE floor.tables SET last_heartbeat = clock_timestamp(), state = p_state,
        dealer = p_dealer, outbox_depth = greatest(0, coalesce(p_outbox, 0))
        WHERE table_id = p_table;
    IF v_was_down OR t.state <> p_state OR t.dealer IS DISTINCT FROM p_dealer THEN
        PERFORM floor._notify(jsonb_build_object('kind', 'table', 'table', p_table,
                                                 'state', p_state));
    END IF;
    RETURN jsonb_build_object(
        'meters', floor._meters(),
        'levels', (SELECT coalesce(jsonb_object_agg(level, jsonb_build_object(
                       'initial_cents', initial_cents, 'reset_cents', reset_cents,
                       'rate_millionths', rate_millionths, 'ceiling_cents', ceiling_cents,
                       'current_cents', current_cents)), '{}'::jsonb)
                   FROM floor.levels WHERE level = ANY (t.linked_levels)),
        'now', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'));
END $$;

-- --- the back office's functions (floor_admin) ---------------------------------------------

CREATE FUNCTION floor.add_level(p_level text, p_initial bigint, p_reset bigint,
                                p_rate_millionths bigint, p_ceiling bigint,
                                p_reserve_cap bigint, p_paytable text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
BEGIN
    INSERT INTO floor.levels (level, initial_cents, reset_cents, rate_millionths, ceiling_cents,
            reserve_cap_cents, current_cents, opening_cents, seed_cents, paytable)
        VALUES (p_level, p_initial, p_reset, p_rate_millionths, p_ceiling, p_reserve_cap,
                p_initial, p_initial, p_initial, coalesce(p_paytable, ''));
    PERFORM floor._notify(jsonb_build_object('kind', 'level', 'level', p_level));
END $$;

CREATE FUNCTION floor.register_table(p_table text, p_role text, p_asset text,
                                     p_levels text[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM unnest(p_levels) l
               WHERE l NOT IN (SELECT level FROM floor.levels)) THEN
        RAISE EXCEPTION 'table % links a level the floor does not have: %', p_table, p_levels
            USING ERRCODE = 'ETG03';
    END IF;
    INSERT INTO floor.tables (table_id, role, asset_number, linked_levels)
        VALUES (p_table, p_role, coalesce(p_asset, ''), p_levels);
    PERFORM floor._notify(jsonb_build_object('kind', 'table', 'table', p_table,
                                             'state', 'closed'));
END $$;

-- New parameters for a level, signed by a supervisor; refused while a table is open for play
-- (NY 5321.18, SPEC §13). The meter itself is left as it stands.
CREATE FUNCTION floor.set_level(p_level text, p_initial bigint, p_reset bigint,
                                p_rate_millionths bigint, p_ceiling bigint,
                                p_reserve_cap bigint, p_supervisor text, p_reason text)
    RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    lv floor.levels;
    v_open text[];
    v_after floor.levels;
BEGIN
    LOCK TABLE floor.tables IN SHARE MODE;  -- no heartbeat opens a table meanwhile
    v_open := floor._open_tables();
    IF cardinality(v_open) > 0 THEN
        RAISE EXCEPTION 'level % cannot change while tables are open: %', p_level,
            array_to_string(v_open, ', ') USING ERRCODE = 'ETG05';
    END IF;
    SELECT * INTO lv FROM floor.levels WHERE level = p_level FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no level % on this floor', p_level USING ERRCODE = 'ETG03';
    END IF;
    UPDATE floor.levels SET initial_cents = p_initial, reset_cents = p_reset,
        rate_millionths = p_rate_millionths, ceiling_cents = p_ceiling,
        reserve_cap_cents = p_reserve_cap, updated_at = clock_timestamp()
        WHERE level = p_level RETURNING * INTO v_after;
    INSERT INTO floor.adjustments (kind, level, before, after, supervisor, reason)
        VALUES ('level', p_level, to_jsonb(lv), to_jsonb(v_after), p_supervisor, p_reason);
    PERFORM floor._notify(jsonb_build_object('kind', 'level', 'level', p_level));
    RETURN to_jsonb(v_after);
END $$;

-- Set a meter by hand, signed by a supervisor: the only way besides a hit a meter goes down.
CREATE FUNCTION floor.adjust_meter(p_level text, p_new_cents bigint, p_supervisor text,
                                   p_reason text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    lv floor.levels;
    v_after floor.levels;
BEGIN
    SELECT * INTO lv FROM floor.levels WHERE level = p_level FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no level % on this floor', p_level USING ERRCODE = 'ETG03';
    END IF;
    IF p_new_cents IS NULL OR p_new_cents < 0 THEN
        RAISE EXCEPTION 'a meter cannot be set to % cents', p_new_cents USING ERRCODE = 'ETG02';
    END IF;
    PERFORM set_config('floor.cause', 'adjustment', true);
    UPDATE floor.levels SET current_cents = p_new_cents,
        adjustments_cents = adjustments_cents + (p_new_cents - lv.current_cents),
        updated_at = clock_timestamp()
        WHERE level = p_level RETURNING * INTO v_after;
    PERFORM set_config('floor.cause', '', true);
    INSERT INTO floor.adjustments (kind, level, before, after, delta_cents, supervisor, reason)
        VALUES ('meter', p_level, to_jsonb(lv), to_jsonb(v_after),
                p_new_cents - lv.current_cents, p_supervisor, p_reason);
    PERFORM floor._notify(jsonb_build_object('kind', 'adjustment', 'level', p_level,
                                             'meters', floor._meters()));
    RETURN to_jsonb(v_after);
END $$;

-- --- views for the back office and the pages (floor_reader) ---------------------------------

CREATE VIEW floor.level_meters AS
    SELECT l.level, l.initial_cents, l.reset_cents, l.rate_millionths, l.ceiling_cents,
           l.reserve_cap_cents, l.opening_cents, l.seed_cents, l.contributions_cents, l.current_cents,
           l.wins_cents, l.overflow_cents, l.reserve_cents, l.adjustments_cents,
           l.carry_millionths, l.hits, l.paytable, l.updated_at
    FROM floor.levels l;

CREATE VIEW floor.table_status AS
    SELECT t.table_id, t.asset_number, t.linked_levels, t.state,
           CASE WHEN t.last_heartbeat > clock_timestamp() - interval '3 seconds'
                THEN 'up' ELSE 'down' END AS link_state,
           t.last_heartbeat, t.outbox_depth, t.dealer, t.rounds, t.chain_seq,
           (SELECT count(DISTINCT c.round) FROM floor.contributions c
             WHERE c.table_id = t.table_id
               AND c.at >= date_trunc('day', clock_timestamp())) AS rounds_today
    FROM floor.tables t;

CREATE VIEW floor.table_contributions AS
    SELECT c.table_id, c.level, count(*) AS contributions, sum(c.wager_cents) AS wagers_cents,
           sum(c.millionths) AS millionths,
           sum(c.to_meter_cents + c.to_reserve_cents + c.overflow_cents) AS cents
    FROM floor.contributions c
    GROUP BY c.table_id, c.level;

CREATE VIEW floor.last_hits AS
    SELECT h.hit_id, h.order_no, h.level, h.table_id, t.asset_number, h.seat, h.round,
           h.percent, h.meter_cents, h.amount_cents, h.reset_to_cents, h.claimed_at,
           h.validator, h.validator_role, h.validated_at
    FROM floor.hits h JOIN floor.tables t USING (table_id);
