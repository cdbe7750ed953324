// YAML frontmatter: read with a YAML parser (gray-matter / js-yaml), written by one small
// deterministic emitter so that nodes are byte-stable and readable.
import { createRequire } from 'node:module';

// gray-matter (and js-yaml under it) is loaded on first use: a cycle that finds every file in
// the stamp cache parses no YAML at all.
let matterFn: ((input: string, options: object) => { data: unknown }) | null = null;
function matter(input: string, options: object): { data: unknown } {
  matterFn ??= createRequire(import.meta.url)('gray-matter') as typeof matterFn;
  return matterFn!(input, options);
}

// Not cached by text: a node's unchanged record stays with the tree a resident process holds
// (and its stamp cache), so the same block is rarely parsed twice.
function parseYaml(yaml: string): unknown {
  return matter(`---\n${yaml}${yaml.endsWith('\n') || yaml === '' ? '' : '\n'}---\n`, {}).data;
}

export type FrontmatterValue = string | number | boolean | null | FrontmatterValue[] | { [k: string]: FrontmatterValue };
export type FrontmatterData = Record<string, FrontmatterValue>;

export interface SplitDocument {
  /** Parsed mapping, or null when there is no frontmatter block. */
  data: FrontmatterData | null;
  /** Text after the frontmatter block. */
  body: string;
  /** Lines taken by the frontmatter block (0 when absent); body line k is file line k + this. */
  bodyLineOffset: number;
  /** Why the block could not be used, when it could not. */
  error: string | null;
}

const DELIM = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Values a block may expand to beyond its own length. Without aliases a value takes at least a
 * character of the block; an alias repeats a whole part of it, so ten lines of nested aliases
 * (a "billion laughs") stand for billions of values that copying them would build.
 */
const ALIAS_GROWTH = 10_000;

class TooLarge extends Error {}

/** Dates come back from js-yaml as Date objects; periods are civil dates, so turn them back. */
function normalise(v: unknown, budget: { left: number }): FrontmatterValue {
  // js-yaml hands an alias back as the same object again: copying it copies it once per use.
  if (--budget.left < 0) throw new TooLarge();
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString().slice(0, 10);
  if (Array.isArray(v)) return v.map((x) => normalise(x, budget));
  if (v !== null && typeof v === 'object') {
    const o: Record<string, FrontmatterValue> = {};
    for (const [k, x] of Object.entries(v)) o[k] = normalise(x, budget);
    return o;
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null) return v;
  return String(v);
}

/**
 * Splits a document into frontmatter and body. A block counts only when the first line is
 * `---` and a closing `---` follows; an unclosed `---` is a thematic break, and the text stays
 * body (gray-matter alone would swallow the whole file).
 */
export function splitFrontmatter(text: string): SplitDocument {
  const at = locate(text);
  if (at.yaml === null) return { data: null, body: at.body, bodyLineOffset: 0, error: null };
  const { yaml, body, bodyLineOffset: offset } = at;
  let parsed: unknown;
  try {
    parsed = parseYaml(yaml);
  } catch (err) {
    const msg = (err as Error).message.split('\n')[0] ?? String(err);
    return { data: null, body, bodyLineOffset: offset, error: `malformed frontmatter (${msg})` };
  }
  if (yaml.trim() === '') return { data: {}, body, bodyLineOffset: offset, error: null };
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { data: null, body, bodyLineOffset: offset, error: 'frontmatter is not a key: value mapping' };
  }
  const limit = yaml.length + ALIAS_GROWTH;
  try {
    return { data: normalise(parsed, { left: limit }) as FrontmatterData, body, bodyLineOffset: offset, error: null };
  } catch (err) {
    if (!(err instanceof TooLarge)) throw err;
    return { data: null, body, bodyLineOffset: offset, error: `frontmatter too large: its aliases expand to more than ${limit} values` };
  }
}

/** A document's body, as splitFrontmatter returns it, without parsing the frontmatter. */
export function documentBody(text: string): { body: string; bodyLineOffset: number } {
  const at = locate(text);
  return { body: at.body, bodyLineOffset: at.yaml === null ? 0 : at.bodyLineOffset };
}

/** A document's frontmatter block as text, without parsing it; null when it has none. */
export function frontmatterYaml(text: string): string | null {
  return locate(text).yaml;
}

/** Where the frontmatter block and the body are (yaml null: no block). */
function locate(text: string): { yaml: string | null; body: string; bodyLineOffset: number } {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstEnd = lineEnd(src, 0);
  if (firstEnd.next >= src.length || !DELIM.test(src.slice(0, firstEnd.end))) return { yaml: null, body: src, bodyLineOffset: 0 };
  // Find the closing delimiter, keeping exact offsets so the body is returned byte for byte.
  let pos = firstEnd.next;
  let lineNo = 1;
  let close: { start: number; next: number } | null = null;
  while (pos < src.length) {
    const e = lineEnd(src, pos);
    lineNo++;
    if (CLOSE.test(src.slice(pos, e.end))) {
      close = { start: pos, next: e.next };
      break;
    }
    pos = e.next;
  }
  if (!close) return { yaml: null, body: src, bodyLineOffset: 0 };
  return { yaml: src.slice(firstEnd.next, close.start).replace(/\r\n?/g, '\n'), body: src.slice(close.next), bodyLineOffset: lineNo };
}

/** End of the line starting at `from` (before its terminator) and the start of the next. */
function lineEnd(s: string, from: number): { end: number; next: number } {
  const nl = s.indexOf('\n', from);
  if (nl === -1) return { end: s.length, next: s.length };
  return { end: nl > from && s.charCodeAt(nl - 1) === 13 ? nl - 1 : nl, next: nl + 1 };
}

// ---- writing ----------------------------------------------------------------------------

const PLAIN_SAFE = /^[A-Za-z0-9_./][A-Za-z0-9 _./@+()\-[\],']*$/;
const RESERVED = /^(?:true|false|yes|no|on|off|null|~|y|n)$/i;

function scalar(v: string | number | boolean | null, inFlow: boolean): string {
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const risky =
    !PLAIN_SAFE.test(v) ||
    RESERVED.test(v) ||
    (/^[-+]?\d/.test(v) && !/^\d{4}-(?:\d{2}(?:-\d{2})?|W\d{2})$/.test(v)) ||
    /\s$/.test(v) ||
    v.includes(': ') ||
    v.includes(' #');
  const flowRisky = inFlow && /[[\],{}]/.test(v);
  return risky || flowRisky ? JSON.stringify(v) : v;
}

function emit(key: string, value: FrontmatterValue, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    const simple = value.every((x) => x === null || typeof x !== 'object');
    const flow = simple ? `[${value.map((x) => scalar(x as string, true)).join(', ')}]` : '';
    if (simple && flow.length + key.length < 100 && value.every((x) => typeof x !== 'string' || !/[[\]]/.test(x))) {
      out.push(`${indent}${key}: ${flow}`);
      return;
    }
    if (value.length === 0) {
      out.push(`${indent}${key}: []`);
      return;
    }
    out.push(`${indent}${key}:`);
    for (const x of value) {
      if (x !== null && typeof x === 'object' && !Array.isArray(x)) {
        const entries = Object.entries(x);
        entries.forEach(([k, v], idx) => {
          const sub: string[] = [];
          emit(scalar(k, false), v, `${indent}    `, sub);
          sub[0] = `${indent}  ${idx === 0 ? '- ' : '  '}${sub[0]!.trimStart()}`;
          out.push(...sub);
        });
      } else {
        out.push(`${indent}  - ${scalar(x as string, false)}`);
      }
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) {
      out.push(`${indent}${key}: {}`);
      return;
    }
    out.push(`${indent}${key}:`);
    for (const [k, v] of entries) emit(scalar(k, false), v, `${indent}  `, out);
    return;
  }
  out.push(`${indent}${key}: ${scalar(value, false)}`);
}

/** Renders a frontmatter block (with delimiters and trailing newline), keys in the given order. */
export function renderFrontmatter(data: FrontmatterData): string {
  const out: string[] = ['---'];
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined) continue;
    emit(scalar(k, false), v, '', out);
  }
  out.push('---');
  return out.join('\n') + '\n';
}

// ---- typed reads ------------------------------------------------------------------------

export function fmString(data: FrontmatterData | null, key: string): string | null {
  const v = data?.[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return null;
}

/** A list that may be written as a YAML list or as one comma-separated string. */
export function fmList(data: FrontmatterData | null, key: string): string[] {
  const v = data?.[key];
  if (Array.isArray(v))
    return v
      .filter((x) => x !== null && typeof x !== 'object')
      .map(String)
      .map((s) => s.trim())
      .filter(Boolean);
  if (typeof v === 'string') return splitTopLevelCommas(v);
  return [];
}

/** Splits `a [x], b [y, z]` on commas outside brackets. */
export function splitTopLevelCommas(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '[' || ch === '(') depth++;
    else if ((ch === ']' || ch === ')') && depth > 0) depth--;
    if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

export function fmMap(data: FrontmatterData | null, key: string): Record<string, FrontmatterValue> {
  const v = data?.[key];
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
}
