// The journal: one JSON line per decision a cycle applied, and one per cycle, appended to
// `.hipo/journal.jsonl`. `status` and the daemon read it; nothing needs it to read the tree.
import { appendFileSync, closeSync, fstatSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import type { Workspace } from '../tree/layout.js';
import { ensureStateDir, statePath } from './dir.js';
import { redactValue } from '../redact/lines.js';
import type { Redactor } from '../redact/redactor.js';
import { workspaceRedactor } from '../redact/workspace.js';
import { rewriteRedacted } from './redaction.js';

export interface ActionRecord {
  type: 'action';
  cycle: string;
  at: string;
  node: string;
  action: string;
  status: string;
  reason: string;
  mode?: string;
  summarizer?: string;
  inputHash?: string;
  outputHash?: string;
  bytes?: number;
  wrote: boolean;
  ms: number;
  model?: string;
  tokensIn?: number;
  tokensOut?: number;
  latencyMs?: number;
  /** The model's answer came from the cache (`.hipo/llm-cache/`): no call, no cost. */
  cached?: boolean;
  fallback?: string;
  /** The node was edited by hand and regenerated: where the edited version was saved. */
  handEdit?: string;
  error?: string;
}

export interface CycleRecord {
  type: 'cycle';
  cycle: string;
  at: string;
  today: string;
  command: string;
  actions: number;
  written: number;
  deferred: number;
  errors: string[];
  warnings: number;
  ms: number;
}

export type JournalRecord = ActionRecord | CycleRecord | ({ type: string } & Record<string, unknown>);

function journalPath(ws: Workspace): string {
  return statePath(ws, 'journal');
}

/** Past this size the journal is rotated to `journal.1.jsonl` (one generation kept). */
const JOURNAL_ROTATE_BYTES = 16 * 1024 * 1024;

export function appendJournal(ws: Workspace, records: readonly JournalRecord[]): void {
  if (records.length === 0) return;
  ensureStateDir(ws);
  const file = journalPath(ws);
  try {
    if (statSync(file).size > JOURNAL_ROTATE_BYTES) renameSync(file, statePath(ws, 'journalRotated'));
  } catch {
    /* no journal yet */
  }
  // One write per batch: O_APPEND keeps concurrent writers' lines whole.
  // Warnings and errors may quote what they failed on (a YAML error shows the line): redacted.
  const redactor = workspaceRedactor(ws);
  appendFileSync(journalPath(ws), records.map((r) => JSON.stringify(redactValue(redactor, r))).join('\n') + '\n');
}

/** The last records of the journal, reading at most `maxBytes` from its end. */
export function readJournalTail(ws: Workspace, maxBytes = 256 * 1024): JournalRecord[] {
  let fd: number;
  try {
    fd = openSync(journalPath(ws), 'r');
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buf = Buffer.alloc(size - start);
    readSync(fd, buf, 0, buf.length, start);
    const lines = buf.toString('utf8').split('\n');
    if (start > 0) lines.shift(); // partial first line
    const out: JournalRecord[] = [];
    for (const l of lines) {
      if (!l.trim()) continue;
      try {
        out.push(JSON.parse(l) as JournalRecord);
      } catch {
        /* a torn line from a crash: skip it */
      }
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/**
 * Brings both journal files up to `redactor`'s rules, once after the rules changed: a record is
 * redacted as it is appended, by the rules in force then. Returns the state-relative names of the
 * files written again. Throws when one cannot be.
 */
export function reredactJournal(ws: Workspace, redactor: Redactor): string[] {
  return (['journal', 'journalRotated'] as const).flatMap((what) =>
    rewriteRedacted(statePath(ws, what), (text) => redactJournalText(redactor, text)) ? [statePath(ws, what)] : [],
  );
}

/** Journal lines redacted value by value, as appendJournal redacts them; a line left as it was when nothing in it changes. */
function redactJournalText(redactor: Redactor, text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.trim()) return line;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        // A torn line from a crash: its text.
        return redactor.redact(line).text;
      }
      const redacted = JSON.stringify(redactValue(redactor, record));
      return redacted === JSON.stringify(record) ? line : redacted;
    })
    .join('\n');
}
