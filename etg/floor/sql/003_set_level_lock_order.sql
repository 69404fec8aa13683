-- set_level() took the tables' SHARE lock before the level's row; a shipment takes the level's
-- row, then updates its table's row (ROW EXCLUSIVE on floor.tables): the two could wait on each
-- other. Now the level first, as every other function takes it.

CREATE OR REPLACE FUNCTION floor.set_level(p_level text, p_initial bigint, p_reset bigint,
                                p_rate_millionths bigint, p_ceiling bigint,
                                p_reserve_cap bigint, p_supervisor text, p_reason text)
    RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = floor, pg_temp AS $$
DECLARE
    lv floor.levels;
    v_open text[];
    v_after floor.levels;
BEGIN
    -- the level first, as ship() and claim_hit() take it, then the tables: a shipment holding
    -- the level and wanting its table's row never waits on us while we wait on it
    SELECT * INTO lv FROM floor.levels WHERE level = p_level FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no level % on this floor', p_level USING ERRCODE = 'ETG03';
    END IF;
    LOCK TABLE floor.tables IN SHARE MODE;  -- no heartbeat opens a table meanwhile
    v_open := floor._open_tables();
    IF cardinality(v_open) > 0 THEN
        RAISE EXCEPTION 'level % cannot change while tables are open: %', p_level,
            array_to_string(v_open, ', ') USING ERRCODE = 'ETG05';
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
