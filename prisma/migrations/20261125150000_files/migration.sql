-- Uploaded files (POST /v1/files). The bytes live in the file storage (a
-- folder under GATEWAY_DATA_DIR, or S3) under `storage_key`; this row says
-- whose they are and until when they are kept.
--
-- A row is written as `uploading` when the bytes start to arrive and becomes
-- `processed` when they are all stored, so bytes whose upload never finished
-- (a crash) still have a row the sweep finds. Only `processed` rows that are
-- neither deleted nor past `expires_at` are visible to clients.
CREATE TABLE "files" (
    "id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    -- user_data | vision; empty while uploading when the purpose field comes after the file.
    "purpose" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "mime_type" TEXT NOT NULL DEFAULT 'application/octet-stream',
    -- SHA-256 of the bytes, hex; empty while uploading.
    "sha256" TEXT NOT NULL DEFAULT '',
    "storage_key" TEXT NOT NULL,
    -- uploading | processed
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- When the sweep removes the file; a delete sets it to the time of the delete.
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),
    -- The sweep's claim on the row while it removes the bytes (several instances share the work).
    "sweep_until" TIMESTAMPTZ(3),

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- GET /v1/files and GraphQL files: one key's files, newest (or oldest) first.
CREATE INDEX "files_key_id_created_at_id_idx" ON "files"("key_id", "created_at" DESC, "id" DESC);

-- The sweep: rows whose time is up (expired, deleted, or an upload that never finished).
CREATE INDEX "files_expires_at_idx" ON "files"("expires_at");
