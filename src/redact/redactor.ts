// Secret redaction: the one module every text passes before hipo writes it outside the raw logs,
// sends it to an endpoint, stores it in .hipo/ or returns it from a command or an MCP tool.
// Only the value is replaced, by `[REDACTED:<kind>]`; keys and the sentence around it stay:
// `API_KEY=[REDACTED:api-key]`, "deploy key is [REDACTED:aws-access-key]".
//
// Rules: hipo's own (rules/hipo.ts) plus the workspace's `redactPatterns`. A rule runs only on
// text holding one of its keywords; every candidate then passes the rule's context checks.
// Candidates of all rules are found on the original text and merged, so one rule's marker never
// feeds another rule.
import { isPlaceholder } from './entropy.js';
import { KeywordScanner } from './keywords.js';
import type { Candidate, ScannerRule } from './rule.js';
import { HIPO_RULES } from './rules/hipo.js';

export interface Redaction {
  text: string;
  /** How many values were replaced, by kind. */
  counts: Record<string, number>;
}

export interface Finding {
  start: number;
  end: number;
  kind: string;
}

class CompiledRule {
  private re: RegExp | null = null;

  constructor(
    readonly spec: ScannerRule,
    readonly order: number,
    private readonly flags: string,
  ) {}

  regex(): RegExp {
    this.re ??= new RegExp(this.spec.regex, this.flags);
    return this.re;
  }
}

const MEMO_MIN = 4096;
const MEMO_MAX_CHARS = 8 * 1024 * 1024;
const IDENT = /[\w.-]/;
const MARKER = /\[REDACTED(?::[a-z0-9-]*)?\]?/;
const marker = (kind: string): string => `[REDACTED:${kind}]`;

function markerSpans(text: string): [number, number][] {
  if (!text.includes('[REDACTED')) return [];
  return [...text.matchAll(/\[REDACTED(?::[a-z0-9-]*)?\]/g)].map((m) => [m.index, m.index + m[0].length]);
}

function lineOf(text: string, start: number, end: number): string {
  const a = text.lastIndexOf('\n', start - 1) + 1;
  const b = text.indexOf('\n', end);
  return text.slice(a, b === -1 ? text.length : b);
}

/** The index of the group holding the secret: the rule's, else the first that matched, else 0. */
function secretGroup(m: RegExpExecArray, rule: ScannerRule): number {
  if (rule.secretGroup !== undefined) return m[rule.secretGroup] === undefined ? 0 : rule.secretGroup;
  for (let g = 1; g < m.length; g++) if (m[g]) return g;
  return 0;
}

export class Redactor {
  private readonly rules: CompiledRule[];
  /** Rules by keyword; a rule with no keywords runs on every text. */
  private readonly byKeyword: CompiledRule[][] = [];
  private readonly keywords: KeywordScanner;
  private readonly always: CompiledRule[] = [];

  constructor(extraPatterns: readonly string[] = []) {
    const specs: { spec: ScannerRule; flags: string }[] = [
      ...HIPO_RULES.map((spec) => ({ spec, flags: spec.ignoreCase ? 'gdi' : 'gd' })),
      // A workspace's own patterns are redacted whole (their groups are the user's business).
      ...extraPatterns.map((p, i) => ({ spec: { id: `custom-${i + 1}`, regex: p, keywords: [], secretGroup: 0 }, flags: 'gd' })),
    ];
    this.rules = specs.map((s, i) => new CompiledRule(s.spec, i, s.flags));
    const words = new Map<string, number>();
    for (const r of this.rules) {
      if (!r.spec.keywords.length) this.always.push(r);
      for (const k of r.spec.keywords) {
        let i = words.get(k);
        if (i === undefined) {
          words.set(k, (i = words.size));
          this.byKeyword.push([]);
        }
        this.byKeyword[i]!.push(r);
      }
    }
    this.keywords = new KeywordScanner([...words.keys()]);
  }

  /** The rules whose keywords occur in `text`, in rule order. */
  private candidates(text: string): CompiledRule[] {
    const hit = new Set<CompiledRule>(this.always);
    for (const i of this.keywords.scan(text)) for (const r of this.byKeyword[i]!) hit.add(r);
    return [...hit].sort((a, b) => a.order - b.order);
  }

  /** Every secret in `text`, merged where they overlap, in text order. */
  find(text: string): Finding[] {
    if (!text) return [];
    const found: (Finding & { order: number })[] = [];
    const markers = markerSpans(text);
    for (const rule of this.candidates(text)) {
      if (rule.spec.minLength && text.length < rule.spec.minLength) continue;
      const re = rule.regex();
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0] === '') {
          re.lastIndex++;
          continue;
        }
        const g = secretGroup(m, rule.spec);
        const secret = m[g]!;
        const [start, end] = m.indices![g]!;
        // A marker of an earlier redaction is not a secret: redacting twice changes nothing.
        if (markers.length && markers.some(([a, b]) => start < b && end > a)) continue;
        let matchStart = m.index;
        if (rule.spec.prefix) for (const stop = Math.max(0, m.index - rule.spec.prefix); matchStart > stop && IDENT.test(text[matchStart - 1]!); ) matchStart--;
        const kind = this.accepts(rule, secret, { match: text.slice(matchStart, m.index + m[0].length), matchStart, text, start, end, line: '' });
        if (kind === false) {
          // What looked like the value may hold the real match (`PGPASSWORD: PGPASSWORD=…`).
          re.lastIndex = Math.max(m.index + 1, start);
          continue;
        }
        found.push({ start, end, kind: kind === true ? rule.spec.id : kind, order: rule.order });
      }
    }
    found.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
    const merged: Finding[] = [];
    for (const f of found) {
      const last = merged[merged.length - 1];
      if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
      else merged.push({ start: f.start, end: f.end, kind: f.kind });
    }
    return merged;
  }

  private accepts(rule: CompiledRule, secret: string, at: Candidate): boolean | string {
    const spec = rule.spec;
    if (spec.id.startsWith('custom-')) return true;
    if (MARKER.test(secret) || isPlaceholder(secret)) return false;
    if (spec.accept) {
      at.line = lineOf(at.text, at.start, at.end);
      return spec.accept(secret, at);
    }
    return true;
  }

  /**
   * Redactions of large texts, by text: the daemon redacts the same unchanged nodes cycle after
   * cycle (a week's days for its weekly node). Bounded by the characters it holds.
   */
  private readonly memo = new Map<string, Redaction>();
  private memoChars = 0;

  redact(text: string): Redaction {
    if (text.length < MEMO_MIN) return this.redactNow(text);
    const hit = this.memo.get(text);
    if (hit) return { text: hit.text, counts: { ...hit.counts } };
    const r = this.redactNow(text);
    this.memoChars += text.length;
    for (const [k] of this.memo) {
      if (this.memoChars <= MEMO_MAX_CHARS) break;
      this.memo.delete(k);
      this.memoChars -= k.length;
    }
    if (text.length <= MEMO_MAX_CHARS) this.memo.set(text, r);
    else this.memoChars -= text.length;
    return { text: r.text, counts: { ...r.counts } };
  }

  private redactNow(text: string): Redaction {
    const counts: Record<string, number> = {};
    const found = this.find(text);
    if (!found.length) return { text, counts };
    let out = '';
    let at = 0;
    for (const f of found) {
      out += text.slice(at, f.start) + marker(f.kind);
      at = f.end;
      counts[f.kind] = (counts[f.kind] ?? 0) + 1;
    }
    return { text: out + text.slice(at), counts };
  }
}

/** How many values a redaction replaced. */
export function redactedCount(r: Redaction): number {
  let n = 0;
  for (const k in r.counts) n += r.counts[k]!;
  return n;
}
