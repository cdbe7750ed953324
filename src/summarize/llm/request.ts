// The messages sent for one node: the level's prompt (instructions, filled in) as the system
// message, the node's sources (excluded, fitted to the budget, redacted) as the user message.
// Pure: the same node, prompt and settings give the same messages, so the same cache key.
import { formatTopicTag, type TopicInfo } from '../../tree/topic.js';
import { renderTemplate } from '../../write/template.js';
import type { CountTokens } from '../../text/tokens.js';
import { DEFAULT_EPHEMERAL_MARKERS, type ExclusionRules } from '../exclusion.js';
import type { Redactor } from '../../redact/redactor.js';
import type { SourceDoc, SummaryRequest } from '../summarizer.js';
import type { ChatMessage } from './client.js';
import { evenParts, packParts, sourceUnits } from './parts.js';
import { applyExclusions, capAssistantTurns, fitSources } from './prepare.js';
import type { NodeShape, PromptName } from './prompts.js';

interface BuiltRequest {
  messages: ChatMessage[];
  /** Tokens of the messages as sent (hipo's count, cl100k/o200k). */
  tokensIn: number;
  condensed: string | null;
}

export interface RequestTools {
  prompt: (name: PromptName) => string;
  rules: ExclusionRules;
  redactor: Redactor;
  count: CountTokens;
  maxInputTokens: number;
  /** Requests one node may be split into when its sources do not fit one. */
  maxParts: number;
  ephemeralMarkers: readonly string[];
}

export function topicLines(topics: readonly TopicInfo[]): string {
  return topics.map((t) => `- ${formatTopicTag(t)}${t.keywords.length ? `: ${t.keywords.join(', ')}` : ''}`).join('\n');
}

const LEVEL_WORDS = { daily: 'raw log', weekly: 'daily node', monthly: 'weekly or daily node' } as const;

function renderSources(level: SummaryRequest['level'], title: string, sources: readonly SourceDoc[], part: string | null): string {
  const what = sources.length === 1 ? `1 ${LEVEL_WORDS[level]}` : `${sources.length} ${LEVEL_WORDS[level]}s`;
  const parts = [`Sources of the ${level} node ${title}${part ? `, ${part}` : ''} (${what}):`];
  for (const s of sources) parts.push(`===== ${s.label} (${s.path}) =====\n${s.text.trim()}\n===== end of ${s.label} =====`);
  if (part) parts.push(`This is ${part} of the node's sources; the parts are merged afterwards, so summarize only what is here.`);
  parts.push('Write the node body now: markdown only, the sections as instructed, starting with `## Topics`.');
  return parts.join('\n\n');
}

/** Tokens of a source's delimiters and the message's own lines, for packing parts. */
const SOURCE_OVERHEAD = 30;
const MESSAGE_OVERHEAD = 80;

export interface NodeRequests {
  /** One request, or one per part of a node too large for one. */
  requests: BuiltRequest[];
  tokensIn: number;
  condensed: string | null;
}

export function buildNodeRequests(req: SummaryRequest, shape: NodeShape, t: RequestTools): NodeRequests {
  const system = t.redactor.redact(
    renderTemplate(t.prompt(req.level), {
      title: req.title,
      level: req.level,
      today: req.today,
      sections: shape.sections.map((s) => `- ## ${s}`).join('\n'),
      topics: topicLines(req.topics) || '- (none found)',
      ephemeral: ephemeralList(t.ephemeralMarkers),
    }),
  ).text;
  const systemTokens = t.count(system);
  const budget = Math.max(200, t.maxInputTokens - systemTokens);
  const build = (sources: readonly SourceDoc[], part: string | null): BuiltRequest & { fitted: ReturnType<typeof fitSources> } => {
    const fitted = fitSources(sources, budget, t.count, (s) => renderSources(req.level, req.title, s, part));
    // Sources arrive redacted; the whole message is redacted again as it leaves, so nothing a
    // later edit to a prompt or template lets through can carry a secret out.
    const user = t.redactor.redact(renderSources(req.level, req.title, fitted.sources, part)).text;
    return {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      tokensIn: systemTokens + fitted.tokens,
      condensed: fitted.condensed,
      fitted,
    };
  };
  const prepared = req.sources.map((s) => ({ ...s, text: applyExclusions(s.text, t.rules) }));
  const whole = build(prepared, null);
  if (!whole.fitted.condensed?.startsWith('sources truncated') || t.maxParts <= 1)
    return { requests: [whole], tokensIn: whole.tokensIn, condensed: whole.condensed };

  // Too large for one request even with answers cut short: parts, rather than losing the end.
  const inParts = (parts: SourceDoc[][], how: string): NodeRequests => {
    const requests = parts.map((p, i) => build(p, `part ${i + 1} of ${parts.length}`));
    const cut = requests.some((r) => r.condensed?.startsWith('sources truncated'));
    return {
      requests,
      tokensIn: requests.reduce((n, r) => n + r.tokensIn, 0),
      condensed: `${parts.length} parts; ${how}${cut ? '; sources truncated to fit llm.maxInputTokens' : ''}`,
    };
  };
  for (const cap of [300, 120, 0]) {
    const units = sourceUnits(prepared.map((s) => ({ ...s, text: capAssistantTurns(s.text, cap) })));
    const parts = packParts(units, budget - MESSAGE_OVERHEAD, t.count, SOURCE_OVERHEAD, t.maxParts);
    if (parts) return inParts(parts, cap ? `assistant answers cut to ~${cap} characters` : 'assistant answers left out');
  }
  const units = sourceUnits(prepared.map((s) => ({ ...s, text: capAssistantTurns(s.text, 0) })));
  return inParts(evenParts(units, t.maxParts), 'assistant answers left out');
}

export function ephemeralList(extra: readonly string[]): string {
  const all = [...DEFAULT_EPHEMERAL_MARKERS, ...extra];
  return [...new Set(all)].map((m) => `"${m}"`).join(', ');
}
