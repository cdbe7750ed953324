// Reading what a context pack is made of, with bounds: a node's body (frontmatter off, at most
// `MAX_NODE_BYTES`), and the newest entries of a raw log from its tail.
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegular, realInside } from '../tree/inside.js';
import { decodeText } from '../tree/text.js';
import { stripNodeLinks } from '../tree/node-links.js';
import { sliceWhole } from '../text/slice.js';

const MAX_NODE_BYTES = 256 * 1024;
const RAW_TAIL_BYTES = 64 * 1024;

/**
 * Reads up to `max` bytes from the start (or, with `fromEnd`, the end) of a file. Only a regular
 * file: a FIFO or device is refused without blocking.
 */
export function readBounded(path: string, max: number, fromEnd = false): { text: string; truncated: boolean } | null {
  const fd = openRegular(path);
  if (fd === null) return null;
  try {
    const size = fstatSync(fd).size;
    const n = Math.min(size, max);
    const buf = Buffer.alloc(n);
    readSync(fd, buf, 0, n, fromEnd ? size - n : 0);
    const d = decodeText(buf);
    return d.ok ? { text: d.text, truncated: n < size } : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Longest line a passage shows: a longer one (a pasted blob, a one-line log) is cut with a note. */
const MAX_PASSAGE_LINE_CHARS = 4000;

/** Cuts lines longer than `max` characters, saying how long they were. */
export function clipLongLines(text: string, max = MAX_PASSAGE_LINE_CHARS): string {
  if (text.length <= max) return text;
  return text
    .split('\n')
    .map((l) => (l.length > max ? `${sliceWhole(l, 0, max)} … [line cut: ${l.length} characters]` : l))
    .join('\n');
}

/** readBounded for `rel` in the memory folder; null when it is a link leading out of the folder. */
export function readInMemory(memoryDir: string, rel: string, max: number, fromEnd = false): { text: string; truncated: boolean } | null {
  const real = realInside(memoryDir, rel);
  return real === null ? null : readBounded(real, max, fromEnd);
}

/**
 * Splits off a frontmatter block without parsing it: the pack only needs the body (and ROOT's
 * `last-updated`), and a YAML parser costs more to load than the whole pack takes to build.
 */
export function splitFrontmatterLight(text: string): { yaml: string | null; body: string } {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = /^---[ \t]*\r?\n/.exec(src);
  if (!first) return { yaml: null, body: src };
  const close = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;
  const rest = src.slice(first[0].length);
  const m = close.exec(rest);
  if (!m) return { yaml: null, body: src };
  return { yaml: rest.slice(0, m.index), body: rest.slice(m.index + m[0].length) };
}

export interface NodeBody {
  /** Body without frontmatter and without its `# Title` line. */
  body: string;
  title: string | null;
}

export function readNodeBody(memoryDir: string, rel: string): NodeBody | null {
  const r = readInMemory(memoryDir, rel, MAX_NODE_BYTES);
  if (!r) return null;
  let body = splitFrontmatterLight(r.text).body.trim();
  let title: string | null = null;
  const m = /^# (.+)\n?/.exec(body);
  if (m) {
    title = m[1]!.trim();
    body = body.slice(m[0].length);
  }
  // A daily copy of a log without a title starts with its links line.
  body = stripNodeLinks(body).trim();
  return body ? { body, title } : null;
}

export interface RawEntry {
  heading: string;
  text: string;
}

/** The `##` entries in the last `RAW_TAIL_BYTES` of a raw log, oldest first, and whether older ones exist. */
export function readRawTail(memoryDir: string, rel: string): { entries: RawEntry[]; more: boolean } | null {
  const r = readInMemory(memoryDir, rel, RAW_TAIL_BYTES, true);
  if (!r) return null;
  const lines = r.text.split('\n');
  const entries: RawEntry[] = [];
  let cur: string[] | null = null;
  let fence = false;
  let before = false;
  for (const line of lines) {
    if (/^ {0,3}(```|~~~)/.test(line)) fence = !fence;
    if (!fence && /^## /.test(line)) {
      if (cur) entries.push(entryOf(cur));
      cur = [line];
      continue;
    }
    if (cur) cur.push(line);
    else if (line.trim() && !/^# /.test(line)) before = true;
  }
  if (cur) entries.push(entryOf(cur));
  // The first entry of a cut tail may be partial: drop it.
  if (r.truncated && entries.length > 1) {
    entries.shift();
    before = true;
  }
  return { entries, more: before || r.truncated };
}

function entryOf(lines: string[]): RawEntry {
  return { heading: lines[0]!, text: lines.join('\n').trim() };
}
