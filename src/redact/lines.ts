// Redaction for texts whose shape must survive: files whose line numbers are reported (the
// index, `get`), and structured values written as JSON (.hipo/ state, --json output), where
// each string is redacted on its own so that the JSON stays valid.
import { redactedCount, type Redactor } from './redactor.js';
import { redactorFor } from './workspace.js';

/**
 * Redacts `text`, keeping every line where it was: a value that spans lines (a private key
 * block) becomes its marker followed by blank lines.
 */
export function redactKeepingLines(redactor: Redactor, text: string): { text: string; redacted: number } {
  const r = redactor.redact(text, { keepLines: true });
  return { text: r.text, redacted: redactedCount(r) };
}

/**
 * `redactKeepingLines` as a function of text, with hipo's rules and `patterns`: for readers that
 * cut a file into passages, which must be cut from the redacted text (a passage that starts
 * inside a key block leaves its body to a later redaction that no longer sees the block).
 */
export function linesRedactor(patterns: readonly string[]): (text: string) => string {
  const redactor = redactorFor(patterns);
  return (text) => redactKeepingLines(redactor, text).text;
}

/** A JSON-like value with every string in it (keys too) redacted. */
export function redactValue<T>(redactor: Redactor, value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactor.redact(v).text;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[redactor.redact(k).text] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * Output that may be a JSON document (what `--json` prints) or plain text: a JSON document is
 * redacted value by value and printed again with the same indent, anything else as text.
 */
export function redactOutput(redactor: Redactor, text: string): string {
  const t = text.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      const indent = /^[{[]\n( +)/.exec(t)?.[1]?.length;
      return JSON.stringify(redactValue(redactor, parsed), null, indent) + (text.endsWith('\n') ? '\n' : '');
    } catch {
      // not JSON: plain text
    }
  }
  return redactor.redact(text).text;
}
