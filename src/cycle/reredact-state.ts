// Bringing what hipo keeps under `.hipo/` up to the redaction rules in force, as the nodes are
// (cycle/reredact.ts). Each state file is redacted as it is written, by the rules in force then,
// so a secret only newer rules (an upgrade, a pattern added to `redactPatterns`) catch stays in
// it. Once after the rules changed, every file that can hold text from the tree or the
// conversation is read and, where the rules now find something, written again with only that
// redacted: the journal, the model's state, the session records, the daemon's record, the
// waiting captures' problems (a config's error may quote a value) and the copies in `backup/`
// (a node's text, kept as the user's: state/backup.ts). The model's cached answers that hold it
// are deleted (summarize/llm/cache.ts), and so are the OpenCode plugin's copies of a session
// that no capture needs any more (state/opencode-copies.ts): the conversation unredacted, which
// the plugin writes again whole when it archives the session.
//
// Not swept, as they hold none: the locks, `redaction.json`, `tokens.json` (counts by node path),
// the word vectors and the index (index/reredact.ts). `tree-cache.json` redacts itself when
// loaded and saved under other rules (state/stamp-cache.ts). The OpenCode plugin's copy a waiting
// capture still needs is left for it, which removes it once archived (capture/pending.ts).
import { relative } from 'node:path';
import type { Redactor } from '../redact/redactor.js';
import type { Workspace } from '../tree/layout.js';
import { reredactBackups } from '../state/backup.js';
import { reredactDaemonState } from '../state/daemon-record.js';
import { reredactJournal } from '../state/journal.js';
import { reredactLlmState } from '../state/llm.js';
import { removeLeftOverCopies } from '../state/opencode-copies.js';
import { pendingCaptures, reredactPendingCaptures } from '../state/pending-captures.js';
import { reredactSessions } from '../state/sessions.js';
import { dropRedactedAnswers } from '../summarize/llm/cache.js';

export interface StateReredaction {
  /** State files (`.hipo/`-relative) written again with what the rules now find redacted. */
  redacted: string[];
  /** The model's cached answers deleted as they held what the rules now find. */
  dropped: string[];
  /** The OpenCode plugin's copies of a session no capture needs any more, removed. */
  removed: string[];
  /** What could not be brought up to the rules: looked at again next run. */
  warnings: string[];
}

const SWEEPS: readonly { what: string; sweep: (ws: Workspace, r: Redactor) => string[] }[] = [
  { what: 'the journal', sweep: reredactJournal },
  { what: "the model's state", sweep: reredactLlmState },
  { what: 'the session records', sweep: reredactSessions },
  { what: "the daemon's record", sweep: reredactDaemonState },
  { what: 'the waiting captures', sweep: reredactPendingCaptures },
  { what: 'the backups', sweep: reredactBackups },
];

/** Brings the state files of `ws` up to `redactor`'s rules. */
export function reredactState(ws: Workspace, redactor: Redactor): StateReredaction {
  const out: StateReredaction = { redacted: [], dropped: [], removed: [], warnings: [] };
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
  const waiting = (): string[] => pendingCaptures(ws).map((p) => p.transcript);
  tried("the OpenCode plugin's left-over copies", () => removeLeftOverCopies(ws, waiting()), out.removed);
  return out;
}
