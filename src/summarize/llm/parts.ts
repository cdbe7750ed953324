// A node whose sources do not fit one request, even with assistant answers cut short, is sent
// in parts rather than cut: its sources are split at their top-level sections (a raw log's chat
// sessions or topics, a parent's children) and packed, in order, into as few requests as fit
// the budget, at most `maxParts`. The answers are merged into one body (composeNodeBody). Past
// `maxParts`, each part is fitted on its own (fitSources), losing the least it can.
import { splitLines } from '../../tree/markdown.js';
import type { CountTokens } from '../../text/tokens.js';
import type { SourceDoc } from '../summarizer.js';

/** Sources split at `#` and `##` headings; each unit keeps its source's label and path. */
export function sourceUnits(sources: readonly SourceDoc[]): SourceDoc[] {
  const units: SourceDoc[] = [];
  for (const s of sources) {
    let cur: string[] = [];
    let start = s.firstLine;
    const flush = (next: number): void => {
      if (cur.some((l) => l.trim())) units.push({ ...s, text: cur.join('\n'), firstLine: start });
      cur = [];
      start = next;
    };
    splitLines(s.text).forEach((line, i) => {
      if (/^#{1,2}\s/.test(line)) flush(s.firstLine + i);
      cur.push(line);
    });
    flush(0);
  }
  return units;
}

/** Consecutive units of one source back into one source document. */
function rejoin(units: readonly SourceDoc[]): SourceDoc[] {
  const out: SourceDoc[] = [];
  for (const u of units) {
    const last = out[out.length - 1];
    if (last && last.path === u.path && last.label === u.label) last.text += `\n${u.text}`;
    else out.push({ ...u });
  }
  return out;
}

/**
 * Packs units into parts of at most `budget` tokens (as counted unit by unit, plus `overhead`
 * per source in a part). Returns null when that takes more than `maxParts`.
 */
export function packParts(
  units: readonly SourceDoc[],
  budget: number,
  count: CountTokens,
  overhead: number,
  maxParts: number,
): SourceDoc[][] | null {
  const parts: SourceDoc[][] = [];
  let cur: SourceDoc[] = [];
  let used = 0;
  const cost = (u: SourceDoc, tokens: number): number => {
    const last = cur[cur.length - 1];
    return tokens + (last && last.path === u.path ? 1 : overhead);
  };
  for (const u of units) {
    const tokens = count(u.text);
    if (cur.length && used + cost(u, tokens) > budget) {
      parts.push(cur);
      cur = [];
      used = 0;
    }
    used += cost(u, tokens);
    cur.push(u);
  }
  if (cur.length) parts.push(cur);
  return parts.length > maxParts ? null : parts.map(rejoin);
}

/** Splits units into `n` runs of about equal size (in characters), in order. */
export function evenParts(units: readonly SourceDoc[], n: number): SourceDoc[][] {
  const total = units.reduce((t, u) => t + u.text.length, 0);
  const parts: SourceDoc[][] = [];
  let cur: SourceDoc[] = [];
  let size = 0;
  for (const u of units) {
    if (cur.length && size + u.text.length / 2 > (total / n) * (parts.length + 1) && parts.length < n - 1) {
      parts.push(cur);
      cur = [];
    }
    cur.push(u);
    size += u.text.length;
  }
  if (cur.length) parts.push(cur);
  return parts.map(rejoin);
}
