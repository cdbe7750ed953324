// Captures a hook could not make (`.hipo/pending-captures/<session>.json`). While
// hipo.config.json does not load, a capture hook knows neither the memory folder nor the time
// zone nor the redaction rules its turns need, so it writes nothing of the conversation: it
// keeps which transcript it was given, and the next hook or compaction whose config loads
// archives it from there (capture/pending.ts). Only the reference is kept, never what was said.
// The problem is redacted as it is written, and again when the rules change: a config's error may
// quote what it failed on (a setting's value).
// The same when the memory folder is missing or refuses the write, the disk is full, or the
// append lock stays busy (hooks/run.ts).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWriteFile } from '../fs/atomic.js';
import type { Redactor } from '../redact/redactor.js';
import { workspaceRedactor } from '../redact/workspace.js';
import type { Workspace } from '../tree/layout.js';
import { ensureStateDir, statePath, stateRecords } from './dir.js';
import { rewriteRedactedJson } from './redaction.js';

export interface PendingCapture {
  version: 1;
  sessionId: string;
  transcript: string;
  /** The hook that could not capture (the capture taken in later archives as it would have). */
  event: string;
  /** When it last could not. */
  at: string;
  /** Why: the config file, or the folder or file that refused, and what is wrong with it. */
  problem: string;
}

function fileOf(ws: Pick<Workspace, 'stateDir'>, sessionId: string): string {
  const name = createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
  return join(statePath(ws, 'pendingCaptures'), `${name}.json`);
}

/** Keeps the latest hook of a session that could not capture (one record per session). */
export function recordPendingCapture(ws: Workspace, p: Omit<PendingCapture, 'version'>): void {
  ensureStateDir(ws);
  mkdirSync(statePath(ws, 'pendingCaptures'), { recursive: true });
  // Under a config that did not load, the workspace's `redactPatterns` are not known: hipo's rules alone.
  const problem = workspaceRedactor(ws).redact(p.problem).text;
  atomicWriteFile(fileOf(ws, p.sessionId), JSON.stringify({ version: 1, ...p, problem } satisfies PendingCapture));
}

/** The captures waiting, oldest first. */
export function pendingCaptures(ws: Pick<Workspace, 'stateDir'>): PendingCapture[] {
  const out: PendingCapture[] = [];
  for (const file of stateRecords(ws, 'pendingCaptures')) {
    try {
      const p = JSON.parse(readFileSync(file, 'utf8')) as Partial<PendingCapture>;
      if (p.version === 1 && typeof p.sessionId === 'string' && typeof p.transcript === 'string' && typeof p.event === 'string')
        out.push({
          version: 1,
          sessionId: p.sessionId,
          transcript: p.transcript,
          event: p.event,
          at: String(p.at),
          problem: String(p.problem),
        });
    } catch {
      /* torn or foreign: not a capture anyone can take in */
    }
  }
  return out.sort((a, b) => a.at.localeCompare(b.at));
}

/** Forgets a session's waiting capture once its transcript was archived, if it is still about that transcript. */
export function dropPendingCapture(ws: Pick<Workspace, 'stateDir'>, sessionId: string, transcript: string): void {
  const file = fileOf(ws, sessionId);
  try {
    const p = JSON.parse(readFileSync(file, 'utf8')) as Partial<PendingCapture>;
    if (p.transcript !== transcript) return;
  } catch {
    return;
  }
  rmSync(file, { force: true });
}

/**
 * Brings every waiting capture's problem up to `redactor`'s rules, once after the rules changed.
 * Its other fields (the session id, the transcript's path) are what the capture is taken in by,
 * and hold nothing said. Returns the paths of the files written again. Throws when one cannot be.
 */
export function reredactPendingCaptures(ws: Pick<Workspace, 'stateDir'>, redactor: Redactor): string[] {
  return stateRecords(ws, 'pendingCaptures').filter((file) =>
    // Torn or foreign: read by no one as a capture, redacted as text.
    rewriteRedactedJson<Partial<PendingCapture>>(
      file,
      redactor,
      (p) => (p && typeof p === 'object' && typeof p.problem === 'string' ? { ...p, problem: redactor.redact(p.problem).text } : p),
      (p) => JSON.stringify(p),
    ),
  );
}
