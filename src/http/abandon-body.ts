import type { IncomingMessage, ServerResponse } from 'node:http';

export interface AbandonLimits {
  /** How long after the answer went out the rest of the body may keep arriving. */
  lingerMs: number;
  /** How much more of it is read (and thrown away) before the connection is cut. */
  maxBytes: number;
}

/**
 * Many HTTP/1.1 clients (Node's fetch and the openai SDK among them) read the
 * answer only once they have sent their whole body, so the rest is read
 * generously: up to 30 s (nginx's lingering_time) and 1 GiB, more than any
 * upload limit, which costs bandwidth but no storage and no request slot.
 */
export const DEFAULT_ABANDON_LIMITS: AbandonLimits = { lingerMs: 30_000, maxBytes: 1024 * 1024 * 1024 };

/**
 * For a body refused part-way (an upload over its limit, say): stops handing
 * it to anyone, and reads what still comes only to throw it away, for a
 * short while. A client that is still sending then sees the answer instead
 * of a reset connection (closing a socket with unread data makes the kernel
 * send RST, which can destroy the answer before the client reads it); one
 * that goes on past `lingerMs` or `maxBytes` has its connection cut. A body
 * that does end in time leaves the connection usable for the next request.
 * Call it before answering.
 */
export function abandonBody(req: IncomingMessage, res: ServerResponse, limits: AbandonLimits = DEFAULT_ABANDON_LIMITS): void {
  req.unpipe();
  if (req.complete || req.destroyed) return;
  let discarded = 0;
  let timer: NodeJS.Timeout | undefined;
  const cut = () => {
    clearTimeout(timer);
    req.socket?.destroy();
  };
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) cut();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  // Once answered, the request may hear nothing more of its socket: the socket's own close ends the wait too.
  req.socket?.once('close', () => clearTimeout(timer));
  res.once('finish', () => {
    if (req.complete) return;
    timer = setTimeout(cut, limits.lingerMs);
    timer.unref();
  });
  res.once('close', () => {
    if (!req.complete && !res.writableFinished) cut();
  });
  req.resume();
}
