-- A video task its owner deleted (DELETE /v1/videos/{id}): from then on it is
-- missing to every read by its key, and its prompt and result URL are
-- forgotten. The row stays for the money: its usage record keeps pointing at
-- it, and a record that reaches the database late still finds its task and
-- ends its hold.
ALTER TABLE "video_tasks" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);
