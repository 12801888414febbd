-- The delivery outcome of a response whose usage record was committed first:
-- NULL when the whole response was handed to the connection, 'client_gone'
-- when the client closed it before the end. A charge can be disputed with it.
ALTER TABLE "usage_records" ADD COLUMN "delivery" TEXT;
