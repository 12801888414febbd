import { isRetryableStatus, parseRetryAfter, UpstreamError } from '../upstream-error';

/** Turns an OpenAI error answer (`{"error":{message,type,param,code}}`) into an UpstreamError. */
export function openAIErrorFromResponse(status: number, headers: Record<string, string | string[] | undefined>, bodyText: string): UpstreamError {
  const err = parseOpenAIErrorBody(bodyText);
  return new UpstreamError(err?.message || `upstream answered HTTP ${status}`, {
    status,
    retryable: isRetryableStatus(status),
    retryAfterSeconds: parseRetryAfter(headers['retry-after']),
    code: err?.code ?? null,
    type: err?.type ?? null,
    param: err?.param ?? null,
  });
}

/** An `error` object inside a stream: the call already succeeded at the HTTP level. */
export function openAIStreamError(payload: { error?: unknown }): UpstreamError {
  const e = (payload.error ?? {}) as { message?: string; code?: string; type?: string };
  return new UpstreamError(e.message || 'the upstream reported an error mid-stream', {
    status: 502,
    retryable: false,
    code: typeof e.code === 'string' ? e.code : null,
    type: typeof e.type === 'string' ? e.type : null,
    cause: 'upstream_stream_error',
  });
}

/** A stream that closed before its answer was complete; retryable, since another attempt starts the answer afresh. */
export function openAIStreamCut(): UpstreamError {
  return new UpstreamError('the upstream stream ended before the answer was complete', { status: 502, retryable: true, cause: 'stream_cut' });
}

function parseOpenAIErrorBody(text: string): { message?: string; type?: string; code?: string; param?: string } | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    const e = parsed?.error;
    if (e && typeof e === 'object') {
      const { message, type, code, param } = e as Record<string, unknown>;
      return {
        message: typeof message === 'string' ? message : undefined,
        type: typeof type === 'string' ? type : undefined,
        code: typeof code === 'string' ? code : code != null ? String(code) : undefined,
        param: typeof param === 'string' ? param : undefined,
      };
    }
    if (typeof e === 'string') return { message: e };
  } catch {
    // Not JSON (an HTML page from a proxy, say): the status alone has to do.
  }
  return text ? { message: text.slice(0, 500) } : undefined;
}
