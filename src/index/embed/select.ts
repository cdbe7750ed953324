import type { SearchConfig } from '../../config/config.js';
import type { Workspace } from '../../tree/layout.js';
import type { Embedder } from './embedder.js';
import { workspaceRedactor } from '../../redact/workspace.js';
import { OpenAiEmbedder } from './openai.js';
import { UseLiteEmbedder } from './use-lite.js';
import { WinkEmbedder } from './wink.js';
import { userCacheDir } from './wink-vectors.js';
import { statePath } from '../../state/dir.js';

type EmbedderName = 'wink' | 'use-lite' | 'openai' | 'none';

/** The embedder settings after environment overrides. */
function resolveEmbedderSettings(
  search: SearchConfig,
  env: NodeJS.ProcessEnv = process.env,
): { name: EmbedderName; openai: SearchConfig['openai'] } {
  const openai = {
    ...search.openai,
    baseUrl: env.HIPO_EMBED_BASE_URL || search.openai.baseUrl,
    model: env.HIPO_EMBED_MODEL || search.openai.model,
    apiKey: env.HIPO_EMBED_API_KEY || search.openai.apiKey || env.OPENAI_API_KEY || '',
  };
  const name = (env.HIPO_EMBED_BASE_URL || env.HIPO_EMBED_MODEL ? 'openai' : search.embedder) as EmbedderName;
  return { name, openai };
}

/** The configured embedder (not yet loaded: loading happens on first use), or null for none. */
export function embedderFor(ws: Workspace, search: SearchConfig, env: NodeJS.ProcessEnv = process.env): Embedder | null {
  const { name, openai } = resolveEmbedderSettings(search, env);
  switch (name) {
    case 'none':
      return null;
    case 'use-lite':
      return new UseLiteEmbedder();
    case 'openai':
      return new OpenAiEmbedder({ ...openai, redactor: workspaceRedactor(ws) });
    case 'wink':
      return new WinkEmbedder({ cacheDirs: [userCacheDir(env), statePath(ws, 'wordVectors')] });
  }
}
