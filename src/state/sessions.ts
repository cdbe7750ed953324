// What hipo remembers about one agent session (`.hipo/sessions/<id>.json`): how far its
// transcript has been archived, the day of its current sitting (its raw log), and where its archived turns
// are, so that a restore after the platform's compaction can read them back without a search.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import type { LocalDate } from '../time/calendar.js';
import { parseLocalDate } from '../time/calendar.js';
import type { Workspace } from '../tree/layout.js';
import { ensureStateDir, stateRecords } from './dir.js';
import { sessionFile, sessionsDir } from './session-file.js';
import { atomicWriteFile } from '../fs/atomic.js';
import type { Redactor } from '../redact/redactor.js';
import { workspaceRedactor } from '../redact/workspace.js';
import { rewriteRedactedJson } from './redaction.js';

export interface ArchivedTurn {
  key: string;
  /** Raw log (memory-relative) and byte range of the entry. */
  file: string;
  at: number;
  bytes: number;
  /** The prompt, clipped: what restore ranks turns by. */
  prompt: string;
}

/** An append in flight: if the process died after writing, the next hook sees it happened. */
interface PendingAppend {
  file: string;
  at: number;
  bytes: number;
  hash: string;
  /** State to adopt when the append is found on disk. */
  offset: number;
  openTurn: string | null;
  /** Absent in a record an older hipo wrote, as the next two are. */
  lastSeenAt?: string | null;
  /** The raw log's day the turns went to (a resumed session's new sitting moves it on). */
  startDate?: string;
  turns: ArchivedTurn[];
}

export interface SessionState {
  version: 1;
  sessionId: string;
  transcript: string | null;
  /**
   * The day the session started, in the workspace's time zone: its turns go to this raw log.
   * A session resumed after a long pause on a later day moves it to that day (capture/sitting.ts).
   */
  startDate: LocalDate;
  /** Transcript bytes before this offset are archived (or were skipped as not worth keeping). */
  offset: number;
  /** Key of a turn archived in part: lines at `offset` continue it. */
  openTurn: string | null;
  /** Time of the latest transcript message before `offset`: a prompt long after it is a resumed session. */
  lastSeenAt: string | null;
  /** Turns archived so far. */
  archived: number;
  /** The latest archived turns (bounded), oldest first. */
  turns: ArchivedTurn[];
  /** The latest prompts the user sent (bounded), oldest first. */
  prompts: string[];
  pending: PendingAppend | null;
  updatedAt: string;
}

const KEPT_TURNS = 300;
const KEPT_PROMPTS = 8;

export function newSessionState(sessionId: string, startDate: LocalDate, transcript: string | null): SessionState {
  return {
    version: 1,
    sessionId,
    transcript,
    startDate,
    offset: 0,
    openTurn: null,
    lastSeenAt: null,
    archived: 0,
    turns: [],
    prompts: [],
    pending: null,
    updatedAt: new Date().toISOString(),
  };
}

export function loadSessionState(ws: Workspace, sessionId: string): SessionState | null {
  let parsed: Partial<SessionState>;
  try {
    parsed = JSON.parse(readFileSync(sessionFile(ws, sessionId), 'utf8')) as Partial<SessionState>;
  } catch {
    return null;
  }
  const startDate = typeof parsed.startDate === 'string' ? parseLocalDate(parsed.startDate) : null;
  if (parsed.version !== 1 || parsed.sessionId !== sessionId || !startDate || typeof parsed.offset !== 'number') return null;
  return {
    ...newSessionState(sessionId, startDate, parsed.transcript ?? null),
    offset: parsed.offset,
    openTurn: parsed.openTurn ?? null,
    lastSeenAt: typeof parsed.lastSeenAt === 'string' ? parsed.lastSeenAt : null,
    archived: parsed.archived ?? 0,
    turns: Array.isArray(parsed.turns) ? parsed.turns : [],
    prompts: Array.isArray(parsed.prompts) ? parsed.prompts : [],
    pending: parsed.pending ?? null,
    updatedAt: parsed.updatedAt ?? new Date().toISOString(),
  };
}

export function saveSessionState(ws: Workspace, s: SessionState): void {
  ensureStateDir(ws);
  mkdirSync(sessionsDir(ws), { recursive: true });
  atomicWriteFile(
    sessionFile(ws, s.sessionId),
    JSON.stringify({ ...redactPrompts(workspaceRedactor(ws), s), updatedAt: new Date().toISOString() }),
  );
}

/** The state with the user's words redacted: prompts are what it stores of the conversation. */
function redactPrompts(r: Redactor, s: SessionState): SessionState {
  const turns = (list: ArchivedTurn[]): ArchivedTurn[] =>
    list.map((t) => (typeof t.prompt === 'string' ? { ...t, prompt: r.redact(t.prompt).text } : t));
  return {
    ...s,
    turns: turns(s.turns),
    prompts: s.prompts.map((p) => (typeof p === 'string' ? r.redact(p).text : p)),
    pending: s.pending && Array.isArray(s.pending.turns) ? { ...s.pending, turns: turns(s.pending.turns) } : s.pending,
  };
}

/**
 * Brings every session's prompts up to `redactor`'s rules, once after the rules changed: they were
 * redacted by the rules in force when the session was saved. Its other fields (the session id,
 * the transcript's path, offsets) are what capture finds its place by, and hold nothing said.
 * Returns the paths of the files written again. Throws when one cannot be.
 */
export function reredactSessions(ws: Workspace, redactor: Redactor): string[] {
  return stateRecords(ws, 'sessions').flatMap((file) => {
    // Torn or foreign (not a session's shape): read by no one as a session, left or redacted as text.
    const written = rewriteRedactedJson<SessionState>(
      file,
      redactor,
      (s) => {
        if (!s || typeof s !== 'object' || !Array.isArray(s.prompts) || !Array.isArray(s.turns)) return s;
        const read = { ...s, pending: s.pending ?? null };
        const redacted = redactPrompts(redactor, read);
        return JSON.stringify(redacted) === JSON.stringify(read) ? s : redacted;
      },
      (s) => JSON.stringify(s),
    );
    return written ? [file] : [];
  });
}

/** The short id shown in headings: the first 8 characters of the session id. */
export function shortSessionId(sessionId: string): string {
  const clean = sessionId.replace(/[^A-Za-z0-9]/g, '');
  return (clean || createHash('sha256').update(sessionId).digest('hex')).slice(0, 8);
}

export function rememberTurns(s: SessionState, turns: readonly ArchivedTurn[]): void {
  s.turns.push(...turns);
  if (s.turns.length > KEPT_TURNS) s.turns.splice(0, s.turns.length - KEPT_TURNS);
}

export function rememberPrompt(s: SessionState, prompt: string): void {
  const p = prompt.replace(/\s+/g, ' ').trim().slice(0, 500);
  if (!p || s.prompts[s.prompts.length - 1] === p) return;
  s.prompts.push(p);
  if (s.prompts.length > KEPT_PROMPTS) s.prompts.splice(0, s.prompts.length - KEPT_PROMPTS);
}
