/**
 * Structured logs: one JSON object per line on stdout, so that any log
 * shipper can index them without parsing prose.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
  enabled(level: LogLevel): boolean;
}

export function createLogger(
  level: LogLevel = 'info',
  base: Record<string, unknown> = {},
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  return new JsonLogger(RANK[level], base, write);
}

/** Methods on the prototype: a child logger per request costs one small object, not a set of closures. */
class JsonLogger implements Logger {
  constructor(
    private readonly threshold: number,
    private readonly base: Record<string, unknown>,
    private readonly write: (line: string) => void,
  ) {}

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.emit('debug', msg, fields);
  }

  info(msg: string, fields?: Record<string, unknown>): void {
    this.emit('info', msg, fields);
  }

  warn(msg: string, fields?: Record<string, unknown>): void {
    this.emit('warn', msg, fields);
  }

  error(msg: string, fields?: Record<string, unknown>): void {
    this.emit('error', msg, fields);
  }

  child(fields: Record<string, unknown>): Logger {
    return new JsonLogger(this.threshold, { ...this.base, ...fields }, this.write);
  }

  enabled(level: LogLevel): boolean {
    return RANK[level] >= this.threshold;
  }

  private emit(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    if (RANK[level] < this.threshold) return;
    this.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...this.base, ...fields }, errorReplacer) + '\n');
  }
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

export const silentLogger = createLogger('silent');
