import { z } from 'zod';

/**
 * A key's stored state changed in a way that may narrow what it admits
 * (today: revoked; later: a budget or a temporary credential running out).
 * Whoever holds the key cached drops it and reads it again from the database,
 * so the message carries only which key, never what changed.
 */
export const keyChangeSchema = z.object({ kind: z.literal('key_changed'), key_id: z.string().min(1).max(128) });

export type KeyChange = z.infer<typeof keyChangeSchema>;

/**
 * Tells the other gateway instances that a key changed. The KeyStore calls
 * it after the change is committed; it resolves whether or not the others
 * could be told (the change itself stands either way) and never rejects.
 */
export interface KeyChangeNotifier {
  keyChanged(change: KeyChange): Promise<void>;
}

/** One process: there is no one else to tell. */
export const NO_OTHER_INSTANCES: KeyChangeNotifier = { keyChanged: async () => undefined };
