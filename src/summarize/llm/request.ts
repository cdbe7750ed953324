// The messages sent for one node: the level's prompt (instructions, filled in) as the system
// message, the node's sources (excluded, fitted to the budget, redacted) as the user message.
// Pure: the same node, prompt and settings give the same messages, so the same cache key.
import { formatTopicTag, type TopicInfo } from '../../tree/topic.js';
import { renderTemplate } from '../../write/template.js';
import type { CountTokens } from '../../write/tokens.js';
import { DEFAULT_EPHEMERAL_MARKERS, type ExclusionRules } from '../exclusion.js';
import type { Redactor } from '../redact.js';
import type { SourceDoc, SummaryRequest } from '../summarizer.js';
import type { ChatMessage } from './client.js';
import { applyExclusions, fitSources } from './prepare.js';
import type { NodeShape, PromptName } from './prompts.js';

export interface BuiltRequest {
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
  ephemeralMarkers: readonly string[];
}

export function topicLines(topics: readonly TopicInfo[]): string {
  return topics.map((t) => `- ${formatTopicTag(t)}${t.keywords.length ? `: ${t.keywords.join(', ')}` : ''}`).join('\n');
}

const LEVEL_WORDS = { daily: 'raw log', weekly: 'daily node', monthly: 'weekly or daily node' } as const;

function renderSources(level: SummaryRequest['level'], title: string, sources: readonly SourceDoc[]): string {
  const what = sources.length === 1 ? `1 ${LEVEL_WORDS[level]}` : `${sources.length} ${LEVEL_WORDS[level]}s`;
  const parts = [`Sources of the ${level} node ${title} (${what}):`];
  for (const s of sources) parts.push(`===== ${s.label} (${s.path}) =====\n${s.text.trim()}\n===== end of ${s.label} =====`);
  parts.push('Write the node body now: markdown only, the sections as instructed, starting with `## Topics`.');
  return parts.join('\n\n');
}

export function buildNodeRequest(req: SummaryRequest, shape: NodeShape, t: RequestTools): BuiltRequest {
  const system = renderTemplate(t.prompt(req.level), {
    title: req.title,
    level: req.level,
    today: req.today,
    sections: shape.sections.map((s) => `- ## ${s}`).join('\n'),
    topics: topicLines(req.topics) || '- (none found)',
    ephemeral: ephemeralList(t.ephemeralMarkers),
  });
  const prepared = req.sources.map((s) => ({ ...s, text: applyExclusions(s.text, t.rules) }));
  const budget = Math.max(200, t.maxInputTokens - t.count(system));
  const fitted = fitSources(prepared, budget, t.count, (s) => renderSources(req.level, req.title, s));
  // Sources arrive redacted; the whole message is redacted again as it leaves, so nothing a
  // later edit to a prompt or template lets through can carry a secret out.
  const user = t.redactor.redact(renderSources(req.level, req.title, fitted.sources)).text;
  const messages: ChatMessage[] = [
    { role: 'system', content: t.redactor.redact(system).text },
    { role: 'user', content: user },
  ];
  return { messages, tokensIn: t.count(messages[0]!.content) + fitted.tokens, condensed: fitted.condensed };
}

export function ephemeralList(extra: readonly string[]): string {
  const all = [...DEFAULT_EPHEMERAL_MARKERS, ...extra];
  return [...new Set(all)].map((m) => `"${m}"`).join(', ');
}
