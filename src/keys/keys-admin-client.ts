import type { ApiKeyView } from './key-store';

/** What `keys create` asks for, in the admin API's request shape. */
export interface KeyCreateRequest {
  name: string;
  models?: string[];
  expires_at?: string;
  account_id?: string;
  project?: string;
  member?: string;
}

/** A refusal or failure of the admin API, with the gateway's own message when it sent one. */
export class KeyAdminRequestError extends Error {}

/**
 * The keys command's way to a running gateway: its admin REST API
 * (`/api/admin/keys`), with the operator's admin token. The gateway then
 * keeps its own database, caches and change notifications as for any admin
 * call.
 */
export class KeysAdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async create(body: KeyCreateRequest): Promise<ApiKeyView & { key: string }> {
    return this.call('POST', '/api/admin/keys', body);
  }

  async list(): Promise<ApiKeyView[]> {
    const page = await this.call<{ data: ApiKeyView[] }>('GET', '/api/admin/keys');
    return page.data;
  }

  /** The revoked key, or null when the gateway knows no such key. */
  async revoke(id: string): Promise<ApiKeyView | null> {
    try {
      return await this.call('DELETE', `/api/admin/keys/${encodeURIComponent(id)}`);
    } catch (err) {
      if (err instanceof KeyAdminRequestError && err.message.includes('key_not_found')) return null;
      throw err;
    }
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${this.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new KeyAdminRequestError(`could not reach the gateway at ${url.origin}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text();
    if (!res.ok) {
      let detail = text.slice(0, 500);
      try {
        const { error } = JSON.parse(text) as { error?: { code?: string; message?: string } };
        if (error) detail = `${error.code ?? 'error'}: ${error.message ?? ''}`;
      } catch {
        // Not the gateway's JSON envelope: the raw text is the detail.
      }
      throw new KeyAdminRequestError(`${method} ${url.pathname} answered ${res.status} (${detail})`);
    }
    return JSON.parse(text) as T;
  }
}

/** Whether a gateway answers its health check at `baseUrl` within `timeoutMs`. */
export async function gatewayAnswers(baseUrl: string, timeoutMs = 1_000): Promise<boolean> {
  try {
    const res = await fetch(new URL('/healthz', baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
