import { GatewayProblem } from './gateway-problem';

/**
 * A REST call of the gateway (`/v1/...`) with the API key. A non-2xx answer
 * throws its error envelope as a GatewayProblem; the caller reads the body
 * of a successful one as it needs (JSON, or bytes for a download).
 */
export async function restRequest(path: string, key: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${key}`);
  const res = await fetch(path, { ...init, headers });
  if (!res.ok) throw GatewayProblem.fromEnvelope(res.status, await res.json().catch(() => undefined));
  return res;
}
