// A search result as a person reads it in a terminal (hipo search) or an MCP tool's text: each
// hit's place, level and period, heading path, score, snippet with line numbers, and where
// else it appears.
import type { SearchHit, SearchResult } from './search.js';
import { saidLine } from './said.js';

/** `15` or `21-23`. */
const lineRange = (start: number, end: number): string => `${start}${end > start ? `-${end}` : ''}`;

function where(h: Pick<SearchHit, 'path' | 'lines'>): string {
  return `${h.path}:${lineRange(h.lines.start, h.lines.end)}`;
}

/**
 * Places as a person reads them, one entry per file with its line ranges in the order given:
 * `memory/daily/2026-11-04.md:15,21-23`. A node often holds a fact twice (its topic line and the
 * section that copies the entry); naming the file twice made the list twice as long to read.
 */
export function placesByFile(places: readonly { path: string; start: number; end: number }[]): string[] {
  const byFile = new Map<string, string[]>();
  for (const p of places) {
    const range = lineRange(p.start, p.end);
    const ranges = byFile.get(p.path);
    if (!ranges) byFile.set(p.path, [range]);
    else if (!ranges.includes(range)) ranges.push(range);
  }
  return [...byFile].map(([path, ranges]) => `${path}:${ranges.join(',')}`);
}

function periodText(h: Pick<SearchHit, 'period'>): string {
  if (!h.period) return '';
  return h.period.start === h.period.end ? h.period.start : `${h.period.start}..${h.period.end}`;
}

function fmtScore(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(4);
}

export function formatSearch(r: SearchResult): string {
  const lines = [`hipo search "${r.query}" · ${r.mode} · ${r.hits.length} result${r.hits.length === 1 ? '' : 's'} (${r.ms.toFixed(0)} ms)`];
  for (const x of r.also) lines.push(`  also ${x.kind}: ${x.text}`);
  if (r.hits.length === 0) lines.push('  nothing found');
  r.hits.forEach((h, i) => {
    const tags = [h.workspace ? `@${h.workspace}` : '', h.level, periodText(h), h.status ?? '', h.type ? `[${h.type}]` : '']
      .filter(Boolean)
      .join(' ');
    lines.push('');
    lines.push(`${String(i + 1).padStart(2)}. ${where(h)}  ${tags}`);
    if (h.headingPath.length) lines.push(`    ${h.headingPath.join(' › ')}`);
    const parts = [
      h.scores.bm25 !== null ? `bm25 ${fmtScore(h.scores.bm25)}` : '',
      h.scores.vector !== null ? `vector ${h.scores.vector.toFixed(3)}` : '',
    ].filter(Boolean);
    lines.push(`    score ${fmtScore(h.score)}${parts.length && r.mode === 'hybrid' ? ` (${parts.join(', ')})` : ''}`);
    const snippetLines = h.snippet.text.split('\n');
    const width = String(h.snippet.line + snippetLines.length - 1).length;
    snippetLines.forEach((l, k) => lines.push(`    ${String(h.snippet.line + k).padStart(width)} │ ${l}`));
    for (const said of h.said ?? []) lines.push(`    ${saidLine(said)}`);
    for (const s of h.sources) lines.push(`    ↳ ${where(s)}  ${s.headingPath[s.headingPath.length - 1] ?? ''}`);
    if (h.alsoIn.length) lines.push(`    also in ${placesByFile(h.alsoIn.map((a) => ({ path: a.path, ...a.lines }))).join(' · ')}`);
  });
  return lines.join('\n');
}
