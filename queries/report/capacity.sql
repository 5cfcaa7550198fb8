-- kplan report, section capacity: kplan capacity's latest 20 answers, for the
-- database rather than the run (capacity_run, cli/cmd_capacity.c).
SELECT id, kind, subject, answer, bound, status, reason FROM capacity_run ORDER BY id DESC LIMIT 20
