-- A BRIN index on the records' time: a few hundred kilobytes for ten
-- million records (records are written in time order, so each block range
-- covers a short span), and nearly free to maintain. Spend totals over all
-- accounts read the minutes at the ends of their range, and a roll-up
-- rebuild a whole day, through it instead of reading the whole table.
CREATE INDEX "usage_records_created_at_idx" ON "usage_records" USING BRIN ("created_at");
