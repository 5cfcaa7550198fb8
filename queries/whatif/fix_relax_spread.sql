-- what-if relax CLASS:spread:SEQ (planner/whatif_fix.c): maxSkew + 1 for
-- class ?1's spread constraint ?2
UPDATE temp.class_spread SET max_skew = max_skew + 1 WHERE class_id = ?1 AND seq = CAST(?2 AS INTEGER)
