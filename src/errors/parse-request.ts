import type { z } from 'zod';
import { Errors } from './errors';

/** Validates a request body; the first problem becomes a 400 that names the field. */
export function parseRequest<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw Errors.validation('', 'The request body must be a JSON object.');
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
  throw Errors.validation(param, describeIssue(issue));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) return 'is required.';
  return issue.message.endsWith('.') ? issue.message : `${issue.message}.`;
}
