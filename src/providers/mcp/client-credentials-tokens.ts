import { z } from 'zod';
import { readBodyText, sendUpstream, toUpstreamError } from '../http-client';
import { parseJsonOrUndefined } from '../parse-json';
import { UpstreamError } from '../upstream-error';
import type { ClientCredentialsGrant } from './resolved-mcp-server';

const tokenAnswerSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', 'only bearer tokens are used'),
  expires_in: z.number().positive().optional(),
});

/** A token is fetched again this long before the expiry its issuer gave, so that none is sent as it runs out. */
const EXPIRY_MARGIN_MS = 30_000;
/** A token without `expires_in` is kept this long. */
const DEFAULT_LIFETIME_MS = 5 * 60_000;

interface CachedToken {
  token: string;
  until: number;
}

/**
 * OAuth 2.0 client-credentials tokens for upstream MCP servers (RFC 6749
 * §4.4): fetched when first needed, with the client authenticated by HTTP
 * Basic (§2.3.1), kept until shortly before they expire, fetched once for
 * all the calls that need one at the same time, and dropped when the
 * server refuses one (`forget`), so the next call fetches a fresh one.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4
 */
export class ClientCredentialsTokens {
  private readonly tokens = new Map<string, Promise<CachedToken>>();

  constructor(private readonly now: () => number = Date.now) {}

  async token(grant: ClientCredentialsGrant, scope: { signal: AbortSignal; timeoutMs: number; publicOnly: boolean }): Promise<string> {
    const key = cacheKey(grant);
    const cached = this.tokens.get(key);
    if (cached) {
      const held = await cached.catch(() => undefined);
      if (held && held.until > this.now()) return held.token;
      if (this.tokens.get(key) === cached) this.tokens.delete(key);
    }
    const fetching = this.tokens.get(key) ?? this.fetch(grant, scope);
    this.tokens.set(key, fetching);
    fetching.catch(() => this.tokens.get(key) === fetching && this.tokens.delete(key));
    return (await fetching).token;
  }

  /** The server refused the token: the next call fetches another. */
  forget(grant: ClientCredentialsGrant): void {
    this.tokens.delete(cacheKey(grant));
  }

  private async fetch(grant: ClientCredentialsGrant, scope: { signal: AbortSignal; timeoutMs: number; publicOnly: boolean }): Promise<CachedToken> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...(grant.scope ? { scope: grant.scope } : {}) });
    const basic = Buffer.from(`${encodeURIComponent(grant.clientId)}:${encodeURIComponent(grant.clientSecret)}`).toString('base64');
    const res = await sendUpstream({
      method: 'POST', url: grant.tokenUrl, signal: scope.signal, timeoutMs: scope.timeoutMs, publicOnly: scope.publicOnly,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${basic}` },
      body: form.toString(),
    });
    const text = await readBodyText(res.body, 64 * 1024).catch((err) => { throw toUpstreamError(err, scope.signal); });
    if (res.status >= 400) {
      throw new UpstreamError(`the token endpoint refused the gateway's client credentials (HTTP ${res.status})`, { status: 502, retryable: res.status >= 500, cause: 'credential_refused' });
    }
    const parsed = tokenAnswerSchema.safeParse(parseJsonOrUndefined(text));
    if (!parsed.success) throw new UpstreamError('the token endpoint did not answer with a bearer token', { status: 502, retryable: false, cause: 'malformed_answer' });
    const lifetime = parsed.data.expires_in !== undefined ? parsed.data.expires_in * 1000 : DEFAULT_LIFETIME_MS;
    return { token: parsed.data.access_token, until: this.now() + Math.max(0, lifetime - EXPIRY_MARGIN_MS) };
  }
}

function cacheKey(grant: ClientCredentialsGrant): string {
  return JSON.stringify([grant.tokenUrl, grant.clientId, grant.scope ?? null]);
}
