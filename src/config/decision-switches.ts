import type { GatewayConfig } from './gateway-config-schema';

/** Whether decisions are served, whether questions may be generated, and the platform's generator model. */
export interface DecisionSwitches {
  enabled: boolean;
  questionGeneration: boolean;
  generatorModel: string | undefined;
}

/**
 * The operator's switches for decisions: the config file's `decisions`
 * block, where GATEWAY_DECISIONS_ENABLED, GATEWAY_DECISIONS_QUESTION_GENERATION
 * and GATEWAY_DECISIONS_GENERATOR_MODEL (when set) win. Both switches are off
 * unless turned on.
 */
export function decisionSwitches(config: GatewayConfig, env: NodeJS.ProcessEnv): DecisionSwitches {
  return {
    enabled: flag(env.GATEWAY_DECISIONS_ENABLED) ?? config.decisions.enabled,
    questionGeneration: flag(env.GATEWAY_DECISIONS_QUESTION_GENERATION) ?? config.decisions.question_generation,
    generatorModel: env.GATEWAY_DECISIONS_GENERATOR_MODEL || config.decisions.generator_model,
  };
}

function flag(value: string | undefined): boolean | undefined {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}
