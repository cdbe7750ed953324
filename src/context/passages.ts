// Passages of memory files with their line ranges, and a small BM25 over a candidate set: how
// recall reads the few days its manifest picked. (The search index ranks the whole tree.)
import { clipLongLines, readInMemory, splitFrontmatterLight } from './sources.js';
import { stem } from './terms.js';
import { tokenize } from '../summarize/keywords.js';

export interface Passage {
  /** Memory-relative path. */
  path: string;
  /** 1-based line range in the file. */
  from: number;
  to: number;
  text: string;
  /** Summary lines that repeat this passage or name its topic (memory-relative), if known. */
  alsoIn?: PassageLocation[];
}

export interface PassageLocation {
  path: string;
  from: number;
  to: number;
}

export interface ScoredPassage extends Passage {
  score: number;
}

/** Longest passage, in lines: a long section is cut into windows this size (overlapping by 5). */
const WINDOW = 40;
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The `##`-level sections of a file as passages (long ones in windows), cut from its text as
 * `redact` leaves it (lines kept where they were: redact/lines.ts).
 */
export function filePassages(memoryDir: string, rel: string, redact: (text: string) => string): Passage[] {
  const r = readInMemory(memoryDir, rel, MAX_FILE_BYTES);
  if (!r) return [];
  const text = redact(r.text);
  const { yaml, body } = splitFrontmatterLight(text);
  const offset = yaml === null ? 0 : text.slice(0, text.length - body.length).split('\n').length - 1;
  const lines = body.split('\n');
  const starts: number[] = [];
  let fence = false;
  lines.forEach((l, i) => {
    if (/^ {0,3}(```|~~~)/.test(l)) fence = !fence;
    if (!fence && /^#{1,3} /.test(l)) starts.push(i);
  });
  if (starts[0] !== 0) starts.unshift(0);
  const out: Passage[] = [];
  for (let k = 0; k < starts.length; k++) {
    const a = starts[k]!;
    const b = (starts[k + 1] ?? lines.length) - 1;
    for (let s = a; s <= b; s += WINDOW - 5) {
      const e = Math.min(b, s + WINDOW - 1);
      const text = clipLongLines(
        lines
          .slice(s, e + 1)
          .join('\n')
          .trim(),
      );
      const headingOnly = !text.includes('\n') && /^#{1,6} /.test(text);
      if (text && !headingOnly) out.push({ path: rel, from: s + 1 + offset, to: e + 1 + offset, text });
      if (e === b) break;
    }
  }
  return out;
}

/** BM25 (k1 1.2, b 0.75) of passages against stemmed terms; zero-score passages dropped. */
export function rankPassages(
  passages: readonly Passage[],
  terms: readonly string[],
  boost: (p: Passage) => number = () => 1,
): ScoredPassage[] {
  if (!terms.length || !passages.length) return [];
  const docs = passages.map((p) => {
    const tf = new Map<string, number>();
    const words = tokenize(p.text, true).map(stem);
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { p, tf, len: words.length };
  });
  const avg = docs.reduce((n, d) => n + d.len, 0) / docs.length || 1;
  const df = new Map<string, number>();
  for (const t of terms) df.set(t, docs.filter((d) => d.tf.has(t)).length);
  const out: ScoredPassage[] = [];
  for (const d of docs) {
    let score = 0;
    for (const t of terms) {
      const f = d.tf.get(t);
      if (!f) continue;
      const n = df.get(t)!;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.len) / avg));
    }
    if (score > 0) out.push({ ...d.p, score: score * boost(d.p) });
  }
  return out.sort((a, b) => b.score - a.score || (a.path < b.path ? 1 : a.path > b.path ? -1 : a.from - b.from));
}
