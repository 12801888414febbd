-- Video tasks: inline start frames out of the polled row, the gateway's own
-- words in task errors, and an index for the held-charge sweeper.

-- 1. A start frame sent as a data: URL (up to 15 MB) was kept in
--    "params"."imageUrl", and so read back by every claim, poll and read of
--    the task. Only its media type, size and SHA-256 (of the URL as sent)
--    are kept now, as the gateway does for new tasks (videos/video-service.ts).
UPDATE "video_tasks"
SET "params" = ("params" - 'imageUrl') || jsonb_build_object('imageData', jsonb_build_object(
    'mediaType', substring(lower(left("params"->>'imageUrl', 100)) from '^data:([^;,]+)'),
    'bytes', octet_length("params"->>'imageUrl'),
    'sha256', encode(sha256(convert_to("params"->>'imageUrl', 'UTF8')), 'hex')))
WHERE lower(left("params"->>'imageUrl', 5)) = 'data:';

-- 2. Task errors written before carried the upstream's free text (which may
--    name a credential or an internal host). They get the gateway's own
--    messages (videos/task-errors.ts); an upstream code is kept only when it
--    is a plain snake_case identifier.
UPDATE "video_tasks"
SET "error" = CASE
    WHEN "error"->>'code' = 'upstream_error' THEN jsonb_build_object('code', 'upstream_error',
        'message', 'The upstream refused the task when it was polled; the charge was refunded. Submit it again.')
    WHEN "error"->>'code' = 'submission_failed' THEN jsonb_build_object('code', 'submission_failed',
        'message', 'The upstream refused the submission; nothing was charged.')
    WHEN "error"->>'code' = 'submission_interrupted' THEN jsonb_build_object('code', 'submission_interrupted',
        'message', 'The gateway stopped while submitting this task; it was not charged. Submit it again.')
    WHEN "error"->>'code' = 'generation_timeout' THEN jsonb_build_object('code', 'generation_timeout',
        'message', 'The upstream did not finish the video in time; the charge was refunded. Submit it again.')
    WHEN "error"->>'code' = 'expired' THEN jsonb_build_object('code', 'expired',
        'message', 'The upstream expired the task before it finished; the charge was refunded.')
    WHEN coalesce("error"->>'code', '') ~ '^[a-z][a-z0-9_]{0,63}$'
         AND "error"->>'code' ~ '(moderat|content_policy|content_filter|safety|policy_violation)' THEN jsonb_build_object('code', "error"->>'code',
        'message', 'The upstream declined to generate this video under its content policy; the charge was refunded.')
    ELSE jsonb_build_object(
        'code', CASE WHEN coalesce("error"->>'code', '') ~ '^[a-z][a-z0-9_]{0,63}$' THEN "error"->>'code' ELSE 'video_generation_failed' END,
        'message', 'The upstream could not generate the video; the charge was refunded.')
  END
WHERE "error" IS NOT NULL AND jsonb_typeof("error") = 'object';

-- 3. The sweeper looks for held charges whose task has ended; held records
--    are few, all records are many.
CREATE INDEX "usage_records_held_idx" ON "usage_records"("task_id") WHERE "billing_state" = 'held';
