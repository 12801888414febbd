-- Idempotent retries: the first request with an Idempotency-Key claims it;
-- its answer is kept for 24 hours and replayed to a retry of the same
-- request, which is then neither run nor charged again.
CREATE TABLE "idempotency_keys" (
    "key_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_content_type" TEXT,
    "response_body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("key_id", "idempotency_key")
);

CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");
