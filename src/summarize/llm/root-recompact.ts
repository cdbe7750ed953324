// ROOT by the model: the spec's `recompact(existing root, changed monthly)`.
// The work is split: the model rewrites the three narrative sections (Active Context, Recent
// Patterns, Historical Summary) from the current ROOT's and the monthly nodes that changed
// since; hipo keeps the Topics Index deterministic (ages from stored last-seen dates, `?` on
// stale references, user/feedback topics never dropped), exactly as the extractive ROOT has it.
// Then:
//   the narrative gets the tokens the index leaves under `rootMaxTokens`; an answer over that
//   is sent back once to be compressed (Historical Summary first); still over, or invalid,
//   or no answer: the extractive ROOT is written instead;
//   while the monthly nodes are what the last model-written narrative was made from, ROOT is
//   re-dated (ages, index) around that narrative without a call.
import type { CompactionConfig } from '../../config/config.js';
import type { LocalDate } from '../../time/calendar.js';
import { renderTemplate } from '../../write/template.js';
import type { CountTokens } from '../../text/tokens.js';
import type { ExclusionRules } from '../exclusion.js';
import type { Redactor } from '../../redact/redactor.js';
import type { SourceDoc, SummaryUsage } from '../summarizer.js';
import type { ChatMessage } from './client.js';
import { applyExclusions, fitSources } from './prepare.js';
import type { PromptSet } from './prompts.js';
import { ephemeralList } from './request.js';
import type { LlmSession } from './session.js';
import { llmSummarizerId } from './settings.js';
import { addUsage } from './summarizer.js';
import { isLastActiveLine, withoutLastActive } from '../../tree/last-active.js';
import { keptRootSections, parseNarrative, validateRootAnswer, type KeptRootSections, type RootNarrative } from './validate.js';

/** Changed monthly nodes sent per recompaction, most recent first; older ones are in ROOT already. */
const MAX_CHANGED_MONTHS = 3;
/** Below this many tokens for the narrative, the model is not asked. */
const MIN_NARRATIVE_TOKENS = 150;

export interface RootRecompactInput {
  today: LocalDate;
  /** ROOT's source hash this cycle: a failed input is not retried until it changes. */
  sourceHash: string;
  /** The ROOT.md on disk (body redacted) and how it was written, if there is one. */
  existing: { body: string; summarizer: string | null } | null;
  /** Every monthly node, oldest first, with its body hash. */
  months: readonly { month: string; bodyHash: string }[];
  /** Reads a monthly node's body (redacted). */
  readMonthly: (month: string) => SourceDoc | null;
  /** The extractive ROOT body, already under the cap: its Topics Index is the one kept. */
  extractive: string;
  template: string;
  config: CompactionConfig;
  count: CountTokens;
  /** ROOT.md's frontmatter: `rootMaxTokens` caps the file, the body gets what it leaves. */
  frontmatterTokens?: number;
}

export type RootRecompactResult =
  | { ok: true; body: string; tokens: number; summarizer: string; usage?: SummaryUsage; reused: boolean }
  | { ok: false; reason: string; usage?: SummaryUsage };

export interface RootRequest {
  messages: ChatMessage[];
  tokensIn: number;
  budget: number;
  changed: string[];
}

/** ROOT.md's tokens with `composed` as its body: the body's and its frontmatter's. */
function fileTokens(input: RootRecompactInput, composed: { tokens: number }): number {
  return composed.tokens + (input.frontmatterTokens ?? 0);
}

/** The last-active line of a ROOT body, if it has one. */
function lastActiveIn(body: string): string | null {
  return body.split('\n').find(isLastActiveLine) ?? null;
}

export class RootRecompactor {
  constructor(
    readonly session: LlmSession,
    private readonly prompts: PromptSet,
    private readonly rules: ExclusionRules,
    private readonly redactor: Redactor,
  ) {}

  private compose(input: RootRecompactInput, n: RootNarrative, kept: KeptRootSections): { body: string; tokens: number } {
    // The Active Context's date line is hipo's, as in the extractive ROOT built today: not a
    // model's copy of the one it was shown, nor the one of a reused narrative's day.
    const active = withoutLastActive(n.active).trim();
    const dated = lastActiveIn(input.extractive);
    const body = renderTemplate(input.template, {
      activeDays: String(input.config.activeContextDays),
      ...n,
      active: dated ? [dated, active].filter(Boolean).join('\n') : active,
      profile: kept.profile,
      rules: kept.rules,
      topics: kept.topics || '- (none yet)',
    });
    return { body, tokens: input.count(body) };
  }

  /** Tokens the narrative may use: the cap less the frontmatter, template and sections hipo keeps. */
  budget(input: RootRecompactInput, index: KeptRootSections): number {
    const frame = fileTokens(input, this.compose(input, { active: '', patterns: '', history: '' }, index));
    return Math.min(input.config.rootMaxTokens - frame - 12, Math.floor(this.session.settings.maxOutputTokens * 0.9));
  }

  /** True when the narrative on disk was made by the model from today's monthly nodes. */
  reusable(input: RootRecompactInput): boolean {
    const mem = this.session.state.root;
    if (!input.existing?.summarizer?.startsWith('llm:') || !mem) return false;
    const known = Object.keys(mem.months);
    return known.length === input.months.length && input.months.every((m) => mem.months[m.month] === m.bodyHash);
  }

  private changedMonths(input: RootRecompactInput): string[] {
    const mem = this.session.state.root?.months ?? {};
    const changed = input.months.filter((m) => mem[m.month] !== m.bodyHash).map((m) => m.month);
    const pick = changed.length ? changed : input.months.map((m) => m.month);
    return pick.slice(-MAX_CHANGED_MONTHS);
  }

  /** The request a recompaction would send (also what `--dry-run` counts). */
  request(input: RootRecompactInput): RootRequest | { skip: string } {
    const index = keptRootSections(input.extractive);
    const budget = this.budget(input, index);
    if (budget < MIN_NARRATIVE_TOKENS)
      return {
        skip: `no room for a narrative under rootMaxTokens ${input.config.rootMaxTokens} (the Profile, Rules and Topics Index take the rest)`,
      };
    const current = input.existing ? parseNarrative(input.existing.body) : null;
    const built = parseNarrative(input.extractive);
    const shown: RootNarrative | null = current?.ok ? current.value : built.ok ? built.value : null;
    // The date line is added back to the answer (compose): the model is not asked to keep it.
    const narrative = shown && { ...shown, active: withoutLastActive(shown.active).trim() || '- (none yet)' };
    const changed = this.changedMonths(input);
    const sources = changed
      .map((m) => input.readMonthly(m))
      .filter((s): s is SourceDoc => s !== null)
      .map((s) => ({ ...s, text: applyExclusions(s.text, this.rules) }));
    const system = renderTemplate(this.prompts.get('root-recompact'), {
      today: input.today,
      maxTokens: String(budget),
      activeDays: String(input.config.activeContextDays),
      ephemeral: ephemeralList(input.config.ephemeralMarkers),
    });
    const head = [
      `Today is ${input.today}.`,
      `===== Current ROOT.md: its narrative sections =====\n## Active Context\n${narrative?.active ?? '- (none yet)'}\n\n## Recent Patterns\n${narrative?.patterns ?? '- (none yet)'}\n\n## Historical Summary\n${narrative?.history ?? '- (none yet)'}\n===== end of ROOT.md =====`,
      `===== Profile and Rules (kept by hipo: for reference, do not write them) =====\n## Profile\n${index.profile || '- (none yet)'}\n\n## Rules\n${index.rules || '- (none yet)'}\n===== end of Profile and Rules =====`,
      `===== Topics Index (kept by hipo: for reference, do not write it) =====\n${index.topics || '- (none yet)'}\n===== end of Topics Index =====`,
    ].join('\n\n');
    const tail = `Write the three sections now: \`## Active Context\`, \`## Recent Patterns\`, \`## Historical Summary\`, in at most ${budget} tokens together.`;
    const render = (s: readonly SourceDoc[]): string =>
      [
        head,
        ...s.map((d) => `===== Changed monthly node ${d.label} (${d.path}) =====\n${d.text.trim()}\n===== end of ${d.label} =====`),
        tail,
      ].join('\n\n');
    const room = Math.max(200, this.session.settings.maxInputTokens - input.count(system));
    const fitted = fitSources(sources, room, input.count, render);
    const messages: ChatMessage[] = [
      { role: 'system', content: this.redactor.redact(system).text },
      { role: 'user', content: this.redactor.redact(render(fitted.sources)).text },
    ];
    return { messages, tokensIn: input.count(messages[0]!.content) + fitted.tokens, budget, changed };
  }

  async recompact(input: RootRecompactInput): Promise<RootRecompactResult> {
    const s = this.session.settings;
    const id = llmSummarizerId(s.model);
    const index = keptRootSections(input.extractive);
    if (this.reusable(input)) {
      const n = parseNarrative(input.existing!.body);
      if (n.ok) {
        const composed = this.compose(input, n.value, index);
        if (fileTokens(input, composed) <= input.config.rootMaxTokens)
          return { ok: true, ...composed, summarizer: input.existing!.summarizer ?? id, reused: true };
      }
    }
    let usage: SummaryUsage | undefined;
    const addCall = (
      a: { model: string; tokensIn: number | null; tokensOut: number | null; latencyMs: number; text: string },
      sent: number,
      cached: boolean,
    ): void => {
      usage = addUsage(
        usage,
        cached
          ? { model: a.model, tokensIn: 0, tokensOut: 0, latencyMs: 0, cached: true }
          : { model: a.model, tokensIn: a.tokensIn ?? sent, tokensOut: a.tokensOut ?? input.count(a.text), latencyMs: a.latencyMs },
      );
    };
    const fail = (reason: string, latencyMs = 0, inputFault = true): RootRecompactResult => {
      if (!usage && latencyMs) usage = { model: s.model, tokensIn: 0, tokensOut: 0, latencyMs };
      if (inputFault)
        this.session.state.recordFailedInput('root:root', {
          sourceHash: input.sourceHash,
          model: s.model,
          reason,
          at: new Date().toISOString(),
        });
      return { ok: false, reason: `llm: ${reason}`, ...(usage ? { usage } : {}) };
    };
    const req = this.request(input);
    // Deterministic for this input (ROOT's source hash changes daily): not planned again today.
    if ('skip' in req) return fail(req.skip);

    const first = await this.session.ask(req.messages);
    if (!first.ok) return fail(first.reason, first.latencyMs, first.scope === 'input');
    addCall(first.answer, req.tokensIn, first.cached);
    const checked = validateRootAnswer(first.answer.text, first.answer.finishReason);
    if (!checked.ok) return fail(`invalid output: ${checked.reason}`);
    let composed = this.compose(input, checked.value, index);
    const cap = input.config.rootMaxTokens;
    const total = fileTokens(input, composed);
    if (total > cap) {
      // One self-compress retry: the model sees its answer and the numbers.
      const over = total - cap;
      const retry: ChatMessage[] = [
        ...req.messages,
        { role: 'assistant', content: first.answer.text },
        {
          role: 'user',
          content:
            `That makes ROOT.md ${total} tokens, ${over} over its cap of ${cap}. ` +
            `Rewrite the three sections in at most ${Math.max(MIN_NARRATIVE_TOKENS, req.budget - over)} tokens together: ` +
            'compress the Historical Summary first (merge periods, drop detail), ' +
            'keep Active Context and every user fact and feedback rule.',
        },
      ];
      const second = await this.session.ask(retry);
      if (!second.ok)
        return fail(
          `over rootMaxTokens (${total} > ${cap}) and the compress retry failed: ${second.reason}`,
          second.latencyMs,
          second.scope === 'input',
        );
      addCall(second.answer, input.count(retry.map((m) => m.content).join('\n')), second.cached);
      const again = validateRootAnswer(second.answer.text, second.answer.finishReason);
      if (!again.ok) return fail(`invalid output on the compress retry: ${again.reason}`);
      composed = this.compose(input, again.value, index);
      const still = fileTokens(input, composed);
      if (still > cap) return fail(`ROOT.md still over rootMaxTokens after one compress retry (${still} > ${cap})`);
    }
    this.session.state.clearFailedInput('root:root');
    this.session.state.recordRoot({ model: s.model, months: Object.fromEntries(input.months.map((m) => [m.month, m.bodyHash])) });
    return { ok: true, ...composed, summarizer: id, ...(usage ? { usage } : {}), reused: false };
  }
}
