import type { ProviderType } from '../config/gateway-config-schema';

/**
 * A provider's base URL as the gateway uses it: with the API version segment
 * its adapter's paths go under, whether or not the operator wrote it.
 * Operators copy these values from the providers' own SDKs, which disagree:
 * `ANTHROPIC_BASE_URL` is commonly set without `/v1` (the Anthropic SDK adds
 * it), `GEMINI_BASE_URL` without `/v1beta` (js-genai adds it), and
 * `OPENAI_BASE_URL` with `/v1` (the OpenAI SDK adds nothing). Each form, with
 * or without a trailing slash, reaches the same endpoints.
 *
 * - anthropic: `/v1` is appended unless the path already ends with it.
 * - gemini: `/v1beta` is appended unless the path already ends with a
 *   version (`/v1`, `/v1beta`, `/v1alpha`).
 * - openai, xai, voyage: `/v1` is appended only to a bare host; any other path is
 *   an OpenAI-compatible prefix kept as it is (`/openai/v1`, `/api/v3`).
 */
export function normalizeBaseUrl(type: ProviderType, baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path + versionSuffix(type, path);
  return url.toString().replace(/\/+$/, '');
}

function versionSuffix(type: ProviderType, path: string): string {
  switch (type) {
    case 'anthropic':
      return /\/v1$/.test(path) ? '' : '/v1';
    case 'gemini':
      return /\/v1(?:alpha|beta)?\d*$/.test(path) ? '' : '/v1beta';
    case 'openai':
    case 'xai':
    case 'voyage':
      return path === '' ? '/v1' : '';
  }
}
