// Archiving a session's transcript into its raw log, incrementally: read from the session's
// offset, group into turns, append the turns not yet archived, move the offset. Runs under the
// append lock, so repeated and concurrent hooks for one session never write a turn twice.
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import type { HipoConfig } from '../config/config.js';
import type { Clock } from '../time/clock.js';
import { parseLocalDate, zonedParts, type LocalDate } from '../time/calendar.js';
import type { Workspace } from '../tree/layout.js';
import { redactorFor } from '../redact/workspace.js';
import { appendRawEntry, entrySeparator, readRawRange } from '../write/raw-append.js';
import { withAppendLock } from '../state/lock.js';
import { renderTurn } from './render.js';
import {
  loadSessionState,
  newSessionState,
  rememberPrompt,
  rememberTurns,
  saveSessionState,
  shortSessionId,
  type ArchivedTurn,
  type SessionState,
} from '../state/sessions.js';
import { readTail } from './tail.js';
import { dropCompactionSummary, parseTranscriptLine, type TranscriptMessage } from './transcript.js';
import { groupTurns, type Turn } from './turns.js';
import { lastSeenBefore, splitSittings } from './sitting.js';
import type { CaptureEvent } from './events.js';
import { sliceWhole } from '../text/slice.js';

export interface CaptureInput {
  event: CaptureEvent;
  sessionId: string;
  transcriptPath: string | null;
  /** UserPromptSubmit's prompt: the turn it starts is not archived yet. */
  prompt?: string | null;
}

export interface CaptureResult {
  file: string | null;
  turns: number;
  bytes: number;
  /** Transcript bytes left for the next hook (the time budget ran out). */
  backlog: number;
  malformed: number;
  oversized: number;
  redacted: number;
  note: string | null;
}

/** The journal's record of one capture: what the hook (or a late take-in) archived. */
export function captureRecord(event: string, session: string, r: CaptureResult): { type: 'capture' } & Record<string, unknown> {
  const { file, turns, bytes, backlog, malformed, oversized, redacted } = r;
  return { type: 'capture', at: new Date().toISOString(), event, session, file, turns, bytes, backlog, malformed, oversized, redacted };
}

/** Transcript bytes one hook reads at most (bounds its memory; the rest waits for the next hook). */
const MAX_READ_BYTES = 24 * 1024 * 1024;
/** Transcript bytes one hook always gets through, whatever its budget. */
const MIN_PROGRESS_BYTES = 4 * 1024 * 1024;

const hash = (b: string | Buffer): string => createHash('sha256').update(b).digest('hex').slice(0, 16);

function dateOf(ts: string | null, tz: string): LocalDate | null {
  if (!ts) return null;
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? null : zonedParts(d, tz).date;
}

/** An append recorded as pending: if it reached the file, adopt the state it was for. */
function settlePending(ws: Workspace, s: SessionState): void {
  const p = s.pending;
  if (!p) return;
  const bytes = readRawRange(ws, p.file, p.at, p.bytes);
  if (bytes && hash(bytes) === p.hash) {
    s.offset = p.offset;
    s.openTurn = p.openTurn;
    if (p.lastSeenAt !== undefined) s.lastSeenAt = p.lastSeenAt;
    s.startDate = (p.startDate && parseLocalDate(p.startDate)) || s.startDate;
    s.archived += p.turns.length;
    rememberTurns(s, p.turns);
  }
  s.pending = null;
}

export async function captureTranscript(
  ws: Workspace,
  config: HipoConfig,
  clock: Clock,
  input: CaptureInput,
  deadline: number,
): Promise<CaptureResult> {
  const empty = (note: string | null): CaptureResult => ({
    file: null,
    turns: 0,
    bytes: 0,
    backlog: 0,
    malformed: 0,
    oversized: 0,
    redacted: 0,
    note,
  });
  // The session file keeps the latest prompts (restore ranks turns by them): redacted like the
  // raw log, so no secret a user pasted lands in .hipo/ either.
  const redactor = redactorFor(config.redactPatterns);
  const clean = (text: string): string => redactor.redact(text).text;
  return withAppendLock(ws, (lock) => {
    let s = loadSessionState(ws, input.sessionId);
    if (s) settlePending(ws, s);
    if (input.prompt && s) rememberPrompt(s, clean(input.prompt));
    const path = input.transcriptPath?.trim() ? input.transcriptPath : null;
    if (!path || !existsSync(path) || !statSync(path).isFile()) {
      if (s) saveSessionState(ws, s);
      return empty(path ? `transcript not found: ${path}` : 'no transcript_path in the hook input');
    }
    if (s && s.transcript !== path) {
      // A different file for the same session (moved, resumed): keep the turns we have by key.
      s.transcript = path;
      if (statSync(path).size < s.offset) s.offset = 0;
    }
    if (s && statSync(path).size < s.offset) s.offset = 0; // rewritten shorter: re-read, dedupe by key

    const read = readTail(path, s?.offset ?? 0, { deadline, maxBytes: MAX_READ_BYTES });
    const tail = { ...read };
    let malformed = 0;
    const messages: TranscriptMessage[] = [];
    // Parsing counts against the budget too: stop at a line, the rest waits for the next hook.
    // The first MIN_PROGRESS bytes are always done, so a slow start (a loaded machine) still
    // moves the offset on by a useful amount.
    const minEnd = (s?.offset ?? 0) + MIN_PROGRESS_BYTES;
    for (let k = 0; k < read.lines.length; k++) {
      const l = read.lines[k]!;
      if (l.offset >= minEnd && k % 8 === 0 && performance.now() > deadline) {
        tail.next = l.offset;
        tail.done = false;
        break;
      }
      const m = parseTranscriptLine(l.text, l.offset, l.end);
      if (m === 'malformed') malformed++;
      else if (m === 'skip') continue;
      else if ('compacted' in m) dropCompactionSummary(messages, m);
      else messages.push(m);
    }
    if (!s) {
      const first = messages.find((m) => m.timestamp);
      s = newSessionState(input.sessionId, dateOf(first?.timestamp ?? null, config.timeZone) ?? clock.today, path);
      if (input.prompt) rememberPrompt(s, clean(input.prompt));
    }
    const state = s;
    const known = new Set(state.turns.map((t) => t.key));
    let turns = groupTurns(messages, state.openTurn);
    // Which turns are finished. With bytes left unread, the last turn may go on in them (a lone
    // turn is archived in part, so a turn longer than one hook's budget still moves on). At
    // UserPromptSubmit, the turn of the prompt just sent has only begun. Stop, PreCompact and
    // SessionEnd archive everything: what is in the transcript now is what compaction may drop.
    const last = turns[turns.length - 1];
    let hold: Turn | null = null;
    if (last) {
      if (!tail.done) hold = turns.length > 1 ? last : null;
      else if (input.event === 'UserPromptSubmit') hold = input.prompt && last.prompt.trim() === input.prompt.trim() ? last : null;
    }
    if (hold) turns = turns.slice(0, -1);
    const nextOffset = hold ? hold.start : tail.next;
    const nextOpen = hold ? (hold.continued ? hold.key : null) : turns.length ? turns[turns.length - 1]!.key : state.openTurn;

    const seenAt = lastSeenBefore(messages, nextOffset, state.lastSeenAt);
    const fresh = turns.filter((t) => t.continued || !known.has(t.key));
    const sittings = splitSittings(fresh, messages, state.startDate, state.lastSeenAt, config.timeZone);
    let redacted = 0;
    const groups = sittings.map((sitting) => {
      const ctx = {
        fileDate: sitting.date,
        timeZone: config.timeZone,
        sessionShort: shortSessionId(input.sessionId),
        maxChars: config.agents.captureMessageChars,
      };
      const rendered = sitting.turns.map((t) => {
        const r = redactor.redact(renderTurn(t, ctx));
        redacted += Object.values(r.counts).reduce((a, b) => a + b, 0);
        return { turn: t, text: r.text };
      });
      return { date: sitting.date, rendered };
    });
    const result: CaptureResult = {
      file: null,
      turns: fresh.length,
      bytes: 0,
      backlog: tail.size - tail.next,
      malformed,
      oversized: tail.oversized,
      redacted,
      note: null,
    };
    if (fresh.length === 0) {
      state.offset = nextOffset;
      state.openTurn = nextOpen;
      state.lastSeenAt = seenAt;
      saveSessionState(ws, state);
      return result;
    }
    let bytes = 0;
    let rel = '';
    for (const [i, group] of groups.entries()) {
      // A sitting before the last ends where the next begins: the state after its append points there.
      const next = groups[i + 1];
      const last = group.rendered[group.rendered.length - 1]!.turn;
      const offset = next ? next.rendered[0]!.turn.start : nextOffset;
      const openTurn = next ? last.key : nextOpen;
      const lastSeenAt = next ? lastSeenBefore(messages, offset, state.lastSeenAt) : seenAt;
      rel = `${group.date}.md`;
      const payload = group.rendered.map((r) => r.text).join('\n') + '\n';
      const at = nextAppendOffset(ws, group.date);
      const archived: ArchivedTurn[] = [];
      let pos = at;
      for (const r of group.rendered) {
        const len = Buffer.byteLength(r.text);
        archived.push({
          key: r.turn.key,
          file: rel,
          at: pos,
          bytes: len,
          prompt: sliceWhole(clean(r.turn.prompt).replace(/\s+/g, ' '), 0, 300),
        });
        pos += len + 1;
      }
      // Record the intent first: a crash between the append and the state write is detected by
      // the next hook (the bytes are there), so the turns are not appended twice.
      state.pending = {
        file: rel,
        at,
        bytes: Buffer.byteLength(payload),
        hash: hash(payload),
        offset,
        openTurn,
        lastSeenAt,
        startDate: group.date,
        turns: archived,
      };
      saveSessionState(ws, state);
      const done = appendRawEntry(ws, group.date, payload, lock);
      if (done.at !== at) for (const t of archived) t.at += done.at - at;
      state.pending = null;
      state.offset = offset;
      state.openTurn = openTurn;
      state.lastSeenAt = lastSeenAt;
      state.startDate = group.date;
      state.archived += archived.length;
      rememberTurns(state, archived);
      for (const r of group.rendered) if (r.turn.prompt) rememberPrompt(state, clean(r.turn.prompt));
      saveSessionState(ws, state);
      bytes += done.bytes;
    }
    return { ...result, file: rel, bytes };
  });
}

/** Where the next append to a raw log will start (the caller holds the append lock). */
function nextAppendOffset(ws: Workspace, date: LocalDate): number {
  const file = `${ws.memoryDir}/${date}.md`;
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    return Buffer.byteLength(entrySeparator(0, '', date));
  }
  const tail = size === 0 ? '' : (readRawRange(ws, `${date}.md`, Math.max(0, size - 2), Math.min(2, size))?.toString('latin1') ?? '');
  return size + Buffer.byteLength(entrySeparator(size, tail, date));
}
