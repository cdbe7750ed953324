// Whether (and how) this workspace talks to a model: the `llm` config section with the
// environment's overrides. HIPO_LLM_BASE_URL, HIPO_LLM_MODEL and HIPO_LLM_API_KEY let an agent
// harness switch summaries on without editing files; HIPO_LLM_BASE_URL=off switches them off.
// With no base URL or no model the result is `null` and nothing is ever sent anywhere.
import type { HipoConfig, LlmConfig } from '../../config/config.js';

type LlmLevel = 'daily' | 'weekly' | 'monthly' | 'root';

export interface LlmSettings {
  baseUrl: string;
  model: string;
  /** null when no key is configured (local servers): a placeholder is sent instead. */
  apiKey: string | null;
  timeoutMs: number;
  /** The setting `timeoutMs` comes from, as a timeout's message names it; default `llm.timeoutMs`. */
  timeoutSetting?: string;
  maxOutputTokens: number;
  temperature: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  maxInputTokens: number;
  maxPartsPerNode: number;
  maxCallsPerCycle: number;
  backoffMinutes: number;
  levels: ReadonlySet<LlmLevel>;
  extraBody: Readonly<Record<string, unknown>>;
  /** The workspace's `redactPatterns`: the client redacts every message with them and hipo's rules. */
  redactPatterns?: readonly string[];
}

export interface ResolvedLlm {
  settings: LlmSettings | null;
  /** Why an endpoint that looks intended is not used (shown as a warning). */
  warnings: string[];
}

const OFF = /^(?:off|none|false|0|no)$/i;

export function resolveLlmSettings(
  config: Pick<HipoConfig, 'llm'> & Partial<Pick<HipoConfig, 'redactPatterns'>>,
  env: NodeJS.ProcessEnv,
): ResolvedLlm {
  const c: LlmConfig = config.llm;
  const warnings: string[] = [];
  const envUrl = env.HIPO_LLM_BASE_URL?.trim();
  if (envUrl && OFF.test(envUrl)) return { settings: null, warnings };
  const baseUrl = (envUrl || c.baseUrl).trim().replace(/\/+$/, '');
  const model = (env.HIPO_LLM_MODEL?.trim() || c.model).trim();
  if (!baseUrl && !model) return { settings: null, warnings };
  if (!baseUrl) {
    warnings.push(`llm: a model is set ("${model}") but no base URL (llm.baseUrl or HIPO_LLM_BASE_URL): summaries stay extractive`);
    return { settings: null, warnings };
  }
  if (!/^https?:\/\/[^\s/]+/i.test(baseUrl)) {
    warnings.push(`llm: base URL "${baseUrl}" is not an http(s) URL: summaries stay extractive`);
    return { settings: null, warnings };
  }
  if (!model) {
    warnings.push(`llm: a base URL is set (${baseUrl}) but no model (llm.model or HIPO_LLM_MODEL): summaries stay extractive`);
    return { settings: null, warnings };
  }
  // The key comes only from HIPO_LLM_API_KEY or the variable the config names: never from
  // OPENAI_API_KEY by default, so a key for one provider is not sent to another's endpoint.
  const fromNamed = c.apiKeyEnv ? env[c.apiKeyEnv]?.trim() : undefined;
  if (c.apiKeyEnv && !fromNamed && !env.HIPO_LLM_API_KEY)
    warnings.push(`llm: llm.apiKeyEnv names ${c.apiKeyEnv}, which is not set: calling ${baseUrl} without a key`);
  const apiKey = env.HIPO_LLM_API_KEY?.trim() || fromNamed || null;
  return {
    settings: {
      baseUrl,
      model,
      apiKey,
      timeoutMs: c.timeoutMs,
      maxOutputTokens: c.maxOutputTokens,
      temperature: c.temperature,
      maxRetries: c.maxRetries,
      maxRetryWaitMs: c.maxRetryWaitMs,
      maxInputTokens: c.maxInputTokens,
      maxPartsPerNode: c.maxPartsPerNode,
      maxCallsPerCycle: c.maxCallsPerCycle,
      backoffMinutes: c.backoffMinutes,
      levels: new Set(c.levels as LlmLevel[]),
      extraBody: c.extraBody,
      redactPatterns: config.redactPatterns ?? [],
    },
    warnings,
  };
}

/** The `summarizer` value of a node the model wrote. */
export function llmSummarizerId(model: string): string {
  return `llm:${model}`;
}
