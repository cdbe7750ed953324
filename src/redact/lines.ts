// Redaction for texts whose shape must survive: files whose line numbers are reported (the
// index, `get`), and structured values written as JSON (.hipo/ state, --json output), where
// each string is redacted on its own so that the JSON stays valid.
import { redactedCount, type Redactor } from './redactor.js';

function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Redacts `text`, keeping every line where it was. Redaction may replace a multi-line value (a
 * PEM block) with a one-line marker; the lost lines are put back as blank lines.
 */
export function redactKeepingLines(redactor: Redactor, text: string): { text: string; redacted: number } {
  const whole = redactor.redact(text);
  const count = redactedCount(whole);
  if (count === 0 || newlines(whole.text) === newlines(text)) return { text: whole.text, redacted: count };
  // Some value spanned lines. Redact paragraph by paragraph (no rule spans a blank line) and pad
  // each paragraph back to its line count, so only lines inside that paragraph move.
  const parts = text.split(/(\n[ \t]*\n)/);
  let redacted = 0;
  const out = parts.map((part, i) => {
    if (i % 2 === 1) return part;
    const r = redactor.redact(part);
    redacted += redactedCount(r);
    const missing = newlines(part) - newlines(r.text);
    return missing > 0 ? r.text + '\n'.repeat(missing) : r.text;
  });
  return { text: out.join(''), redacted };
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
