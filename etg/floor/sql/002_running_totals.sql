-- Running totals, so that the pages and `etg floor status` read a few rows however many
-- contributions the floor holds: each table's contributions per level, kept by ship() in the
-- same transaction as the rows they sum (reconcile checks them against the rows), and each
-- table's rounds today from the round count it ships.

CREATE TABLE floor.table_totals (
    table_id        text NOT NULL REFERENCES floor.tables,
    level           text NOT NULL REFERENCES floor.levels,
    contributions   bigint NOT NULL DEFAULT 0,
    wagers_cents    bigint NOT NULL DEFAULT 0,
    millionths      bigint NOT NULL DEFAULT 0,
    cents           bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, level)
);

INSERT INTO floor.table_totals (table_id, level, contributions, wagers_cents, millionths, cents)
    SELECT table_id, level, count(*), sum(wager_cents), sum(millionths),
           sum(to_meter_cents + to_reserve_cents + overflow_cents)
    FROM floor.contributions GROUP BY table_id, level;

ALTER TABLE floor.tables
    ADD COLUMN day date NOT NULL DEFAULT (clock_timestamp() AT TIME ZONE 'UTC')::date,
    ADD COLUMN day_start_rounds bigint NOT NULL DEFAULT 0;

CREATE FUNCTION floor._count(p_table text, p_level text, p_wager bigint, p_millionths bigint,
                             p_cents bigint) RETURNS void
LANGUAGE sql SET search_path = floor, pg_temp AS $$
    INSERT INTO floor.table_totals AS t (table_id, level, contributions, wagers_cents,
                                         millionths, cents)
        VALUES (p_table, p_level, 1, p_wager, p_millionths, p_cents)
    ON CONFLICT (table_id, level) DO UPDATE SET
        contributions = t.contributions + 1, wagers_cents = t.wagers_cents + p_wager,
        millionths = t.millionths + p_millionths, cents = t.cents + p_cents
$$;

CREATE FUNCTION floor._count_contribution() RETURNS trigger
LANGUAGE plpgsql SET search_path = floor, pg_temp AS $$
BEGIN
    PERFORM floor._count(NEW.table_id, NEW.level, NEW.wager_cents, NEW.millionths,
                         NEW.to_meter_cents + NEW.to_reserve_cents + NEW.overflow_cents);
    RETURN NULL;
END $$;
CREATE TRIGGER count_contribution AFTER INSERT ON floor.contributions
    FOR EACH ROW EXECUTE FUNCTION floor._count_contribution();

-- A new UTC day starts the table's count of rounds today from the round count it had.
CREATE FUNCTION floor._new_day() RETURNS trigger
LANGUAGE plpgsql SET search_path = floor, pg_temp AS $$
DECLARE
    v_today date := (clock_timestamp() AT TIME ZONE 'UTC')::date;
BEGIN
    IF NEW.day <> v_today THEN
        NEW.day := v_today;
        NEW.day_start_rounds := OLD.rounds;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER new_day BEFORE UPDATE ON floor.tables
    FOR EACH ROW EXECUTE FUNCTION floor._new_day();

DROP VIEW floor.table_contributions;
CREATE VIEW floor.table_contributions AS
    SELECT table_id, level, contributions, wagers_cents, millionths, cents
    FROM floor.table_totals;

DROP VIEW floor.table_status;
CREATE VIEW floor.table_status AS
    SELECT t.table_id, t.asset_number, t.linked_levels, t.state,
           CASE WHEN t.last_heartbeat > clock_timestamp() - interval '3 seconds'
                THEN 'up' ELSE 'down' END AS link_state,
           t.last_heartbeat, t.outbox_depth, t.dealer, t.rounds, t.chain_seq,
           CASE WHEN t.day = (clock_timestamp() AT TIME ZONE 'UTC')::date
                THEN t.rounds - t.day_start_rounds ELSE 0 END AS rounds_today
    FROM floor.tables t;
