import type { SearchConfig } from '../../config/config.js';
import type { Workspace } from '../../tree/layout.js';
import type { Embedder } from './embedder.js';
import { workspaceRedactor } from '../../redact/workspace.js';
import { OpenAiEmbedder, type OpenAiEmbedderOptions } from './openai.js';
import { UseLiteEmbedder } from './use-lite.js';
import { WinkEmbedder } from './wink.js';
import { userCacheDir } from './wink-vectors.js';
import { statePath } from '../../state/dir.js';

type EmbedderName = 'wink' | 'use-lite' | 'openai' | 'none';

/** True when `baseUrl` is OpenAI's own API (an empty one means it). */
function isOpenAiItself(baseUrl: string): boolean {
  if (!baseUrl) return true;
  try {
    const u = new URL(baseUrl);
    return u.protocol === 'https:' && u.hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/** The embedder settings after environment overrides. */
export function resolveEmbedderSettings(
  search: SearchConfig,
  env: NodeJS.ProcessEnv = process.env,
): { name: EmbedderName; openai: SearchConfig['openai'] & Pick<OpenAiEmbedderOptions, 'organization' | 'project'> } {
  const baseUrl = env.HIPO_EMBED_BASE_URL || search.openai.baseUrl;
  const configured = env.HIPO_EMBED_API_KEY || search.openai.apiKey;
  // OPENAI_API_KEY (with its organization and project) is a key for OpenAI: it goes to OpenAI's
  // endpoint only, never to whatever other endpoint is configured for embeddings.
  const fromOpenAi = !configured && isOpenAiItself(baseUrl) ? env.OPENAI_API_KEY?.trim() || '' : '';
  const openai = {
    ...search.openai,
    baseUrl,
    model: env.HIPO_EMBED_MODEL || search.openai.model,
    apiKey: configured || fromOpenAi,
    organization: fromOpenAi ? env.OPENAI_ORG_ID?.trim() || null : null,
    project: fromOpenAi ? env.OPENAI_PROJECT_ID?.trim() || null : null,
  };
  const name = (env.HIPO_EMBED_BASE_URL || env.HIPO_EMBED_MODEL ? 'openai' : search.embedder) as EmbedderName;
  return { name, openai };
}

/**
 * The configured embedder (not yet loaded: loading happens on first use), or null for none.
 * `signal` abandons an endpoint's request in flight when its owner stops.
 */
export function embedderFor(
  ws: Workspace,
  search: SearchConfig,
  env: NodeJS.ProcessEnv = process.env,
  signal?: AbortSignal,
): Embedder | null {
  const { name, openai } = resolveEmbedderSettings(search, env);
  switch (name) {
    case 'none':
      return null;
    case 'use-lite':
      return new UseLiteEmbedder();
    case 'openai':
      return new OpenAiEmbedder({ ...openai, redactor: workspaceRedactor(ws), ...(signal ? { signal } : {}) });
    case 'wink':
      return new WinkEmbedder({ cacheDirs: [userCacheDir(env), statePath(ws, 'wordVectors')] });
  }
}
