// Bringing what hipo keeps under `.hipo/` up to the redaction rules in force, as the nodes are
// (cycle/reredact.ts). Each state file is redacted as it is written, by the rules in force then,
// so a secret only newer rules (an upgrade, a pattern added to `redactPatterns`) catch stays in
// it. Once after the rules changed, every file that can hold text from the tree or the
// conversation is read and, where the rules now find something, written again with only that
// redacted; the model's cached answers that hold it are deleted (summarize/llm/cache.ts).
//
// Not swept, as they hold none: the locks, `redaction.json`, `tokens.json` (counts by node path),
// `pending-captures/` (a transcript's path and a config or folder problem, never what was said),
// the word vectors and the index (index/reredact.ts). `tree-cache.json` redacts itself when
// loaded and saved under other rules (state/stamp-cache.ts).
import { relative } from 'node:path';
import type { Redactor } from '../redact/redactor.js';
import type { Workspace } from '../tree/layout.js';
import { reredactDaemonState } from '../state/daemon-record.js';
import { reredactJournal } from '../state/journal.js';
import { reredactLlmState } from '../state/llm.js';
import { reredactSessions } from '../state/sessions.js';
import { dropRedactedAnswers } from '../summarize/llm/cache.js';

export interface StateReredaction {
  /** State files (`.hipo/`-relative) written again with what the rules now find redacted. */
  redacted: string[];
  /** The model's cached answers deleted as they held what the rules now find. */
  dropped: string[];
  /** What could not be brought up to the rules: looked at again next run. */
  warnings: string[];
}

const SWEEPS: readonly { what: string; sweep: (ws: Workspace, r: Redactor) => string[] }[] = [
  { what: 'the journal', sweep: reredactJournal },
  { what: "the model's state", sweep: reredactLlmState },
  { what: 'the session records', sweep: reredactSessions },
  { what: "the daemon's record", sweep: reredactDaemonState },
];

/** Brings the state files of `ws` up to `redactor`'s rules. */
export function reredactState(ws: Workspace, redactor: Redactor): StateReredaction {
  const out: StateReredaction = { redacted: [], dropped: [], warnings: [] };
  const rel = (files: string[]): string[] => files.map((f) => relative(ws.stateDir, f).split('\\').join('/'));
  const tried = (what: string, run: () => string[], into: string[]): void => {
    try {
      into.push(...rel(run()));
    } catch (err) {
      out.warnings.push(`${what} could not be brought up to the redaction rules (${(err as Error).message}); tried again next run`);
    }
  };
  for (const s of SWEEPS) tried(s.what, () => s.sweep(ws, redactor), out.redacted);
  tried("the model's cached answers", () => dropRedactedAnswers(ws, redactor), out.dropped);
  return out;
}
