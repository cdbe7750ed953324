// Secret redaction: the one module every text passes before hipo writes it outside the raw logs,
// sends it to an endpoint, stores it in .hipo/ or returns it from a command or an MCP tool.
// Only the value is replaced, by `[REDACTED:<kind>]`; keys and the sentence around it stay:
// `API_KEY=[REDACTED:api-key]`, "deploy key is [REDACTED:aws-access-key]".
//
// Rules: secretlint's recommended preset (rules/secretlint.ts), hipo's own rules for what people
// write in notes and transcripts (rules/hipo.ts), and the workspace's `redactPatterns`. One scan
// of the text finds where the rules' keywords are; a preset rule then runs only on a text holding
// one of its keywords, and a hipo rule only where its keyword is (or on its line, or on a long
// token), never over the whole text. Candidates of all rules are found on the original text and
// merged, so one rule's marker never feeds another rule.
import { createHash } from 'node:crypto';
import { isMixedRandom, isPlaceholder } from './entropy.js';
import { KeywordScanner, tokenRuns } from './keywords.js';
import type { Candidate, ScannerRule } from './rule.js';
import { HIPO_RULES } from './rules/hipo.js';
import { SecretlintRules } from './rules/secretlint.js';
import { valueSpan } from './values.js';
import { builtinRulesKey, rulesDigest } from './rules-key.js';

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

export interface RedactorOptions {
  /**
   * Run every rule over every whole text instead of only where its keywords are: much slower;
   * for checking that the keyword prefilters lose nothing.
   */
  exhaustive?: boolean;
}

type Found = Finding & { order: number };

class CompiledRule {
  private global: RegExp | null = null;
  private sticky: RegExp | null = null;

  constructor(
    readonly spec: ScannerRule,
    readonly order: number,
  ) {}

  get anchor(): NonNullable<ScannerRule['anchor']> {
    return this.spec.anchor ?? (this.spec.keywords.length ? 'keyword' : 'text');
  }

  /** The regex for scanning a text (`g`) or for trying one position (`y`). */
  regex(sticky = false): RegExp {
    const flags = (sticky ? 'yd' : 'gd') + (this.spec.ignoreCase ? 'i' : '');
    if (sticky) return (this.sticky ??= new RegExp(this.spec.regex, flags));
    return (this.global ??= new RegExp(this.spec.regex, flags));
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

/** The index of the group holding the secret: the rule's, else the first that matched, else 0. */
function secretGroup(m: RegExpExecArray, rule: ScannerRule): number {
  if (rule.secretGroup !== undefined) return m[rule.secretGroup] === undefined ? 0 : rule.secretGroup;
  for (let g = 1; g < m.length; g++) if (m[g]) return g;
  return 0;
}

/** Findings in text order, merged where they overlap. */
function merge(found: Found[]): Finding[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  const merged: Finding[] = [];
  for (const f of found) {
    const last = merged[merged.length - 1];
    if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
    else merged.push({ start: f.start, end: f.end, kind: f.kind });
  }
  return merged;
}

/** A line that is one token and nothing else (a bullet before it aside). */
const LONE_TOKEN = /^[ \t]*(?:[-*>][ \t]+)?([A-Za-z0-9+/=_-]{10,})[ \t]*\r?$/;

/**
 * The rest of a secret that a line break cut in two: a line that is nothing but a random token
 * (both cases and digits), right after a line that ends with a secret, is redacted as that
 * secret, and so is a line after it that is one too. Only such lines: a word, a number or a
 * sentence there is the text going on.
 */
function continuations(text: string, found: readonly Finding[]): Found[] {
  const out: Found[] = [];
  const lineEnd = /[ \t\r]*\n/y;
  for (const f of found) {
    let end = f.end;
    for (;;) {
      lineEnd.lastIndex = end;
      if (!lineEnd.test(text)) break;
      const nl = lineEnd.lastIndex - 1;
      const next = text.indexOf('\n', nl + 1);
      const stop = next === -1 ? text.length : next;
      if (stop - nl > 200) break;
      const line = text.slice(nl + 1, stop);
      const m = LONE_TOKEN.exec(line);
      if (!m || !isMixedRandom(m[1]!, 3)) break;
      const start = nl + 1 + line.indexOf(m[1]!);
      end = start + m[1]!.length;
      out.push({ start, end, kind: f.kind, order: 1 });
    }
  }
  return out;
}

/** One text being searched: what was found so far. */
interface Search {
  text: string;
  markers: [number, number][];
  found: Found[];
}

export class Redactor {
  /** hipo's rules, then the workspace's patterns. */
  private readonly rules: CompiledRule[];
  private readonly preset = new SecretlintRules();
  private readonly scanner: KeywordScanner;
  /** By keyword index: hipo's rules found by it, and the preset rules (indexes) it lets run. */
  private readonly rulesByWord: CompiledRule[][] = [];
  private readonly presetByWord: number[][] = [];
  private readonly tokenRules: CompiledRule[];
  /** The shortest match of a token rule. */
  private readonly minToken: number;
  private readonly textRules: CompiledRule[];
  private readonly exhaustive: boolean;
  /** A digest of the workspace's patterns: equal for redactors that apply the same rules. */
  readonly patternsKey: string;
  private rulesKeyMemo: string | null = null;

  /**
   * A digest of every rule applied: the built-in ones (their code, secretlint's preset version)
   * and the workspace's patterns. Another one means texts redacted before may hold a secret now found.
   * Made when first asked (reading the redactor's modules costs ~14 ms): only compaction, the
   * index and the stamp cache ask, not a hook redacting a prompt.
   */
  get rulesKey(): string {
    this.rulesKeyMemo ??= rulesDigest(builtinRulesKey(), this.patternsKey);
    return this.rulesKeyMemo;
  }

  constructor(extraPatterns: readonly string[] = [], options: RedactorOptions = {}) {
    this.exhaustive = options.exhaustive ?? false;
    this.patternsKey = createHash('sha256').update(JSON.stringify(extraPatterns)).digest('base64url').slice(0, 16);
    const specs: ScannerRule[] = [
      ...HIPO_RULES,
      // A workspace's own patterns are redacted whole (their groups are the user's business).
      ...extraPatterns.map((p, i) => ({ id: `custom-${i + 1}`, regex: p, keywords: [], secretGroup: 0 })),
    ];
    this.rules = specs.map((s, i) => new CompiledRule(s, i));
    this.tokenRules = this.rules.filter((r) => r.anchor === 'token');
    this.minToken = Math.min(Infinity, ...this.tokenRules.map((r) => r.spec.minLength ?? 1));
    this.textRules = this.rules.filter((r) => r.anchor === 'text');
    const words = new Map<string, number>();
    const wordIndex = (w: string): number => {
      let i = words.get(w);
      if (i === undefined) {
        words.set(w, (i = words.size));
        this.rulesByWord.push([]);
        this.presetByWord.push([]);
      }
      return i;
    };
    for (const r of this.rules) for (const k of r.spec.keywords) this.rulesByWord[wordIndex(k)]!.push(r);
    this.preset.rules.forEach((r, p) => {
      for (const k of r.keywords ?? []) this.presetByWord[wordIndex(k)]!.push(p);
    });
    this.scanner = new KeywordScanner([...words.keys()]);
  }

  /** Every secret in `text`, merged where they overlap, in text order. */
  find(text: string): Finding[] {
    if (!text) return [];
    const s: Search = { text, markers: markerSpans(text), found: [] };
    if (this.exhaustive) {
      for (const r of this.rules) this.scan(s, r, 0, text.length);
      this.addPreset(s, this.preset.run(text));
    } else {
      this.search(s);
    }
    const merged = merge(s.found);
    const more = continuations(text, merged);
    return more.length ? merge([...merged.map((f) => ({ ...f, order: 0 })), ...more]) : merged;
  }

  private search(s: Search): void {
    const text = s.text;
    // Made on the first keyword found: most texts (state files' strings) have none.
    let presetOn: boolean[] | null = null;
    // Per rule: the position last tried, and where its last accepted match ends (a keyword
    // inside it does not start another).
    let tried: Int32Array | null = null;
    let busyUntil: Int32Array | null = null;
    let lines: Map<CompiledRule, Set<number>> | null = null;
    this.scanner.scan(text, (w, at) => {
      for (const r of this.rulesByWord[w]!) {
        if (r.anchor === 'line') {
          lines ??= new Map();
          let set = lines.get(r);
          if (!set) lines.set(r, (set = new Set()));
          set.add(text.lastIndexOf('\n', at) + 1);
          continue;
        }
        tried ??= new Int32Array(this.rules.length).fill(-1);
        busyUntil ??= new Int32Array(this.rules.length);
        if (tried[r.order] === at || at < busyUntil[r.order]!) continue;
        tried[r.order] = at;
        const re = r.regex(true);
        re.lastIndex = at;
        const m = re.exec(text);
        if (m && this.consider(s, r, m, 0)) busyUntil[r.order] = m.index + m[0].length;
      }
      for (const p of this.presetByWord[w]!) (presetOn ??= this.preset.rules.map((r) => r.keywords === null))[p] = true;
    });
    // Assigned in the callback, which TypeScript's narrowing does not follow.
    const lineStarts = lines as Map<CompiledRule, Set<number>> | null;
    for (const [r, starts] of lineStarts ?? []) {
      for (const a of starts) {
        const b = text.indexOf('\n', a);
        this.scan(s, r, a, b === -1 ? text.length : b);
      }
    }
    for (const r of this.textRules) this.scan(s, r, 0, text.length);
    if (text.length >= this.minToken) {
      for (const [a, b] of tokenRuns(text, this.minToken)) {
        for (const r of this.tokenRules) if (b - a >= (r.spec.minLength ?? 1)) this.scan(s, r, a, b);
      }
    }
    // A rule a newer preset adds, without keywords here, runs on every text.
    if (!presetOn && this.preset.rules.some((r) => r.keywords === null)) presetOn = this.preset.rules.map((r) => r.keywords === null);
    const on = presetOn as boolean[] | null;
    if (on)
      this.addPreset(
        s,
        this.preset.run(text, (p) => on[p]!),
      );
  }

  /** Runs `rule` over `text[a, b)`. */
  private scan(s: Search, rule: CompiledRule, a: number, b: number): void {
    const part = a === 0 && b === s.text.length ? s.text : s.text.slice(a, b);
    const re = rule.regex();
    re.lastIndex = 0;
    for (let m = re.exec(part); m; m = re.exec(part)) {
      if (m[0] === '') {
        re.lastIndex++;
        continue;
      }
      // What looked like the value may hold the real match (`PGPASSWORD: PGPASSWORD=…`).
      if (!this.consider(s, rule, m, a)) re.lastIndex = Math.max(m.index + 1, m.indices![secretGroup(m, rule.spec)]![0]);
    }
  }

  /** Records the match `m` (found at `offset` in the text) if its value is a secret. */
  private consider(s: Search, rule: CompiledRule, m: RegExpExecArray, offset: number): boolean {
    const g = secretGroup(m, rule.spec);
    const secret = m[g]!;
    const start = m.indices![g]![0] + offset;
    const end = m.indices![g]![1] + offset;
    // A marker of an earlier redaction is not a secret: redacting twice changes nothing.
    if (s.markers.length && s.markers.some(([a, b]) => start < b && end > a)) return false;
    const text = s.text;
    const index = m.index + offset;
    let matchStart = index;
    if (rule.spec.prefix)
      for (const stop = Math.max(0, index - rule.spec.prefix); matchStart > stop && IDENT.test(text[matchStart - 1]!); ) matchStart--;
    const kind = this.accepts(rule, secret, { match: text.slice(matchStart, index + m[0].length), matchStart, text, start, end });
    if (kind === false) return false;
    s.found.push({ start, end, kind: kind === true ? rule.spec.id : kind, order: rule.order });
    return true;
  }

  private accepts(rule: CompiledRule, secret: string, at: Candidate): boolean | string {
    const spec = rule.spec;
    if (spec.id.startsWith('custom-')) return true;
    if (MARKER.test(secret) || isPlaceholder(secret)) return false;
    return spec.accept ? spec.accept(secret, at) : true;
  }

  private addPreset(s: Search, findings: ReturnType<SecretlintRules['run']>): void {
    for (const f of findings) {
      const v = valueSpan(s.text, f);
      if (s.markers.some(([a, b]) => v.start < b && v.end > a)) continue;
      s.found.push({ ...v, order: this.rules.length });
    }
  }

  /**
   * What was found in large texts, by text: the daemon redacts the same unchanged nodes cycle
   * after cycle (a week's days for its weekly node). Bounded by the characters it holds.
   */
  private readonly memo = new Map<string, Finding[]>();
  private memoChars = 0;

  private findRemembered(text: string): Finding[] {
    if (text.length < MEMO_MIN) return this.find(text);
    const hit = this.memo.get(text);
    if (hit) return hit;
    const found = this.find(text);
    if (text.length > MEMO_MAX_CHARS) return found;
    this.memo.set(text, found);
    this.memoChars += text.length;
    for (const [k] of this.memo) {
      if (this.memoChars <= MEMO_MAX_CHARS) break;
      this.memo.delete(k);
      this.memoChars -= k.length;
    }
    return found;
  }

  /**
   * `text` with every secret replaced by its marker. With `keepLines`, a value that spans lines
   * (a private key block) leaves its line breaks behind the marker, so every line after it keeps
   * its number.
   */
  redact(text: string, options: { keepLines?: boolean } = {}): Redaction {
    const counts: Record<string, number> = {};
    const found = this.findRemembered(text);
    if (!found.length) return { text, counts };
    let out = '';
    let at = 0;
    for (const f of found) {
      out += text.slice(at, f.start) + marker(f.kind);
      if (options.keepLines) for (let i = text.indexOf('\n', f.start); i !== -1 && i < f.end; i = text.indexOf('\n', i + 1)) out += '\n';
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
