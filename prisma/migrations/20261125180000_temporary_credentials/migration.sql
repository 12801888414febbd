-- Temporary credentials: short-lived keys a key mints for itself, never wider
-- than it (fewer models, an earlier expiry, a budget of their own, a domain
-- allowlist for search). They authenticate like keys; revoking the parent
-- revokes them. Usage records name the parent of the credential that made them.
ALTER TABLE "api_keys" ADD COLUMN "parent_key_id" TEXT;
ALTER TABLE "api_keys" ADD COLUMN "allowed_domains" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_parent_key_id_fkey" FOREIGN KEY ("parent_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "api_keys_parent_key_id_idx" ON "api_keys"("parent_key_id") WHERE "parent_key_id" IS NOT NULL;

ALTER TABLE "usage_records" ADD COLUMN "parent_key_id" TEXT;
