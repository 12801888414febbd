import pino, { type Logger as PinoLogger } from 'pino';

/**
 * Structured logs with pino: one JSON object per line (`time` in ISO 8601,
 * `level` by name, `msg`, and the fields), so that any log shipper indexes
 * them without parsing prose. Every line of a request carries its
 * `request_id` (a child logger), and, while traces are exported, the
 * `trace_id` and `span_id` of the request's span (the same child logger,
 * and the access log line). Secrets are
 * redacted by path, whatever logged them.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
  enabled(level: LogLevel): boolean;
}

/** Where keys, upstream keys and Authorization headers could appear in a logged object. */
export const REDACTED_PATHS = [
  'authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'headers["x-api-key"]', '*.headers["x-api-key"]',
  'headers["x-goog-api-key"]', '*.headers["x-goog-api-key"]', 'headers["x-subscription-token"]', '*.headers["x-subscription-token"]',
  'api_key', '*.api_key', 'apiKey', '*.apiKey', 'key', '*.key', 'secret', '*.secret', 'token', '*.token', 'admin_token', 'password', '*.password',
];

export function createLogger(
  level: LogLevel = 'info',
  base: Record<string, unknown> = {},
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  const destination = { write };
  return new StructuredLogger(
    pino(
      {
        level,
        base,
        messageKey: 'msg',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }), log: readableValues },
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      },
      destination,
    ),
  );
}

/**
 * The gateway's logging calls (message first) on a pino logger (fields
 * first). A child (a request's logger) is made on its first line: most
 * requests log nothing, and a pino child costs its bindings' redaction and
 * serialization up front.
 */
class StructuredLogger implements Logger {
  private made: PinoLogger | undefined;

  constructor(
    private readonly parent: PinoLogger,
    private readonly bindings?: Record<string, unknown>,
  ) {
    if (!bindings) this.made = parent;
  }

  private get pino(): PinoLogger {
    return (this.made ??= this.parent.child(this.bindings!));
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    if (fields) this.pino.debug(fields, msg);
    else this.pino.debug(msg);
  }

  info(msg: string, fields?: Record<string, unknown>): void {
    if (fields) this.pino.info(fields, msg);
    else this.pino.info(msg);
  }

  warn(msg: string, fields?: Record<string, unknown>): void {
    if (fields) this.pino.warn(fields, msg);
    else this.pino.warn(msg);
  }

  error(msg: string, fields?: Record<string, unknown>): void {
    if (fields) this.pino.error(fields, msg);
    else this.pino.error(msg);
  }

  child(fields: Record<string, unknown>): Logger {
    return new StructuredLogger(this.pino, readableValues(fields));
  }

  enabled(level: LogLevel): boolean {
    return level !== 'silent' && this.parent.isLevelEnabled(level);
  }
}

/** Errors as `{name, message, stack}` (and their `code`), whatever field holds them; bigints as decimal strings. */
function readableValues(fields: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (value instanceof Error) (out ??= { ...fields })[key] = { name: value.name, message: value.message, stack: value.stack, ...('code' in value ? { code: (value as { code: unknown }).code } : {}) };
    else if (typeof value === 'bigint') (out ??= { ...fields })[key] = value.toString();
  }
  return out ?? fields;
}

export const silentLogger = createLogger('silent');
