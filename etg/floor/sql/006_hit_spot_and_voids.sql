-- A linked hit is keyed by its spot too: (table, round, seat, spot, level).
--
-- A seat may hold a Progressive Payout Wager on each of its spots, and each spot's hand may
-- win the meter in the same round (MD Ch. 10 B(1)). Keyed by seat alone, the second spot's
-- claim was taken for a retry of the first and answered with the first's amount. Each hit is
-- its own now, paid in the order the table claims them (the order the seat is paid, spot by
-- spot: MD Ch. 9 J(4)(d), Ch. 10 D(4)), the second from the reset plus what came in after.

-- The spot as the engine numbers it: 1.. for a hand's Progressive Payout, 0 for the seat's own
-- (a Bonus Spin Hot Spot). Rows claimed before this migration keep NULL: the controller was
-- never told their spot, and a guess would be a false record. claim_hit() below gives such a
-- row the spot the table names when the table claims it again (the one hit the old key held).
ALTER TABLE floor.hits ADD COLUMN spot integer CHECK (spot >= 0);
ALTER TABLE floor.hits DROP CONSTRAINT hits_table_id_round_seat_level_key;
ALTER TABLE floor.hits ADD CONSTRAINT hits_table_id_round_seat_spot_level_key
    UNIQUE (table_id, round, seat, spot, level);

CREATE OR REPLACE FUNCTION floor._hit_json(h floor.hits) RETURNS jsonb
LANGUAGE sql STABLE SET search_path = floor, pg_temp AS $$
    SELECT jsonb_build_object(
        'hit_id', h.hit_id, 'level', h.level, 'table', h.table_id, 'round', h.round,
        'seat', h.seat, 'spot', h.spot, 'percent', h.percent, 'order_no', h.order_no,
        'meter_cents', h.meter_cents, 'amount_cents', h.amount_cents,
        'reset_to_cents', h.reset_to_cents, 'validator', h.validator,
        'validator_role', h.validator_role, 'meters', floor._meters())
$$;

-- The claim without a spot is dropped, not left beside the new one: no caller can use it.
-- (etg.floor.schema grants EXECUTE on the table functions by name after each migration, so the
-- tables' role holds the new claim_hit and nothing is left granted on the old.)
DROP FUNCTION floor.claim_hit(text, bigint, integer, text, integer);

-- Claim a hit when the seat's hand on that spot is paid (MD Ch. 10 D(4)): the level locked,
-- percent of the meter as it stands paid (etg/core/progressive.py award()), the meter reset,
-- the order recorded. A retry of the same (table, round, seat, spot, level) returns the same hit.
CREATE FUNCTION floor.claim_hit(p_table text, p_round bigint, p_seat integer, p_spot integer,
                                p_level text, p_percent integer) RETURNS jsonb
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
    IF p_spot IS NULL OR p_spot < 0 THEN
        RAISE EXCEPTION 'a hit names its spot (0: the seat''s own), not %', p_spot
            USING ERRCODE = 'ETG02';
    END IF;
    SELECT * INTO lv FROM floor.levels WHERE level = p_level FOR UPDATE;

    -- the same hit again (a retry), or the seat's one hit claimed before spots were recorded
    SELECT * INTO h FROM floor.hits WHERE table_id = p_table AND round = p_round
        AND seat = p_seat AND level = p_level AND (spot = p_spot OR spot IS NULL)
        ORDER BY spot NULLS LAST LIMIT 1;
    IF FOUND THEN
        IF h.percent <> p_percent THEN
            RAISE EXCEPTION 'hit (%, %, %, %, %) was claimed at % percent, now %: refused',
                p_table, p_round, p_seat, p_spot, p_level, h.percent, p_percent
                USING ERRCODE = 'ETG02';
        END IF;
        IF h.spot IS NULL THEN
            UPDATE floor.hits SET spot = p_spot WHERE hit_id = h.hit_id RETURNING * INTO h;
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
    INSERT INTO floor.hits (level, table_id, round, seat, spot, percent, order_no, meter_cents,
            amount_cents, seeded_cents, from_reserve_cents, reset_to_cents)
        VALUES (p_level, p_table, p_round, p_seat, p_spot, p_percent, lv.hits + 1,
                lv.current_cents, v_amount, v_seeded, v_from_reserve, v_cents + v_from_reserve)
        RETURNING * INTO h;
    PERFORM floor._notify(jsonb_build_object('kind', 'hit', 'table', p_table, 'level', p_level,
        'hit_id', h.hit_id, 'seat', p_seat, 'spot', p_spot, 'amount_cents', v_amount,
        'meters', floor._meters()));
    RETURN floor._hit_json(h);
END $$;

CREATE OR REPLACE VIEW floor.last_hits AS
    SELECT h.hit_id, h.order_no, h.level, h.table_id, t.asset_number, h.seat, h.round,
           h.percent, h.meter_cents, h.amount_cents, h.reset_to_cents, h.claimed_at,
           h.validator, h.validator_role, h.validated_at, h.spot
    FROM floor.hits h JOIN floor.tables t USING (table_id);

-- A round voided at a linked table (MD Ch. 11 D: "the round of play is void, and the dealer
-- shall return all wagers to the players"). Its contributions were taken at No More Bets from
-- wagers the progressive system accepted (MD Ch. 8 D; Ch. 10 C(1), D(3)(a)) and are on the
-- meter every linked table shows. A meter goes down only through a recorded hit or a signed
-- adjustment (SPEC §13), so they stay in the pool; the players have their wagers back, so the
-- house funded them. What changes is the record: the table's link calls void_round() for each
-- round its ledger voided, and the round's contributions are marked voided, with when, so the
-- meters and reconciliation name what the house put in that way. A single wager voided under
-- MD Ch. 11 C leaves its contribution the same way (etg/core/voids.py) and is not marked: the
-- round goes on, and the controller's key is the seat's wagers of the round, not one wager.

ALTER TABLE floor.contributions ADD COLUMN voided_at timestamptz;
CREATE INDEX contributions_voided ON floor.contributions (level) WHERE voided_at IS NOT NULL;

-- Idempotent: a round already marked keeps its first voided_at, and a second call changes and
-- notifies nothing. A round the controller holds no contributions of (voided before No More
-- Bets) marks nothing. The answer says what the round's contributions were.
CREATE FUNCTION floor.void_round(p_table text, p_round bigint) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    t floor.tables := floor._own_table(p_table);
    v_marked integer;
    v_answer jsonb;
BEGIN
    IF p_round IS NULL OR p_round <= 0 THEN
        RAISE EXCEPTION 'a void names its round, not %', p_round USING ERRCODE = 'ETG02';
    END IF;
    UPDATE floor.contributions SET voided_at = clock_timestamp()
        WHERE table_id = t.table_id AND round = p_round AND voided_at IS NULL;
    GET DIAGNOSTICS v_marked = ROW_COUNT;
    SELECT jsonb_build_object(
            'table', t.table_id, 'round', p_round, 'marked', v_marked,
            'contributions', count(*),
            'cents', coalesce(sum(to_meter_cents + to_reserve_cents + overflow_cents), 0),
            'voided_at', to_char(min(voided_at) AT TIME ZONE 'UTC',
                                 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
        INTO v_answer
        FROM floor.contributions WHERE table_id = t.table_id AND round = p_round;
    IF v_marked > 0 THEN
        PERFORM floor._notify(jsonb_build_object('kind', 'void', 'table', t.table_id,
                                                 'round', p_round, 'marked', v_marked));
    END IF;
    RETURN v_answer;
END $$;

-- Each level's contributions of voided rounds: in its contributions and on its meter like any
-- other, and funded by the house (the partial index keeps the sums to the voided rows).
CREATE OR REPLACE VIEW floor.level_meters AS
    SELECT l.level, l.initial_cents, l.reset_cents, l.rate_millionths, l.ceiling_cents,
           l.reserve_cap_cents, l.opening_cents, l.seed_cents, l.contributions_cents, l.current_cents,
           l.wins_cents, l.overflow_cents, l.reserve_cents, l.adjustments_cents,
           l.carry_millionths, l.hits, l.paytable, l.updated_at,
           (SELECT coalesce(sum(c.to_meter_cents + c.to_reserve_cents + c.overflow_cents), 0)
              FROM floor.contributions c
             WHERE c.level = l.level
               AND c.at >= date_trunc('day', clock_timestamp()))::bigint
               AS contributions_today_cents,
           (SELECT coalesce(sum(c.to_meter_cents + c.to_reserve_cents + c.overflow_cents), 0)
              FROM floor.contributions c
             WHERE c.level = l.level AND c.voided_at IS NOT NULL)::bigint AS voided_cents,
           (SELECT count(DISTINCT (c.table_id, c.round)) FROM floor.contributions c
             WHERE c.level = l.level AND c.voided_at IS NOT NULL) AS voided_rounds
    FROM floor.levels l;
