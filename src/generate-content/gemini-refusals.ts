import { GatewayError } from '../errors/gateway-error';
import type { GenerateContentRequest } from './generate-content-request-schema';

/** Google's hosted tools: each runs (and is billed) on the operator's upstream account, per call, which the gateway does not price. */
const HOSTED_TOOLS = ['googleSearch', 'googleSearchRetrieval', 'codeExecution', 'urlContext', 'fileSearch', 'googleMaps', 'computerUse', 'enterpriseWebSearch', 'retrieval'];

/**
 * What the gateway refuses by name before reading the rest of a request:
 * state kept on the operator's upstream account (`cachedContent`, a file of
 * its Files API) that no key may name, and hosted tools, which cost money
 * per use that the gateway does not bill. Nothing is sent upstream.
 */
export function refuseUnservable(raw: Record<string, unknown>): void {
  if (raw.cachedContent !== undefined) {
    throw new GatewayError('unsupported_parameter', '"cachedContent" names a context cache kept on the upstream account, which the gateway does not offer; send the content itself (Gemini caches repeated prompts implicitly).', { param: 'cachedContent' });
  }
  const tools = Array.isArray(raw.tools) ? raw.tools : [];
  for (const [index, tool] of tools.entries()) {
    if (typeof tool !== 'object' || tool === null) continue;
    const hosted = Object.keys(tool).find((kind) => HOSTED_TOOLS.includes(kind));
    if (hosted) {
      throw new GatewayError('unsupported_parameter', `"tools[${index}].${hosted}" is a hosted tool billed per use on the upstream account, which the gateway does not bill; declare your own function in "functionDeclarations" instead.`, { param: `tools[${index}].${hosted}` });
    }
  }
}

/**
 * `fileData` names a file by URI: an https URL the model may read
 * (Gemini fetches it), never a file of the upstream account's Files API,
 * which belongs to whoever uploaded it there, not to this key.
 */
export function checkFileUris(req: Pick<GenerateContentRequest, 'contents' | 'systemInstruction'>): void {
  const contents = [...req.contents, ...(req.systemInstruction ? [req.systemInstruction] : [])];
  for (const [c, content] of contents.entries()) {
    for (const [p, part] of content.parts.entries()) {
      const uri = part.fileData?.fileUri;
      if (uri === undefined) continue;
      const param = `${c < req.contents.length ? `contents[${c}]` : 'systemInstruction'}.parts[${p}].fileData.fileUri`;
      if (!/^https:\/\//i.test(uri)) throw new GatewayError('invalid_parameter', `"${param}" must be an https:// URL; send local data as "inlineData".`, { param });
      if (/^https:\/\/generativelanguage\.googleapis\.com\//i.test(uri)) {
        throw new GatewayError('unsupported_parameter', `"${param}" names a file of the upstream account's Files API, which the gateway does not offer; send the data as "inlineData" or by a public https URL.`, { param });
      }
    }
  }
}
