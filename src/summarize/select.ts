// Which summarizer a workspace uses. Offline extractive is the default and the fallback; with an
// endpoint configured (config `llm` or HIPO_LLM_* variables) the model writes node bodies above
// their threshold and ROOT's narrative, falling back to extractive node by node.
import type { HipoConfig } from '../config/config.js';
import type { Workspace } from '../tree/layout.js';
import type { TemplateSet } from '../write/template.js';
import type { TokenizerName } from '../text/tokens.js';
import type { ExclusionRules } from './exclusion.js';
import type { SummaryMemo } from './memo.js';
import { ExtractiveSummarizer } from './extractive.js';
import { loadPrompts } from './llm/prompts.js';
import { RootRecompactor } from './llm/root-recompact.js';
import { LlmSession } from './llm/session.js';
import { resolveLlmSettings } from './llm/settings.js';
import { FallbackSummarizer, LlmNodeSummarizer } from './llm/summarizer.js';
import type { Redactor } from '../redact/redactor.js';
import type { Summarizer } from './summarizer.js';

/** The model's side of a run, when an endpoint is configured. */
export interface LlmRuntime {
  session: LlmSession;
  nodes: LlmNodeSummarizer;
  /** null when ROOT is not among `llm.levels`. */
  root: RootRecompactor | null;
}

export interface SummarizerChoice {
  summarizer: Summarizer;
  llm: LlmRuntime | null;
  /** Why a configured endpoint is not used, if it is not. */
  warnings: string[];
}

export function selectSummarizers(
  ws: Workspace,
  config: HipoConfig,
  templates: TemplateSet,
  rules: ExclusionRules,
  redactor: Redactor,
  env: NodeJS.ProcessEnv,
  memo: SummaryMemo | null = null,
  /** Aborted when the owner stops: a model call in flight is abandoned (LlmSession). */
  signal: AbortSignal | null = null,
): SummarizerChoice {
  const extractive = new ExtractiveSummarizer(templates, rules, memo);
  const { settings, warnings } = resolveLlmSettings(config, env);
  if (!settings) return { summarizer: extractive, llm: null, warnings };
  const prompts = loadPrompts(ws.root);
  const session = LlmSession.open(ws, settings, signal);
  const nodes = new LlmNodeSummarizer(session, {
    prompts,
    templates,
    rules,
    redactor,
    tokenizer: config.compaction.tokenizer as TokenizerName,
    ephemeralMarkers: config.compaction.ephemeralMarkers,
    feedback: (req) => extractive.feedbackLines(req),
  });
  const root = settings.levels.has('root') ? new RootRecompactor(session, prompts, rules, redactor) : null;
  return { summarizer: new FallbackSummarizer(nodes, extractive), llm: { session, nodes, root }, warnings };
}
