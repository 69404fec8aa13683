-- A shipment in a few statements, not four per row (issue 27's link_ack_ms_p99): ship() took
-- about 5.5 ms of the controller's CPU for a busy round's twelve rows, a SELECT, an INSERT, an
-- UPDATE of the level and a running-total upsert each, and forty tables' shipments queue on
-- the levels' row locks and on the machine's two cores. The rules are unchanged: each new row
-- is worked out in the order of the batch from the level as the rows before it left it
-- (etg/core/progressive.py contribute()); the rows are inserted together, each level updated
-- once, and the running totals kept by one statement per insert.
--
-- The NOTIFY of a shipment moves out of it, into floor.announce() (below).
--
-- A heartbeat's commit no longer waits for the disk: it records only that the table was heard
-- and what it shows, which the next beat, a second later, says again. Everything money, every
-- contribution and hit, is still committed durably before it is acknowledged.

DROP TRIGGER count_contribution ON floor.contributions;
DROP FUNCTION floor._count_contribution();
DROP FUNCTION floor._count(text, text, bigint, bigint, bigint);

CREATE FUNCTION floor._count_contributions() RETURNS trigger
LANGUAGE plpgsql SET search_path = floor, pg_temp AS $$
BEGIN
    INSERT INTO floor.table_totals AS t (table_id, level, contributions, wagers_cents,
                                         millionths, cents)
        SELECT table_id, level, count(*), sum(wager_cents), sum(millionths),
               sum(to_meter_cents + to_reserve_cents + overflow_cents)
        FROM new_rows GROUP BY table_id, level
    ON CONFLICT (table_id, level) DO UPDATE SET
        contributions = t.contributions + excluded.contributions,
        wagers_cents = t.wagers_cents + excluded.wagers_cents,
        millionths = t.millionths + excluded.millionths,
        cents = t.cents + excluded.cents;
    RETURN NULL;
END $$;
CREATE TRIGGER count_contributions AFTER INSERT ON floor.contributions
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION floor._count_contributions();

-- Ship a batch of contributions with the table's chain head and round count. Idempotent on
-- (table, round, seat, level): a retry acknowledges again and counts nothing twice; the same
-- key with another wager is refused. A chain that went backwards is refused (ETG01): the
-- controller is an anchor off the cabinet that no rollback of its disk can take back.
CREATE OR REPLACE FUNCTION floor.ship(p_table text, p_batch jsonb, p_chain_seq bigint,
                                      p_chain_head text, p_rounds bigint) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    t floor.tables := floor._own_table(p_table);
    lv floor.levels;
    r record;
    v_level text;
    v_millionths bigint; v_whole bigint; v_cents bigint;
    v_to_reserve bigint; v_overflow bigint;
    -- the new rows, column by column, inserted together at the end
    n_round bigint[] := '{}'; n_seat integer[] := '{}'; n_level text[] := '{}';
    n_wager bigint[] := '{}'; n_millionths bigint[] := '{}'; n_meter bigint[] := '{}';
    n_reserve bigint[] := '{}'; n_overflow bigint[] := '{}';
    v_seen jsonb;  -- this level's new keys in the batch: their wagers
    v_key text;
    v_was bigint;
    v_held bigint;
    v_acked jsonb;
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
    SELECT e INTO r FROM jsonb_array_elements(p_batch) e
        WHERE e->>'round' IS NULL OR e->>'seat' IS NULL OR e->>'level' IS NULL
              OR e->>'wager_cents' IS NULL
        LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'a contribution needs round, seat, level and wager_cents: %', r.e
            USING ERRCODE = 'ETG02';
    END IF;
    SELECT e->>'level' AS level INTO r FROM jsonb_array_elements(p_batch) e
        WHERE NOT (e->>'level') = ANY (t.linked_levels) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'table % does not link the % level', p_table, r.level
            USING ERRCODE = 'ETG03';
    END IF;
    -- lock the levels the batch touches, always in the same order: no deadlock with a hit
    PERFORM 1 FROM floor.levels
        WHERE level IN (SELECT e->>'level' FROM jsonb_array_elements(p_batch) e)
        ORDER BY level FOR UPDATE;
    -- level by level, the batch's rows in its order beside the controller's row of the same
    -- key if it holds one: each new row (the first of its key) worked out from the level as
    -- the rows before it left it, etg/core/progressive.py contribute(); the same key with
    -- another wager, held or earlier in the batch, is refused: never counted twice nor changed
    FOR v_level IN SELECT DISTINCT e->>'level' FROM jsonb_array_elements(p_batch) e
                   ORDER BY 1 LOOP
        SELECT * INTO lv FROM floor.levels WHERE level = v_level;
        v_seen := '{}';
        FOR r IN SELECT (b.e->>'round')::bigint AS round, (b.e->>'seat')::integer AS seat,
                        (b.e->>'wager_cents')::bigint AS wager_cents
                 FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS b(e, ord)
                 WHERE b.e->>'level' = v_level ORDER BY b.ord LOOP
            SELECT c.wager_cents INTO v_held FROM floor.contributions c  -- the primary key
                WHERE c.table_id = p_table AND c.round = r.round AND c.seat = r.seat
                  AND c.level = v_level;
            v_key := r.round || ':' || r.seat;
            v_was := coalesce(v_held, (v_seen->>v_key)::bigint);
            IF v_was IS NOT NULL THEN
                IF v_was <> r.wager_cents THEN
                    RAISE EXCEPTION 'contribution (%, %, %, %) was % cents, now %: refused',
                        p_table, r.round, r.seat, v_level, v_was, r.wager_cents
                        USING ERRCODE = 'ETG02';
                END IF;
                CONTINUE;
            END IF;
            v_seen := v_seen || jsonb_build_object(v_key, r.wager_cents);
            v_millionths := r.wager_cents * lv.rate_millionths;
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
            n_round := n_round || r.round; n_seat := n_seat || r.seat;
            n_level := n_level || v_level; n_wager := n_wager || r.wager_cents;
            n_millionths := n_millionths || v_millionths;
            n_meter := n_meter || (v_whole - v_to_reserve);
            n_reserve := n_reserve || (v_to_reserve - v_overflow);
            n_overflow := n_overflow || v_overflow;
            lv.current_cents := v_cents - v_to_reserve;
            lv.carry_millionths := (lv.carry_millionths + v_millionths) % 1000000;
            lv.reserve_cents := lv.reserve_cents + v_to_reserve - v_overflow;
            lv.overflow_cents := lv.overflow_cents + v_overflow;
            lv.contributions_cents := lv.contributions_cents + v_whole;
        END LOOP;
        IF v_seen <> '{}' THEN
            UPDATE floor.levels SET
                current_cents = lv.current_cents, carry_millionths = lv.carry_millionths,
                reserve_cents = lv.reserve_cents, overflow_cents = lv.overflow_cents,
                contributions_cents = lv.contributions_cents, updated_at = clock_timestamp()
                WHERE level = v_level;
        END IF;
    END LOOP;
    INSERT INTO floor.contributions (table_id, round, seat, level, wager_cents, millionths,
                                     to_meter_cents, to_reserve_cents, overflow_cents)
        SELECT p_table, * FROM unnest(n_round, n_seat, n_level, n_wager, n_millionths,
                                      n_meter, n_reserve, n_overflow);
    SELECT coalesce(jsonb_agg(jsonb_build_array((b.e->>'round')::bigint,
                                                (b.e->>'seat')::integer, b.e->>'level')
                              ORDER BY b.ord), '[]')
        INTO v_acked FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS b(e, ord);
    UPDATE floor.tables SET chain_seq = p_chain_seq, chain_head = p_chain_head,
        rounds = p_rounds WHERE table_id = p_table;
    -- no NOTIFY here: floor.announce() tells the floor once the table has its answer
    RETURN jsonb_build_object('acked', v_acked, 'new', cardinality(n_round),
                              'meters', floor._meters());
END $$;

-- Tell the floor that the table's shipment changed the meters: the NOTIFY that ship() made
-- inside its own transaction until this migration. At its commit a NOTIFY wakes every
-- listening session at once, forty tables and the pages, and on the controller's cores that
-- crowd ran before the shipping table's answer went out: its acknowledgement waited for the
-- whole floor to hear (link_ack_ms_p99: 26 ms without the NOTIFY against 52 with it). The
-- table calls this once ship() has answered with new rows (etg/floor/link.py); what a
-- listener hears is the same committed meters. A table that dies between the two calls
-- leaves the floor to hear of its rows with the next change or heartbeat's meters.
CREATE FUNCTION floor.announce(p_table text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    t floor.tables := floor._own_table(p_table);
    v_meters jsonb := floor._meters();
BEGIN
    PERFORM floor._notify(jsonb_build_object('kind', 'contribution', 'table', t.table_id,
                                             'meters', v_meters));
    RETURN jsonb_build_object('meters', v_meters);
END $$;

-- The heartbeat as in 001, its commit not waited for on the disk (see the top of this file).
CREATE OR REPLACE FUNCTION floor.heartbeat(p_table text, p_state text, p_dealer text,
                                           p_outbox integer) RETURNS jsonb
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
    PERFORM set_config('synchronous_commit', 'off', true);  -- this transaction only
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
