-- Responses kept by the gateway for GET /v1/responses/{id}, its input items
-- and previous_response_id: the response object as answered and the input
-- the client sent, owned by the key that created them, until expires_at.
-- created_at is part of the key so the table can later be range-partitioned
-- by time; lookups by id use the key's leading column.
CREATE TABLE "stored_responses" (
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "key_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "previous_response_id" TEXT,
    "provider" TEXT NOT NULL,
    "upstream_response_id" TEXT,
    "input" JSONB NOT NULL,
    "response" JSONB NOT NULL,

    CONSTRAINT "stored_responses_pkey" PRIMARY KEY ("id", "created_at")
);

CREATE INDEX "stored_responses_expires_at_idx" ON "stored_responses"("expires_at");
