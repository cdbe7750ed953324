// Node summaries by the model, with the extractive summarizer as the per-node fallback. The
// wrapper implements the `Summarizer` interface, so the executor does not know which one wrote
// a node except by the result: `summarizer: llm:<model>` with usage, or `summarizer: extractive`
// with a `fallbackReason` (and the node stays eligible for a model pass later).
import { nodeKey } from '../../tree/layout.js';
import type { TemplateSet } from '../../write/template.js';
import { renderTemplate } from '../../write/template.js';
import { loadTokenCounter, type CountTokens, type TokenizerName } from '../../text/tokens.js';
import type { ExclusionRules } from '../exclusion.js';
import type { ExtractiveSummarizer } from '../extractive.js';
import type { Redactor } from '../../redact/redactor.js';
import type { Summarizer, SummaryRequest, SummaryResult, SummaryUsage } from '../summarizer.js';
import { nodeShape, type PromptSet } from './prompts.js';
import { buildNodeRequests, type NodeRequests } from './request.js';
import type { LlmSession } from './session.js';
import { llmSummarizerId } from './settings.js';
import { checkNodeAnswer, composeNodeBody, type NodeAnswer } from './validate.js';

export interface LlmTools {
  prompts: PromptSet;
  templates: TemplateSet;
  rules: ExclusionRules;
  redactor: Redactor;
  tokenizer: TokenizerName;
  ephemeralMarkers: readonly string[];
  /** The node's feedback lines as the extractive summarizer finds them (validate.ts `NodeFrame`). */
  feedback: (req: SummaryRequest) => string[];
}

/**
 * An answer may be this many times `llm.maxOutputTokens` by hipo's tokenizer (the model's may
 * count a little differently); a longer one is not an answer to the request (a server that
 * ignores max_tokens, an echo of the input) and is refused, whatever its sections hold.
 */
const ANSWER_SLACK = 1.5;

export type LlmNodeOutcome = { ok: true; result: SummaryResult } | { ok: false; reason: string; usage?: SummaryUsage };

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

  /** The requests a node would send (also what `--dry-run` counts). */
  async requests(req: SummaryRequest): Promise<NodeRequests> {
    const count = await this.counter();
    return buildNodeRequests(req, nodeShape(this.tools.templates.get(req.level)), {
      prompt: (n) => this.tools.prompts.get(n),
      rules: this.tools.rules,
      redactor: this.tools.redactor,
      count,
      maxInputTokens: this.session.settings.maxInputTokens,
      maxParts: this.session.settings.maxPartsPerNode,
      ephemeralMarkers: this.tools.ephemeralMarkers,
    });
  }

  async summarize(req: SummaryRequest): Promise<LlmNodeOutcome> {
    const s = this.session.settings;
    const count = await this.counter();
    const planned = await this.requests(req);
    const key = nodeKey(req.period);
    const state = this.session.state;
    const failedInput = (reason: string): void => {
      // The same input would get the same answer: not planned again until it changes.
      state.clearOwed(key);
      if (req.sourceHash)
        state.recordFailedInput(key, { sourceHash: req.sourceHash, model: s.model, reason, at: new Date().toISOString() });
    };
    let usage: SummaryUsage | undefined;
    const answers: NodeAnswer[] = [];
    const shape = nodeShape(this.tools.templates.get(req.level));
    for (const [i, built] of planned.requests.entries()) {
      const part = planned.requests.length > 1 ? `part ${i + 1} of ${planned.requests.length}: ` : '';
      const outcome = await this.session.ask(built.messages);
      if (!outcome.ok) {
        if (outcome.scope === 'input') failedInput(`${part}${outcome.reason}`);
        // Not asked or not reached (call limit, endpoint down, the run stopping): the node is owed its pass, fixed or not.
        else if (req.sourceHash) state.recordOwed(key, req.sourceHash);
        // A failed call is journaled with its latency; no tokens are counted (none were reported).
        if (outcome.scope !== 'skipped')
          usage = addUsage(usage, { model: s.model, tokensIn: 0, tokensOut: 0, latencyMs: outcome.latencyMs });
        return { ok: false, reason: `llm: ${part}${outcome.reason}`, ...(usage ? { usage } : {}) };
      }
      const a = outcome.answer;
      const answerTokens = count(a.text);
      usage = addUsage(
        usage,
        outcome.cached
          ? { model: a.model, tokensIn: 0, tokensOut: 0, latencyMs: 0, cached: true }
          : { model: a.model, tokensIn: a.tokensIn ?? built.tokensIn, tokensOut: a.tokensOut ?? answerTokens, latencyMs: a.latencyMs },
      );
      const checked =
        answerTokens > s.maxOutputTokens * ANSWER_SLACK
          ? { ok: false as const, reason: `the answer is ${answerTokens} tokens, far over llm.maxOutputTokens (${s.maxOutputTokens})` }
          : checkNodeAnswer(a.text, a.finishReason, req.topics.length, shape.sections);
      if (!checked.ok) {
        failedInput(`${part}${checked.reason}`);
        return { ok: false, reason: `llm: invalid output: ${part}${checked.reason}`, ...(usage ? { usage } : {}) };
      }
      answers.push(checked.value);
    }
    const title = renderTemplate(shape.titleLine, { title: req.title }).trim();
    const body = composeNodeBody(answers, title, req.topics, { sections: shape.sections, feedback: this.tools.feedback(req) });
    if (!body.ok) {
      failedInput(body.reason);
      return { ok: false, reason: `llm: invalid output: ${body.reason}`, ...(usage ? { usage } : {}) };
    }
    state.clearFailedInput(key);
    state.clearOwed(key);
    return { ok: true, result: { body: body.value, summarizer: llmSummarizerId(s.model), ...(usage ? { usage } : {}) } };
  }
}

/** Usage of several calls for one node: tokens and latency summed; cached only if all were. */
export function addUsage(a: SummaryUsage | undefined, b: SummaryUsage): SummaryUsage {
  if (!a) return b;
  return {
    model: b.model,
    tokensIn: a.tokensIn + b.tokensIn,
    tokensOut: a.tokensOut + b.tokensOut,
    latencyMs: a.latencyMs + b.latencyMs,
    ...(a.cached && b.cached ? { cached: true } : {}),
  };
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
