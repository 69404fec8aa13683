-- The pit's dashboard shows each level's contributions today (issue 28), which the views a
-- reader may see did not carry: the cents contributions put into the pool (onto the meter,
-- into the reserve or past it as overflow) since midnight of the controller's clock. The
-- index keeps the sum a range scan of today's rows, however long the floor has run.

CREATE INDEX contributions_level_at ON floor.contributions (level, at);

CREATE OR REPLACE VIEW floor.level_meters AS
    SELECT l.level, l.initial_cents, l.reset_cents, l.rate_millionths, l.ceiling_cents,
           l.reserve_cap_cents, l.opening_cents, l.seed_cents, l.contributions_cents, l.current_cents,
           l.wins_cents, l.overflow_cents, l.reserve_cents, l.adjustments_cents,
           l.carry_millionths, l.hits, l.paytable, l.updated_at,
           (SELECT coalesce(sum(c.to_meter_cents + c.to_reserve_cents + c.overflow_cents), 0)
              FROM floor.contributions c
             WHERE c.level = l.level
               AND c.at >= date_trunc('day', clock_timestamp()))::bigint
               AS contributions_today_cents
    FROM floor.levels l;
