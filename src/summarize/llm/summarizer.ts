// Node summaries by the model, with the extractive summarizer as the per-node fallback. The
// wrapper implements the `Summarizer` interface, so the executor does not know which one wrote
// a node except by the result: `summarizer: llm:<model>` with usage, or `summarizer: extractive`
// with a `fallbackReason` (and the node stays eligible for a model pass later).
import { nodeKey } from '../../tree/layout.js';
import type { TemplateSet } from '../../write/template.js';
import { renderTemplate } from '../../write/template.js';
import { loadTokenCounter, type CountTokens, type TokenizerName } from '../../write/tokens.js';
import type { ExclusionRules } from '../exclusion.js';
import type { ExtractiveSummarizer } from '../extractive.js';
import type { Redactor } from '../redact.js';
import type { Summarizer, SummaryRequest, SummaryResult, SummaryUsage } from '../summarizer.js';
import { nodeShape, type PromptSet } from './prompts.js';
import { buildNodeRequest, type BuiltRequest } from './request.js';
import type { LlmSession } from './session.js';
import { llmSummarizerId } from './settings.js';
import { validateNodeAnswer } from './validate.js';

export interface LlmTools {
  prompts: PromptSet;
  templates: TemplateSet;
  rules: ExclusionRules;
  redactor: Redactor;
  tokenizer: TokenizerName;
  ephemeralMarkers: readonly string[];
}

export type LlmNodeOutcome =
  | { ok: true; result: SummaryResult }
  | { ok: false; reason: string; usage?: SummaryUsage };

export class LlmNodeSummarizer {
  private count: CountTokens | null = null;

  constructor(
    readonly session: LlmSession,
    private readonly tools: LlmTools,
  ) {}

  async counter(): Promise<CountTokens> {
    this.count ??= await loadTokenCounter(this.tools.tokenizer);
    return this.count;
  }

  /** The request a node would send (also what `--dry-run` counts). */
  async request(req: SummaryRequest): Promise<BuiltRequest> {
    const count = await this.counter();
    return buildNodeRequest(req, nodeShape(this.tools.templates.get(req.level)), {
      prompt: (n) => this.tools.prompts.get(n),
      rules: this.tools.rules,
      redactor: this.tools.redactor,
      count,
      maxInputTokens: this.session.settings.maxInputTokens,
      ephemeralMarkers: this.tools.ephemeralMarkers,
    });
  }

  async summarize(req: SummaryRequest): Promise<LlmNodeOutcome> {
    const s = this.session.settings;
    const built = await this.request(req);
    const outcome = await this.session.ask(built.messages);
    const key = nodeKey(req.period);
    if (!outcome.ok) {
      if (outcome.scope === 'input' && req.sourceHash) this.session.state.recordFailedInput(key, { sourceHash: req.sourceHash, model: s.model, reason: outcome.reason, at: new Date().toISOString() });
      // A failed call is journaled with its latency; no tokens are counted (none were reported).
      const usage = outcome.scope === 'skipped' ? undefined : { model: s.model, tokensIn: 0, tokensOut: 0, latencyMs: outcome.latencyMs };
      return { ok: false, reason: `llm: ${outcome.reason}`, ...(usage ? { usage } : {}) };
    }
    const a = outcome.answer;
    const usage: SummaryUsage = outcome.cached
      ? { model: a.model, tokensIn: 0, tokensOut: 0, latencyMs: 0, cached: true }
      : { model: a.model, tokensIn: a.tokensIn ?? built.tokensIn, tokensOut: a.tokensOut ?? (await this.counter())(a.text), latencyMs: a.latencyMs };
    const title = renderTemplate(nodeShape(this.tools.templates.get(req.level)).titleLine, { title: req.title }).trim();
    const checked = validateNodeAnswer(a.text, a.finishReason, title, req.topics);
    if (!checked.ok) {
      // The same input would get the same answer: not planned again until it changes.
      if (req.sourceHash) this.session.state.recordFailedInput(key, { sourceHash: req.sourceHash, model: s.model, reason: checked.reason, at: new Date().toISOString() });
      return { ok: false, reason: `llm: invalid output: ${checked.reason}`, usage };
    }
    this.session.state.clearFailedInput(key);
    return { ok: true, result: { body: checked.value, summarizer: llmSummarizerId(s.model), usage } };
  }
}

/** The model where it is configured and able, the extractive summarizer everywhere else. */
export class FallbackSummarizer implements Summarizer {
  readonly id: string;

  constructor(
    readonly llm: LlmNodeSummarizer,
    private readonly extractive: ExtractiveSummarizer,
  ) {
    this.id = llmSummarizerId(llm.session.settings.model);
  }

  async summarize(req: SummaryRequest): Promise<SummaryResult> {
    if (!this.llm.session.settings.levels.has(req.level)) return this.extractive.summarize(req);
    const r = await this.llm.summarize(req);
    if (r.ok) return r.result;
    const fallback = await this.extractive.summarize(req);
    return { ...fallback, summarizer: this.extractive.id, fallbackReason: r.reason, ...(r.usage ? { usage: r.usage } : {}) };
  }
}
