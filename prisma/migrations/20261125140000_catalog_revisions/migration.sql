-- The catalog as edited at runtime: each edit (a changed catalog file, an
-- admin API call) is a new revision; every instance serves the newest one.
-- Rows are never updated: the history says who changed what, and when.
CREATE TABLE "catalog_revisions" (
    "version" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "document" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalog_revisions_pkey" PRIMARY KEY ("version")
);

CREATE INDEX "catalog_revisions_digest_idx" ON "catalog_revisions"("digest");
