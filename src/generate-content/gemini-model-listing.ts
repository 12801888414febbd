import type { Catalog, CatalogModel } from '../catalog/catalog';
import { mayUseModel, type Principal } from '../keys/principal';

const METHODS_BY_ENDPOINT: Record<string, string[]> = {
  chat: ['generateContent', 'streamGenerateContent', 'countTokens'],
  embeddings: ['embedContent', 'batchEmbedContents'],
};

/**
 * The models a key may use in the Gemini dialect (those serving chat or
 * embeddings, and the route policies over them), in Gemini's `Model`
 * shape: what the Google Gen AI SDK's `models.list` and `models.get` read.
 * @see https://ai.google.dev/api/models#Model
 */
export function listGeminiModels(catalog: Catalog, principal: Principal): Array<Record<string, unknown>> {
  const visible = catalog.visibleTo(principal);
  const models = visible.models.map((model) => geminiModel(model.id, [model])).filter((m) => m !== undefined);
  const policies = visible.policies.map((policy) => geminiModel(policy.name, policy.models.flatMap((id) => catalog.model(id) ?? []))).filter((m) => m !== undefined);
  return [...models, ...policies];
}

/** One model or route policy by name; undefined when the key may not use it or it serves no Gemini method. */
export function findGeminiModel(catalog: Catalog, principal: Principal, name: string): Record<string, unknown> | undefined {
  if (!mayUseModel(principal, name)) return undefined;
  const model = catalog.model(name);
  if (model) return geminiModel(name, [model]);
  const policy = catalog.policy(name);
  return policy ? geminiModel(name, policy.models.flatMap((id) => catalog.model(id) ?? [])) : undefined;
}

function geminiModel(name: string, models: CatalogModel[]): Record<string, unknown> | undefined {
  const methods = [...new Set(models.flatMap((m) => m.config.endpoint_types.flatMap((type) => METHODS_BY_ENDPOINT[type] ?? [])))];
  if (!methods.length) return undefined;
  const inputLimits = models.map((m) => m.config.max_input_tokens ?? m.config.context_window);
  const outputLimits = models.flatMap((m) => (m.config.max_output_tokens ? [m.config.max_output_tokens] : []));
  return {
    name: `models/${name}`,
    baseModelId: name,
    version: '001',
    displayName: name,
    inputTokenLimit: Math.min(...inputLimits),
    ...(outputLimits.length ? { outputTokenLimit: Math.min(...outputLimits) } : {}),
    supportedGenerationMethods: methods,
    ...(models.some((m) => m.config.reasoning) ? { thinking: true } : {}),
  };
}
