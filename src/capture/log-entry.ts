// `hipo log`: a typed entry appended to today's raw log, the same way captured turns are
// (append lock, one O_APPEND write, redacted first).
import type { HipoConfig } from '../config/config.js';
import type { Clock } from '../time/clock.js';
import { zonedParts } from '../time/calendar.js';
import type { MemoryType, Workspace } from '../tree/layout.js';
import { contentWords, TermStats } from '../summarize/keywords.js';
import { topicName } from '../summarize/topic-name.js';
import { redactorFor } from '../redact/workspace.js';
import { appendRawEntry } from '../write/raw-append.js';
import { withAppendLock } from '../state/lock.js';
import { renderLogEntry } from './render.js';

export interface LogEntryInput {
  type: MemoryType;
  topic: string | null;
  text: string;
}

export interface LoggedEntry {
  rel: string;
  heading: string;
  bytes: number;
  redacted: number;
}

/**
 * A topic for an entry logged without one: named from its words the way the summarizer names
 * an untitled section (a heading a person can read in the raw log), or `Note` when nothing in
 * it reads as a name.
 */
function entryTopic(text: string): string {
  const stats = new TermStats();
  stats.addDocument(new Set(contentWords(text)));
  return topicName(text, stats) ?? 'Note';
}

export async function appendTypedEntry(ws: Workspace, config: HipoConfig, clock: Clock, input: LogEntryInput): Promise<LoggedEntry> {
  const time = zonedParts(clock.instant, config.timeZone).time.slice(0, 5);
  const redactor = redactorFor(config.redactPatterns);
  // Named from the redacted text: a heading never carries a secret.
  const topic = input.topic ?? entryTopic(redactor.redact(input.text).text.replace(/\[REDACTED:[\w-]+\]/g, ' '));
  const entry = renderLogEntry({ topic, type: input.type, time, text: input.text });
  const r = redactor.redact(entry);
  const redacted = Object.values(r.counts).reduce((a, b) => a + b, 0);
  const done = await withAppendLock(ws, (lock) => appendRawEntry(ws, clock.today, r.text, lock));
  return { rel: done.rel, heading: r.text.split('\n')[0]!, bytes: done.bytes, redacted };
}
