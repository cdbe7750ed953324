// Secrets never enter the index: every file is redacted before it is chunked. Redaction may
// replace a multi-line value (a PEM block) with a one-line marker; the index reports line ranges
// of the file on disk, so the lost lines are put back as blank lines.
import type { Redactor } from '../summarize/redact.js';

function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Redacts `text`, keeping every line where it was. */
export function redactKeepingLines(redactor: Redactor, text: string): { text: string; redacted: number } {
  const whole = redactor.redact(text);
  const count = Object.values(whole.counts).reduce((a, b) => a + b, 0);
  if (count === 0 || newlines(whole.text) === newlines(text)) return { text: whole.text, redacted: count };
  // Some value spanned lines. Redact paragraph by paragraph (no rule spans a blank line) and pad
  // each paragraph back to its line count, so only lines inside that paragraph move.
  const parts = text.split(/(\n[ \t]*\n)/);
  let redacted = 0;
  const out = parts.map((part, i) => {
    if (i % 2 === 1) return part;
    const r = redactor.redact(part);
    redacted += Object.values(r.counts).reduce((a, b) => a + b, 0);
    const missing = newlines(part) - newlines(r.text);
    return missing > 0 ? r.text + '\n'.repeat(missing) : r.text;
  });
  return { text: out.join(''), redacted };
}
