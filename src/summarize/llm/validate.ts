// Checking a model's answer before anything is written. Invalid output never reaches a node:
// the caller falls back to the extractive summarizer instead.
//   cut off (finish_reason `length`), empty, or no markdown sections (a refusal, JSON, prose);
//   no `## Topics` section with at least one topic, or nothing besides it;
//   under 50 bytes once composed.
// What is cleaned rather than refused: control characters (one NUL makes a node binary to every
// reader), reasoning (`<think>…</think>`), a code fence around the whole answer, frontmatter
// (hipo writes frontmatter, never the model), a preamble before the first heading, the model's
// own title (hipo writes the title), code blocks and stack traces (the exclusion rules hold for
// output too).
import { splitFrontmatter } from '../../tree/frontmatter.js';
import { scanBlocks, splitLines } from '../../tree/markdown.js';
import { parseTopicLine, type TopicInfo } from '../../tree/topic.js';
import { withoutControls } from '../../text/controls.js';
import { isStackTraceLine } from '../exclusion.js';
import { topicLines } from './request.js';

const MIN_BODY_BYTES = 50;

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

interface Section {
  heading: string;
  /** Lines under the heading, up to the next `##` (deeper headings included). */
  lines: string[];
}

/** The answer without reasoning, wrapping fence, frontmatter or preamble. */
export function cleanAnswer(text: string): string {
  let t = withoutControls(text);
  t = t.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '').trim();
  const fenced = /^(```|~~~)[\w-]*\n([\s\S]*?)\n\1\s*$/.exec(t);
  if (fenced) t = fenced[2]!.trim();
  const doc = splitFrontmatter(t);
  if (doc.data || doc.error) t = doc.body.trim();
  const lines = splitLines(t);
  const first = lines.findIndex((l) => /^#{1,6}\s/.test(l));
  return (first > 0 ? lines.slice(first) : lines).join('\n').trim();
}

/**
 * Splits at `##` headings (outside code); text before the first one is returned apart. A model
 * that wrote its sections one level off (`#` or `###` throughout, no `##`) is read the same way.
 */
function sections(text: string): { head: string[]; list: Section[] } {
  const lines = splitLines(text);
  const headings = scanBlocks(lines).filter(
    (b): b is Extract<ReturnType<typeof scanBlocks>[number], { kind: 'heading' }> => b.kind === 'heading',
  );
  const depths = new Set(headings.map((h) => h.depth));
  const depth = depths.has(2) || depths.size === 0 ? 2 : depths.has(3) ? 3 : Math.min(...depths);
  const h2 = new Map<number, string>();
  for (const b of headings) if (b.depth === depth) h2.set(b.line, b.text.trim());
  const head: string[] = [];
  const list: Section[] = [];
  lines.forEach((line, i) => {
    const h = h2.get(i + 1);
    if (h !== undefined) list.push({ heading: h, lines: [] });
    else if (list.length) list[list.length - 1]!.lines.push(line);
    else head.push(line);
  });
  return { head, list };
}

/** Code blocks and stack-trace lines out of a section's lines. */
function excludeCode(lines: readonly string[]): string[] {
  const blocks = scanBlocks(lines as string[]);
  const drop = new Set<number>();
  for (const b of blocks) if (b.kind === 'code') for (let l = b.line; l <= b.endLine; l++) drop.add(l - 1);
  return lines.filter((l, i) => !drop.has(i) && !isStackTraceLine(l));
}

function hasContent(lines: readonly string[]): boolean {
  return lines.some((l) => l.trim() !== '' && !/^\s*[-*+]?\s*\(?(none|n\/a|nothing)\)?\.?\s*$/i.test(l));
}

function truncated(finishReason: string | null): string | null {
  return finishReason === 'length' ? 'the answer was cut off at llm.maxOutputTokens' : null;
}

type ModelTopic = NonNullable<ReturnType<typeof parseTopicLine>>;

/** A model answer that passed the checks: its topic lines and its other sections. */
export interface NodeAnswer {
  topics: ModelTopic[];
  sections: { heading: string; lines: string[] }[];
}

/** Checks one answer for a node (or for a part of one). */
export function checkNodeAnswer(answer: string, finishReason: string | null, hipoTopics: number): Checked<NodeAnswer> {
  const cut = truncated(finishReason);
  if (cut) return { ok: false, reason: cut };
  const text = cleanAnswer(answer);
  if (!text) return { ok: false, reason: 'empty answer' };
  const { list } = sections(text);
  if (list.length === 0) return { ok: false, reason: 'no markdown sections in the answer' };
  const topicSec = list.find((s) => /^topics$/i.test(s.heading));
  if (!topicSec) return { ok: false, reason: 'no `## Topics` section' };
  const modelTopics = topicSec.lines.map((l) => (/^\s*[-*+]\s/.test(l) ? parseTopicLine(l) : null)).filter((t) => t !== null);
  if (modelTopics.length === 0 && hipoTopics === 0) return { ok: false, reason: '`## Topics` lists no topic' };
  const rest = list.filter((s) => !/^topics$/i.test(s.heading)).map((s) => ({ heading: s.heading, lines: excludeCode(s.lines) }));
  const filled = rest.filter((s) => hasContent(s.lines));
  if (filled.length === 0) return { ok: false, reason: 'nothing besides `## Topics`' };
  return { ok: true, value: { topics: modelTopics, sections: filled } };
}

/**
 * A node body from one or more checked answers (the parts of a node too large for one request,
 * in order): hipo's title, hipo's topics (names and types from the frontmatter, sub-keywords
 * merged with the model's), then the model's sections, same headings merged, repeated lines once.
 */
export function composeNodeBody(answers: readonly NodeAnswer[], title: string, topics: readonly TopicInfo[]): Checked<string> {
  const merged = new Map<string, { heading: string; lines: string[]; seen: Set<string> }>();
  for (const a of answers) {
    for (const sec of a.sections) {
      const key = sec.heading.toLowerCase();
      let m = merged.get(key);
      if (!m) merged.set(key, (m = { heading: sec.heading, lines: [], seen: new Set() }));
      for (const line of trimBlank(sec.lines)) {
        const k = line.trim().toLowerCase();
        if (k && /^\s*[-*+]\s/.test(line) && m.seen.has(k)) continue;
        m.seen.add(k);
        m.lines.push(line);
      }
    }
  }
  const parts = [
    title,
    `## Topics\n${mergeTopicLines(
      topics,
      answers.flatMap((a) => a.topics),
    )}`,
  ];
  for (const m of merged.values()) parts.push(`## ${m.heading}\n${m.lines.join('\n').trim()}`);
  const body = `${parts
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
  if (Buffer.byteLength(body) < MIN_BODY_BYTES) return { ok: false, reason: `answer too short (${Buffer.byteLength(body)} bytes)` };
  return { ok: true, value: body };
}

function trimBlank(lines: readonly string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && !lines[a]!.trim()) a++;
  while (b > a && !lines[b - 1]!.trim()) b--;
  return lines.slice(a, b);
}

/** One answer, checked and composed. */
export function validateNodeAnswer(
  answer: string,
  finishReason: string | null,
  title: string,
  topics: readonly TopicInfo[],
): Checked<string> {
  const checked = checkNodeAnswer(answer, finishReason, topics.length);
  return checked.ok ? composeNodeBody([checked.value], title, topics) : checked;
}

/** hipo's topics first (their names and types are the frontmatter's), then the model's extras. */
function mergeTopicLines(topics: readonly TopicInfo[], model: readonly ModelTopic[]): string {
  // The same topic from several parts of a node: one line, sub-keywords together.
  const byName = new Map<string, ModelTopic>();
  for (const m of model) {
    const cur = byName.get(m.name);
    byName.set(m.name, cur ? { ...cur, keywords: [...new Set([...cur.keywords, ...m.keywords])] } : m);
  }
  const merged = topics.map((t) => ({
    ...t,
    keywords: [...new Set([...(byName.get(t.name)?.keywords ?? []), ...t.keywords])].slice(0, 8),
  }));
  const known = new Set(topics.map((t) => t.name));
  const extra = [...byName.values()]
    .filter((m) => !known.has(m.name))
    .map((m) => `- ${m.name} [${m.type}]${m.keywords.length ? `: ${m.keywords.slice(0, 8).join(', ')}` : ''}`);
  return [topicLines(merged), ...extra].filter(Boolean).join('\n');
}

export interface RootNarrative {
  active: string;
  patterns: string;
  history: string;
}

const NARRATIVE_SECTIONS: readonly [keyof RootNarrative, RegExp, string][] = [
  ['active', /^active context\b/i, 'Active Context'],
  ['patterns', /^recent patterns\b/i, 'Recent Patterns'],
  ['history', /^historical summary\b/i, 'Historical Summary'],
];

/** ROOT's three narrative sections from an answer (or from an existing ROOT.md body). */
export function parseNarrative(text: string): Checked<RootNarrative> {
  const { list } = sections(cleanAnswer(text));
  const out: Partial<RootNarrative> = {};
  for (const [key, re, name] of NARRATIVE_SECTIONS) {
    const s = list.find((x) => re.test(x.heading));
    if (!s) return { ok: false, reason: `no \`## ${name}\` section` };
    const lines = excludeCode(s.lines);
    if (!lines.some((l) => l.trim())) return { ok: false, reason: `\`## ${name}\` is empty` };
    out[key] = lines.join('\n').trim();
  }
  return { ok: true, value: out as RootNarrative };
}

export function validateRootAnswer(answer: string, finishReason: string | null): Checked<RootNarrative> {
  const cut = truncated(finishReason);
  if (cut) return { ok: false, reason: cut };
  if (!cleanAnswer(answer)) return { ok: false, reason: 'empty answer' };
  return parseNarrative(answer);
}

/** The `## Topics Index` section's lines of a ROOT body hipo built. */
function topicsIndexLines(rootBody: string): string {
  return sectionLines(rootBody, /^topics index\b|^topics$/i);
}

/** The lines of the ROOT section whose heading matches (sub-headings included), or ''. */
function sectionLines(rootBody: string, heading: RegExp): string {
  const { list } = sections(rootBody);
  const s = list.find((x) => heading.test(x.heading));
  return s ? s.lines.join('\n').trim() : '';
}

/** The sections hipo keeps deterministic in a model-written ROOT: Profile, Rules, Topics Index. */
export interface KeptRootSections {
  profile: string;
  rules: string;
  topics: string;
}

export function keptRootSections(rootBody: string): KeptRootSections {
  return { profile: sectionLines(rootBody, /^profile\b/i), rules: sectionLines(rootBody, /^rules\b/i), topics: topicsIndexLines(rootBody) };
}
