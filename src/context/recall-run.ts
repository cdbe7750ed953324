// One recall as every caller runs it (the CLI, the API, MCP and the daemon for a one-shot
// command): the workspace's tokenizer counts the budget, the configured budget is the default.
import type { HipoConfig } from '../config/config.js';
import type { LocalDate } from '../time/calendar.js';
import type { TokenizerName } from '../text/tokens.js';
import type { Workspace } from '../tree/layout.js';
import type { Recall, TreeSearch } from './recall.js';

export interface RecallAsk {
  /** Tokens; default `agents.contextTokens`. */
  budget?: number;
  also?: string[];
}

/** A whole recall as a command asks for it. */
export interface RecallRequest extends RecallAsk {
  question: string;
  /** Use the search index (without it, the topics, nodes and matching days answer). */
  search: boolean;
  /** Bring the index up to date with the tree first. */
  update: boolean;
}

export interface RecallAnswer extends Recall {
  /** Problems that did not stop the recall (an index that could not be used). */
  warnings: string[];
}

/** The passages that answer `question` as of `today`, searched in `tree` when there is one. */
export async function recallIn(
  ws: Workspace,
  config: HipoConfig,
  today: LocalDate,
  question: string,
  opts: RecallAsk,
  tree?: TreeSearch,
): Promise<Recall> {
  const [{ recall }, { loadTokenCounter }, { linesRedactor }] = await Promise.all([
    import('./recall.js'),
    import('../text/tokens.js'),
    import('../redact/lines.js'),
  ]);
  return recall({
    memoryDir: ws.memoryDir,
    today,
    question,
    also: opts.also ?? [],
    budget: opts.budget ?? config.agents.contextTokens,
    measure: await loadTokenCounter(config.compaction.tokenizer as TokenizerName),
    redact: linesRedactor(config.redactPatterns),
    ...(tree ? { search: tree } : {}),
  });
}
