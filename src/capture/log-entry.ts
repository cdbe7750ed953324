// `hipo log`: a typed entry appended to today's raw log, the same way captured turns are
// (append lock, one O_APPEND write, redacted first).
import type { HipoConfig } from '../config/config.js';
import type { Clock } from '../time/clock.js';
import { zonedParts } from '../time/calendar.js';
import type { MemoryType, Workspace } from '../tree/layout.js';
import { redactorFor } from '../redact/workspace.js';
import { appendRawEntry, withAppendLock } from '../write/raw-append.js';
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

export async function appendTypedEntry(ws: Workspace, config: HipoConfig, clock: Clock, input: LogEntryInput): Promise<LoggedEntry> {
  const time = zonedParts(clock.instant, config.timeZone).time.slice(0, 5);
  const entry = renderLogEntry({ topic: input.topic ?? 'Note', type: input.type, time, text: input.text });
  const r = redactorFor(config.redactPatterns).redact(entry);
  const redacted = Object.values(r.counts).reduce((a, b) => a + b, 0);
  const done = await withAppendLock(ws, (lock) => appendRawEntry(ws, clock.today, r.text, lock));
  return { rel: done.rel, heading: r.text.split('\n')[0]!, bytes: done.bytes, redacted };
}
