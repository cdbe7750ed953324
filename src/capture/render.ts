// Writing turns and typed entries in the raw-log format the summarizer reads:
//   ## Conversation [project] · 14:05 · session 3f2a9c1d
//   User: …
//   Assistant: …
//   - Edit: src/auth/login.ts
// The heading's topic ("Conversation") is generic on purpose: the summarizer names such a
// section by what the user talked about. Time and session id are metadata after ` · `.
import type { LocalDate } from '../time/calendar.js';
import { zonedParts } from '../time/calendar.js';
import type { Turn } from './turns.js';
import { sliceWhole } from '../text/slice.js';
import { withoutControls } from '../text/controls.js';

const FENCE = /^( {0,3})(`{3,}|~{3,})/;
const NEEDS_ESCAPE = /^( {0,3})(#{1,6}(?:[ \t]|$)|<!--|(?:=+|-+)[ \t]*$)/;

/**
 * Makes free text safe to embed in a raw log: it may not open a section (`## …`), swallow the
 * rest of the file (an unclosed code fence or HTML comment) or turn the line above into a
 * heading (a setext underline). Text inside code fences is left as written.
 */
function containMarkdown(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[2]![0] === fence[0] && f[2]!.length >= fence.length && line.trim() === f[2]) fence = null;
      continue;
    }
    if (f) {
      fence = f[2]!;
      continue;
    }
    const m = NEEDS_ESCAPE.exec(line);
    if (m) lines[i] = `${m[1]}\\${line.slice(m[1]!.length)}`;
  }
  if (fence) lines.push(fence);
  return lines.join('\n');
}

function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${sliceWhole(text, 0, max).replace(/\s+\S*$/, '')} … [${(text.length - max).toLocaleString('en-US')} characters not kept]`;
}

export interface TurnContext {
  /** The raw log's date: a turn on a later day shows its own date. */
  fileDate: LocalDate;
  timeZone: string;
  sessionShort: string;
  maxChars: number;
}

function stamp(ts: string | null, ctx: TurnContext): string | null {
  if (!ts) return null;
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return null;
  const p = zonedParts(d, ctx.timeZone);
  const hm = p.time.slice(0, 5);
  return p.date === ctx.fileDate ? hm : `${p.date} ${hm}`;
}

/** `## Conversation [project] · 14:05 · session 3f2a9c1d` (`, continued` for a continuation). */
function turnHeading(turn: Turn, ctx: TurnContext): string {
  const parts = ['## Conversation [project]'];
  const when = stamp(turn.timestamp, ctx);
  if (when) parts.push(when);
  parts.push(`session ${ctx.sessionShort}${turn.continued ? ', continued' : ''}`);
  return parts.join(' · ');
}

function toolLine(name: string, detail: string | null): string {
  const d = detail ? detail.replace(/\s+/g, ' ').trim() : '';
  return d ? `- ${name}: ${clipText(d, 300)}` : `- ${name}`;
}

/**
 * One turn as a raw-log entry, ending with a blank line. Without control characters (a NUL in
 * a prompt would make the whole day's log unreadable), removed before the caller redacts.
 */
export function renderTurn(turn: Turn, ctx: TurnContext): string {
  const out: string[] = [turnHeading(turn, ctx), ''];
  let inTools = false;
  for (const p of turn.parts) {
    if (p.kind === 'tool') {
      out.push(toolLine(p.call.name, p.call.detail));
      inTools = true;
      continue;
    }
    if (inTools) out.push('');
    inTools = false;
    const label = p.kind === 'user' ? 'User' : 'Assistant';
    out.push(`${label}: ${containMarkdown(clipText(p.text, ctx.maxChars))}`, '');
  }
  if (inTools) out.push('');
  return withoutControls(out.join('\n'));
}

/** `## Deploy checklist [feedback] · 14:05` then the text as bullets, without control characters (as a turn). */
export function renderLogEntry(opts: { topic: string; type: string; time: string; text: string }): string {
  const topic =
    withoutControls(opts.topic)
      .replace(/[\r\n#[\]]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'Note';
  const heading = `## ${topic} [${opts.type}] · ${opts.time}`;
  // Each line of prose becomes a bullet; lists, indented lines and code stay as written.
  let fenced = false;
  const body = containMarkdown(withoutControls(opts.text).trim())
    .split('\n')
    .map((l) => {
      if (FENCE.test(l)) {
        fenced = !fenced;
        return l;
      }
      if (fenced || l.trim() === '' || /^\s*(?:[-*+]|\d+[.)])\s/.test(l) || /^\s/.test(l)) return l;
      return `- ${l}`;
    })
    .join('\n');
  return `${heading}\n${body}\n\n`;
}
