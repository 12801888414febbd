-- Video generation tasks, polled by every instance through row leases, and
-- usage records whose charge is held until the task ends.

ALTER TABLE "usage_records" ADD COLUMN "billing_state" TEXT NOT NULL DEFAULT 'final';
ALTER TABLE "usage_records" ADD COLUMN "task_id" TEXT;
ALTER TABLE "usage_records" ADD COLUMN "held_microusd" BIGINT;
ALTER TABLE "usage_records" ADD COLUMN "settled_at" TIMESTAMPTZ(3);

CREATE TABLE "video_tasks" (
    "id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "api" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "upstream_model" TEXT NOT NULL,
    "lane" TEXT NOT NULL,
    "upstream_id" TEXT,
    "status" TEXT NOT NULL,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "params" JSONB NOT NULL,
    "result" JSONB,
    "error" JSONB,
    "remixed_from" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "poll_count" INTEGER NOT NULL DEFAULT 0,
    "next_poll_at" TIMESTAMPTZ(3) NOT NULL,
    "deadline_at" TIMESTAMPTZ(3) NOT NULL,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    CONSTRAINT "video_tasks_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "video_tasks_due_idx" ON "video_tasks"("next_poll_at") WHERE "status" IN ('submitting', 'queued', 'in_progress');
CREATE INDEX "video_tasks_key_id_created_at_id_idx" ON "video_tasks"("key_id", "created_at" DESC, "id" DESC);
