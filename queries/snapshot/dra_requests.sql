-- A claim spec's (?1) requests and subrequests, in order.
SELECT request, subrequest, first_available, device_class, allocation_mode, count, admin_access
FROM claim_request WHERE spec_id = ?1 ORDER BY seq, sub_seq;
