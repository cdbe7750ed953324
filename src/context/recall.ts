// `hipo recall "question"`: the three-step recall.
//   1. ROOT's Topics Index: which topics the question is about, and where each was last seen.
//   2. The manifest of node frontmatter: which months, then which days, list those topics.
//   3. Search: the passages of those days ranked against the question, fused (reciprocal rank)
//      with a search over the whole tree when a search index is available.
// Returns ranked passages with their file and line range, as many as fit the token budget.
import { addDays, type LocalDate } from '../time/calendar.js';
import { classifyPath, rawRelPath } from '../tree/layout.js';
import type { Measure } from './fit.js';
import { buildManifest, type TopicHit } from './manifest.js';
import { filePassages, rankPassages, type Passage, type PassageLocation } from './passages.js';
import { readInMemory } from './sources.js';
import { pickSaid } from '../search/said-pick.js';
import { placesByFile } from '../search/format.js';
import { SAID_ROOM, saidLine, type Said } from '../search/said.js';
import { recallTerms } from './terms.js';
import { rootView } from './root-view.js';
import { findAnchor } from './windows.js';

/** A search over the whole tree (the index), if one is available; `also`: extra wordings. */
export type TreeSearch = ((query: string, limit: number, also?: readonly string[]) => Promise<Passage[]>) & {
  /** The raw passages a summary node's passage was taken from (empty when not known). */
  origins?: (p: Passage) => Passage[];
  /** What the user said of themselves in the rest of a passage's section (search/said.ts). */
  said?: (p: Passage) => Said[];
  /** The monthly nodes' User Facts lines that share the most words with the query (search/user-facts.ts). */
  facts?: (query: string, limit: number) => Passage[];
};

/**
 * The user's facts shown first: a question seldom names the fact it depends on, and a fact line
 * is a few words, where a passage found by the question's other words is many (hooks/prompt-recall.ts).
 */
const FACT_PASSAGES = 3;

/** Passages, best first, that bring what the user said in the rest of their section. */
const SAID_PASSAGES = 10;

export interface RecallOptions {
  memoryDir: string;
  today: LocalDate;
  question: string;
  budget: number;
  measure: Measure;
  search?: TreeSearch;
  /** Other wordings of the question (the fact it depends on): they count for topics and search. */
  also?: readonly string[];
  /** Passages considered before the budget cut. */
  limit?: number;
  /** Redacts a file's text keeping its lines (redact/lines.ts): passages are cut from it. */
  redact: (text: string) => string;
}

interface RecalledPassage extends Passage {
  /** What the user said of themselves in the rest of its section, when read (an index search). */
  said?: Said[];
  /** Where else in the tree it appears: summary lines that repeat it or name its topic. */
  alsoIn: PassageLocation[];
  rank: number;
  score: number;
  /** Which steps found it. */
  via: ('facts' | 'topics' | 'search')[];
  cost: number;
  trimmed: boolean;
}

export interface Recall {
  question: string;
  topics: TopicHit[];
  months: string[];
  days: LocalDate[];
  passages: RecalledPassage[];
  /** Passages ranked but left out by the budget. */
  leftOut: number;
  tokens: number;
  budget: number;
  searched: boolean;
}

const RRF_K = 60;
/**
 * Weight of the manifest's list beside the index's (weight 1): a tie-breaker. The index ranks
 * the whole tree, summaries folded into the raw sections they came from, and is the better
 * judge on its own (MemAware, 596 questions that never name their topic, hybrid over the
 * compacted tree, R@10 / MRR: 39.8 / 0.225 at weight 0, 39.8 / 0.227 at 0.02, 39.4 / 0.218 at
 * 0.05, 39.3 / 0.211 at 0.1); the manifest's days still settle near-ties and fill in what the
 * index misses when a question names a topic.
 */
const TOPICS_WEIGHT = 0.02;
/** Days read when the manifest finds nothing (no ROOT yet, or no topic matches). */
const FALLBACK_DAYS = 14;

/** A list line as it is compared with others: without its bullet and `05-29 · ` label; '' for headings and blanks. */
function lineKey(line: string): string {
  if (/^\s*(?:#|$)/.test(line)) return '';
  return line
    .replace(/^\s*[-*]\s+(?:\d{2}-\d{2} · )?/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The passage without the lines already given at its start (after its headings) and at its end,
 * its range with them; null when nothing new is left. Cut at the start, it starts at its first
 * new line (its headings go too: the range stays one run of the file's lines).
 */
function withoutShownEdges(p: Passage, shown: ReadonlySet<string>): Passage | null {
  const lines = p.text.split('\n');
  const repeat = (l: string): boolean => lineKey(l) !== '' && shown.has(lineKey(l));
  let head = 0;
  while (head < lines.length && lineKey(lines[head]!) === '') head++;
  let first = head;
  while (first < lines.length && repeat(lines[first]!)) first++;
  let end = lines.length;
  while (end > first && (repeat(lines[end - 1]!) || lines[end - 1]!.trim() === '')) end--;
  if (!lines.slice(first, end).some((l) => lineKey(l) !== '')) return null;
  const from = first === head ? 0 : first;
  if (from === 0 && end === lines.length) return p;
  return { ...p, text: lines.slice(from, end).join('\n'), from: p.from + from, to: p.from + end - 1 };
}

/** Adds `a` to `list`, widening a listed range of the same file that it overlaps instead. */
function addLocation(list: PassageLocation[], a: PassageLocation): void {
  const same = list.find((b) => b.path === a.path && b.from <= a.to && a.from <= b.to);
  if (!same) list.push({ ...a });
  else {
    same.from = Math.min(same.from, a.from);
    same.to = Math.max(same.to, a.to);
  }
}

function overlaps(a: Passage, b: Passage): boolean {
  return a.path === b.path && a.from <= b.to && b.from <= a.to;
}

export async function recall(o: RecallOptions): Promise<Recall> {
  const also = (o.also ?? []).map((a) => a.trim()).filter(Boolean);
  const terms = recallTerms([o.question, ...also].join('\n'));
  const rootFile = readInMemory(o.memoryDir, 'ROOT.md', 512 * 1024);
  const root = rootFile ? rootView(rootFile.text, o.today).body : null;
  const manifest = buildManifest(o.memoryDir, root, terms);
  let days = manifest.days;
  // With nothing matched and an index to search, reading recent days blind adds only noise.
  if (days.length === 0 && !o.search) {
    const anchor = findAnchor(o.memoryDir, o.today);
    days = Array.from({ length: FALLBACK_DAYS }, (_, i) => addDays(anchor, -i));
  }
  // Step 3a: the manifest's days, raw logs (the detail) and daily nodes (the summary).
  const dayRank = new Map(days.map((d, i) => [d, i]));
  const candidates = days.flatMap((d) => [
    ...filePassages(o.memoryDir, rawRelPath(d), o.redact),
    ...filePassages(o.memoryDir, `daily/${d}.md`, o.redact),
  ]);
  // The day of a raw log (or a dated note beside it) or of a daily node.
  const dayOf = (p: Passage): LocalDate | undefined => {
    const what = classifyPath(p.path);
    return what.kind === 'raw' ? what.date : what.kind === 'node' && what.period.level === 'daily' ? what.period.date : undefined;
  };
  const lexical = rankPassages(candidates, terms, (p) => {
    const r = dayRank.get(dayOf(p)!);
    return r === undefined ? 1 : 1 + 0.5 / (1 + r);
  });
  // Step 3b: the index over the whole tree, fused by reciprocal rank.
  const limit = o.limit ?? 30;
  const searched = o.search ? await o.search(o.question, limit, also).catch(() => null) : null;
  const fused: { p: Passage; score: number; via: Set<'facts' | 'topics' | 'search'>; alsoIn: PassageLocation[] }[] = [];
  const seenText = new Set<string>();
  const isRaw = (p: Passage): boolean => classifyPath(p.path).kind === 'raw';
  const add = (list: readonly Passage[], via: 'topics' | 'search', weight: number): void => {
    // A passage is credited once per list, at its best rank (summary hits list their sources,
    // so the same raw section can come back many times).
    const credited = new Set<object>();
    const credit = (p: Passage, s: number, alsoIn: readonly PassageLocation[]): void => {
      // A daily node below its threshold is a copy of its raw log: one of the two is enough.
      const key = p.text.replace(/\s+/g, ' ').trim();
      const same = fused.find((f) => overlaps(f.p, p));
      if (same) {
        if (!credited.has(same)) {
          same.score += s;
          same.via.add(via);
          credited.add(same);
        }
        for (const a of alsoIn) addLocation(same.alsoIn, a);
      } else if (!seenText.has(key)) {
        const entry = { p, score: s, via: new Set([via]), alsoIn: [] as PassageLocation[] };
        for (const a of alsoIn) addLocation(entry.alsoIn, a);
        fused.push(entry);
        credited.add(entry);
      }
      seenText.add(key);
    };
    list.slice(0, limit).forEach((p, i) => {
      const s = weight / (RRF_K + i + 1);
      // A summary passage whose lines the index traces to raw sections counts for those (one
      // fact, one passage), and is where else they appear.
      const from = !isRaw(p) && o.search?.origins ? o.search.origins(p) : [];
      if (from.length) for (const q of from) credit(q, s / from.length, [{ path: p.path, from: p.from, to: p.to }]);
      else credit(p, s, p.alsoIn ?? []);
    });
  };
  // The index's list first: where both find the same lines, the passage shown is the index's
  // (the chunk that matched, not a 40-line window of the day around it).
  if (searched) add(searched, 'search', 1);
  add(lexical, 'topics', o.search ? TOPICS_WEIGHT : 1);
  fused.sort((a, b) => b.score - a.score || (a.p.path < b.p.path ? 1 : -1) || a.p.from - b.p.from);
  // The user's facts that share the question's words lead, each line a passage of its own.
  const facts = o.search?.facts ? o.search.facts([o.question, ...also].join('\n'), FACT_PASSAGES) : [];
  fused.unshift(...facts.map((p) => ({ p, score: 0, via: new Set(['facts'] as const), alsoIn: [] as PassageLocation[] })));

  // Fit the budget: whole passages in rank order; a long one is cut to what is left.
  const out: RecalledPassage[] = [];
  let left = o.budget;
  let leftOut = 0;
  // Lines already given: a summary line the index could not trace to its source (a ROOT line
  // without a day) may repeat a line of another passage. Repeats at a passage's edges are cut
  // (its range with them); a passage with nothing new is left out.
  const shown = new Set<string>();
  for (const [i, f] of fused.entries()) {
    const edges = withoutShownEdges(f.p, shown);
    if (!edges) continue;
    f.p = edges;
    const header = passageHeader(f.p.path, f.p.from, f.p.to, f.alsoIn, 'memory');
    let text = f.p.text;
    // Read for the best passages shown only: a section's statements cost a few milliseconds each,
    // and a large budget shows hundreds of passages.
    let said =
      o.search?.said && out.length < SAID_PASSAGES ? pickSaid(o.search.said(f.p), o.question, SAID_ROOM, (x) => x.text.length) : [];
    const saidText = (): string => (said.length ? `\n${said.map(saidLine).join('\n')}` : '');
    let cost = o.measure(`${header}\n${text}${saidText()}`) + 2;
    // What the user said elsewhere in the section goes first when room is short: the lines are the find.
    if (cost > left && said.length) {
      said = [];
      cost = o.measure(`${header}\n${text}`) + 2;
    }
    let trimmed = false;
    if (cost > left) {
      if (left < 80) {
        leftOut += fused.length - i;
        break;
      }
      const lines = text.split('\n');
      while (lines.length > 1 && o.measure(`${header}\n${lines.join('\n')}`) + 2 > left) lines.pop();
      text = lines.join('\n');
      cost = o.measure(`${header}\n${text}`) + 2;
      trimmed = true;
      if (cost > left) {
        leftOut += fused.length - i;
        break;
      }
    }
    const to = trimmed ? f.p.from + text.split('\n').length - 1 : f.p.to;
    out.push({
      ...f.p,
      ...(said.length ? { said } : {}),
      to,
      text,
      rank: out.length + 1,
      score: Math.round(f.score * 1e4) / 1e4,
      via: [...f.via],
      cost,
      trimmed,
      alsoIn: f.alsoIn,
    });
    for (const l of text.split('\n')) {
      const key = lineKey(l);
      if (key) shown.add(key);
    }
    left -= cost;
  }
  return {
    question: o.question,
    topics: manifest.topics,
    months: manifest.months,
    days: manifest.days,
    passages: out,
    leftOut,
    tokens: o.budget - left,
    budget: o.budget,
    searched: searched !== null,
  };
}

/** Summary files named after a passage's own, at most. */
const MAX_ALSO_SHOWN = 3;

/** `## memory/2026-11-02.md:3-7`, and a line `(also in daily/2026-11-02.md:21-24, …)` when known. */
function passageHeader(path: string, from: number, to: number, alsoIn: readonly PassageLocation[], memoryName: string): string {
  const head = `## ${memoryName}/${path}:${from}-${to}`;
  if (alsoIn.length === 0) return head;
  const files = placesByFile(alsoIn.map((a) => ({ path: a.path, start: a.from, end: a.to })));
  const also = files.slice(0, MAX_ALSO_SHOWN);
  const more = files.length > MAX_ALSO_SHOWN ? `, +${files.length - MAX_ALSO_SHOWN} more` : '';
  return `${head}\n(also in ${also.join(', ')}${more})`;
}

export function renderRecall(r: Recall, memoryName: string): string {
  const lines = [`# Recall · ${r.question}`];
  if (r.topics.length)
    lines.push(`Topics: ${r.topics.map((t) => `${t.name} [${t.type}]${t.latest ? ` (latest ${t.latest})` : ''}`).join('; ')}`);
  if (!r.passages.length) lines.push('', 'Nothing in memory matches.');
  for (const p of r.passages)
    lines.push('', passageHeader(p.path, p.from, p.to, p.alsoIn, memoryName), p.text, ...(p.said ?? []).map(saidLine));
  if (r.leftOut) lines.push('', `(${r.leftOut} more passage${r.leftOut === 1 ? '' : 's'} over the budget)`);
  return `${lines.join('\n')}\n`;
}
