// Cutting a markdown file into the chunks the index holds. Chunks follow the document's
// structure: a `##` section (with its sub-sections) is one chunk — in a raw log, one entry or
// one session; a `#` title's own text is a chunk of its own; text before any heading is one.
// A section longer than `maxChars` is cut at its sub-sections first, and a section without any
// into windows of whole blocks that overlap, so a sentence at a cut is found from either side.
// Pure: text in, chunks out.
import { splitFrontmatter, type FrontmatterData } from '../tree/frontmatter.js';
import { hashParts } from '../tree/hash.js';
import type { MemoryType } from '../tree/layout.js';
import { scanBlocks, sectionTree, splitLines, type Block, type Section } from '../tree/markdown.js';
import { placeholderOnly } from '../tree/placeholder.js';
import { bucketOfTitle, parseHeading } from '../summarize/entries.js';
import { userFactsByLine } from './facts.js';
import { CHUNKER_VERSION } from './chunker-version.js';

export interface ChunkOptions {
  /** A chunk longer than this is split. */
  maxChars: number;
  /** Characters repeated at the start of the next window when a section is split into windows. */
  overlapChars: number;
  /** Each user statement of a conversation also as a chunk of its own (see below; off by default). */
  factChunks?: boolean;
}

export interface ChunkDraft {
  /** Headings from the outermost down to the chunk's own. */
  headingPath: string[];
  /** File lines, 1-based, inclusive. */
  line: number;
  endLine: number;
  /** The chunk's lines as in the file. */
  text: string;
  /** The memory type its heading (or a parent's) is tagged with, or its summary section implies. */
  type: MemoryType | null;
  /** First line of the section the chunk was cut from: parts of one section share it. */
  sectionLine: number;
  /** What the user said about themselves in it (see facts.ts), weighed more by the index. */
  facts: string;
  /** Identity of the content: heading path, text, type and facts. */
  hash: string;
}

export interface ChunkedDocument {
  frontmatter: FrontmatterData | null;
  chunks: ChunkDraft[];
}

/** Defaults for the overlap: a tenth of the chunk, at most 400 characters. */
export function chunkOptions(maxChars: number): ChunkOptions {
  return { maxChars, overlapChars: Math.min(400, Math.floor(maxChars / 10)) };
}

const BUCKET_TYPES: Partial<Record<string, MemoryType>> = { user: 'user', said: 'user', feedback: 'feedback', references: 'reference' };

/** The type of a heading path: the deepest `[type]` tag, else a summary section's own type. */
function typeOfHeadings(path: readonly string[]): MemoryType | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const parts = parseHeading(path[i]!);
    if (parts.tagged) return parts.type;
  }
  for (let i = path.length - 1; i >= 0; i--) {
    const bucket = bucketOfTitle(path[i]!);
    if (bucket) return BUCKET_TYPES[bucket] ?? null;
  }
  return null;
}

export function chunkDocument(fileText: string, opts: ChunkOptions): ChunkedDocument {
  const doc = splitFrontmatter(fileText);
  const lines = splitLines(doc.body);
  const offset = doc.bodyLineOffset;
  const fileLines = [...new Array<string>(offset).fill(''), ...lines];
  const tree = sectionTree(scanBlocks(lines, offset), lines.length, offset);
  const factsByLine = userFactsByLine(lines, offset + 1);
  const out: ChunkDraft[] = [];

  const textOf = (from: number, to: number): string => fileLines.slice(from - 1, to).join('\n');
  const emit = (headingPath: string[], from: number, to: number, sectionLine: number, slice?: [number, number]): void => {
    // Trim blank lines at both ends so line ranges point at text.
    while (from < to && fileLines[from - 1]!.trim() === '') from++;
    while (to > from && fileLines[to - 1]!.trim() === '') to--;
    const text = slice ? fileLines[from - 1]!.slice(slice[0], slice[1]) : textOf(from, to);
    if (text.trim() === '' || placeholderOnly(text)) return;
    const type = typeOfHeadings(headingPath);
    let facts: string;
    if (type === 'user') facts = text;
    else {
      const found: string[] = [];
      for (let l = from; l <= to; l++) found.push(...(factsByLine.get(l) ?? []));
      facts = found.join('\n');
    }
    out.push({
      headingPath,
      line: from,
      endLine: to,
      text,
      type,
      sectionLine,
      facts,
      hash: hashParts([String(CHUNKER_VERSION), headingPath.join('\u0001'), type ?? '', text, facts]),
    });
  };

  const ownBlocks = (s: Section): Block[] => {
    const head: Block[] = s.depth > 0 ? [{ kind: 'heading', depth: s.depth, text: s.heading, line: s.line, endLine: s.line }] : [];
    return [...head, ...s.blocks];
  };
  const allBlocks = (s: Section): Block[] => {
    const acc = ownBlocks(s);
    for (const c of s.children) acc.push(...allBlocks(c));
    return acc;
  };
  const ownEndOf = (s: Section): number => (s.children.length ? s.children[0]!.line - 1 : s.endLine);

  /** A section: one chunk if it fits, else its own text and each sub-section, else windows. */
  const place = (s: Section, sectionLine: number): void => {
    if (textOf(s.line, s.endLine).length <= opts.maxChars) {
      emit(s.path, s.line, s.endLine, sectionLine);
      return;
    }
    if (s.children.length) {
      if (s.blocks.length) placeWindows(s.path, ownBlocks(s), s.line, ownEndOf(s), sectionLine);
      for (const c of s.children) place(c, sectionLine);
      return;
    }
    placeWindows(s.path, allBlocks(s), s.line, s.endLine, sectionLine);
  };

  /** Splits lines `from..to` (whose blocks are given) into overlapping windows of whole blocks. */
  const placeWindows = (headingPath: string[], blocks: Block[], from: number, to: number, sectionLine: number): void => {
    if (textOf(from, to).length <= opts.maxChars) {
      emit(headingPath, from, to, sectionLine);
      return;
    }
    // Pieces: blocks, with any block longer than a chunk cut into runs of lines.
    const pieces: { line: number; endLine: number; chars: number; heading: boolean }[] = [];
    for (const b of blocks) {
      if (b.line < from || b.line > to) continue;
      const end = Math.min(b.endLine, to);
      const chars = textOf(b.line, end).length + 1;
      if (chars <= opts.maxChars) {
        pieces.push({ line: b.line, endLine: end, chars, heading: b.kind === 'heading' });
        continue;
      }
      let start = b.line;
      let acc = 0;
      for (let l = b.line; l <= end; l++) {
        const len = fileLines[l - 1]!.length + 1;
        if (acc > 0 && acc + len > opts.maxChars) {
          pieces.push({ line: start, endLine: l - 1, chars: acc, heading: false });
          start = l;
          acc = 0;
        }
        acc += len;
      }
      pieces.push({ line: start, endLine: end, chars: acc, heading: false });
    }
    let i = 0;
    while (i < pieces.length) {
      let j = i;
      let chars = pieces[i]!.chars;
      while (j + 1 < pieces.length && chars + pieces[j + 1]!.chars <= opts.maxChars) chars += pieces[++j]!.chars;
      const first = pieces[i]!;
      const last = pieces[j]!;
      // A window of nothing but headings (the next block did not fit beside them) is skipped:
      // the following windows carry those headings in their heading path.
      const headingsOnly = pieces.slice(i, j + 1).every((p) => p.heading) && pieces.length > j + 1;
      if (headingsOnly) {
        /* nothing to emit */
      } else if (first === last && first.line === first.endLine && first.chars > opts.maxChars) {
        // One line longer than a chunk (a pasted blob): windows of characters on that line.
        const len = fileLines[first.line - 1]!.length;
        const step = opts.maxChars - opts.overlapChars;
        for (let a = 0; a < len; a += step) {
          emit(headingPath, first.line, first.line, sectionLine, [a, a + opts.maxChars]);
          if (a + opts.maxChars >= len) break;
        }
      } else {
        emit(headingPath, first.line, last.endLine, sectionLine);
      }
      if (j + 1 >= pieces.length) break;
      // Start the next window far enough back to repeat about `overlapChars`, always moving on.
      // The next window must still fit the piece after this one, or it would repeat only old text.
      const next = pieces[j + 1]!.chars;
      let k = j + 1;
      let back = 0;
      while (k - 1 > i && back + pieces[k - 1]!.chars <= opts.overlapChars && back + pieces[k - 1]!.chars + next <= opts.maxChars)
        back += pieces[--k]!.chars;
      i = k;
    }
  };

  // Top level: text before the first heading, each `#` title's own text, and every section
  // under it (or every top-level section of a document without titles). Each of these is a
  // section of the index: the chunks cut from one share its first line.
  const visit = (s: Section): void => {
    if (s.depth <= 1 && s.children.length) {
      if (s.blocks.length) placeWindows(s.path, ownBlocks(s), s.line, ownEndOf(s), s.line);
      for (const c of s.children) visit(c);
      return;
    }
    if (s.depth === 0) {
      placeWindows([], ownBlocks(s), s.line, s.endLine, s.line);
      return;
    }
    place(s, s.line);
  };
  visit(tree);
  if (opts.factChunks) out.push(...factChunks(out, factsByLine));
  return { frontmatter: doc.data, chunks: out };
}

/** Statements shorter than this say too little to stand alone ("I'm back"). */
const MIN_FACT_CHARS = 24;

/**
 * What the user said about themselves, each line's statements as a chunk of its own, part of the
 * section it was said in (same section line, heading path and type). In a long session the
 * statement a question depends on is a few words among thousands; on its own it ranks as the
 * short text it is, and lifts its session (search ranks sections by their best part).
 */
function factChunks(chunks: readonly ChunkDraft[], factsByLine: ReadonlyMap<number, string[]>): ChunkDraft[] {
  const out: ChunkDraft[] = [];
  for (const [line, facts] of [...factsByLine].sort((a, b) => a[0] - b[0])) {
    const text = facts.join(' ');
    if (text.length < MIN_FACT_CHARS) continue;
    // A `[user]` section is all facts already, and counted whole.
    const host = chunks.find((c) => c.line <= line && line <= c.endLine);
    if (!host || host.type === 'user') continue;
    out.push({
      headingPath: host.headingPath,
      line,
      endLine: line,
      text,
      type: host.type,
      sectionLine: host.sectionLine,
      facts: text,
      hash: hashParts([String(CHUNKER_VERSION), 'fact', host.headingPath.join('\u0001'), host.type ?? '', text]),
    });
  }
  return out;
}
