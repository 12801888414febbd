-- Web search: each search request's record keeps what it was answered with
-- (queries, billed units, the backend) and its route receipt, the same
-- routing data the client received.
ALTER TABLE "usage_records" ADD COLUMN "search" JSONB;
