// What hipo remembers between runs about the model, in `.hipo/llm-state.json`:
//   backoff — after the endpoint failed (down, timing out, 5xx, 429), no call until a time, so
//             a dead endpoint is not hammered every cycle: `backoffMinutes`, doubling with each
//             consecutive failure up to 64×, or longer when the server asked (retry-after);
//   failed  — nodes whose current input the model could not summarize (invalid output, a 400):
//             not planned for an LLM pass again until their input changes;
//   owed    — nodes the extractive summarizer wrote because the model was not asked or not
//             reached (call limit, endpoint down or backing off): their pass comes in a later
//             cycle even once they are fixed (a node fixed before a model was configured waits
//             for --resummarize);
//   root    — the monthly nodes (by body hash) the last model-written ROOT narrative was made
//             from: while they are unchanged ROOT is re-dated without a call.
// Deleting the file forgets all four; nothing breaks.
import { readFileSync } from 'node:fs';
import type { NodeKey, Workspace } from '../tree/layout.js';
import { ensureStateDir, statePath } from './dir.js';
import { atomicWriteFile } from '../fs/atomic.js';
import { redactValue } from '../redact/lines.js';
import type { Redactor } from '../redact/redactor.js';
import { workspaceRedactor } from '../redact/workspace.js';
import { rewriteRedactedJson } from './redaction.js';

const MAX_FACTOR = 64;

export interface Backoff {
  baseUrl: string;
  failures: number;
  /** Epoch milliseconds. */
  until: number;
  /** When it began (epoch milliseconds); absent in a record an older hipo wrote. */
  since?: number;
  reason: string;
}

export interface FailedInput {
  sourceHash: string;
  model: string;
  reason: string;
  at: string;
}

export interface RootMemory {
  model: string;
  /** Month → body hash of its monthly node. */
  months: Record<string, string>;
}

interface StateFile {
  version: 1;
  backoff: Backoff | null;
  failed: Record<NodeKey, FailedInput>;
  /** Node key → the source hash of the input the model still owes a pass for. */
  owed: Record<NodeKey, string>;
  root: RootMemory | null;
}

export class LlmState {
  private data: StateFile;

  private constructor(
    private readonly ws: Workspace,
    data: StateFile,
  ) {
    this.data = data;
  }

  static load(ws: Workspace): LlmState {
    try {
      const d = JSON.parse(readFileSync(statePath(ws, 'llm'), 'utf8')) as StateFile;
      if (d.version === 1 && typeof d.failed === 'object' && d.failed !== null)
        return new LlmState(ws, {
          version: 1,
          backoff: d.backoff ?? null,
          failed: withoutUnreadable(d.failed),
          owed: typeof d.owed === 'object' && d.owed !== null ? d.owed : {},
          root: d.root ?? null,
        });
    } catch {
      /* none yet, or unreadable: start empty */
    }
    return new LlmState(ws, { version: 1, backoff: null, failed: {}, owed: {}, root: null });
  }

  /** The backoff in force for this endpoint at `now`, if any. */
  backoffAt(baseUrl: string, now: number): Backoff | null {
    const b = this.data.backoff;
    // One that begins after now was recorded before the clock went back: it would hold for as long
    // as the clock went back on top of its own wait, so it holds no more.
    return b && b.baseUrl === baseUrl && b.until > now && !(b.since !== undefined && b.since > now) ? b : null;
  }

  recordEndpointFailure(baseUrl: string, reason: string, now: number, backoffMinutes: number, retryAfterMs: number | null): Backoff | null {
    const prev = this.data.backoff && this.data.backoff.baseUrl === baseUrl ? this.data.backoff.failures : 0;
    const failures = prev + 1;
    const wait = Math.max(backoffMinutes * 60_000 * Math.min(MAX_FACTOR, 2 ** (failures - 1)), retryAfterMs ?? 0);
    this.data.backoff = wait > 0 ? { baseUrl, failures, until: now + wait, since: now, reason } : null;
    this.save();
    return this.data.backoff;
  }

  recordEndpointSuccess(): void {
    if (this.data.backoff === null) return;
    this.data.backoff = null;
    this.save();
  }

  /** `hipo compact --resummarize`: the user asks for calls now. */
  clearBackoff(): void {
    this.recordEndpointSuccess();
  }

  failedInputs(): ReadonlyMap<NodeKey, string> {
    return new Map(Object.entries(this.data.failed).map(([k, v]) => [k, v.sourceHash]));
  }

  recordFailedInput(key: NodeKey, f: FailedInput): void {
    this.data.failed[key] = f;
    this.save();
  }

  clearFailedInput(key: NodeKey): void {
    if (!(key in this.data.failed)) return;
    delete this.data.failed[key];
    this.save();
  }

  owedPasses(): ReadonlyMap<NodeKey, string> {
    return new Map(Object.entries(this.data.owed));
  }

  recordOwed(key: NodeKey, sourceHash: string): void {
    if (this.data.owed[key] === sourceHash) return;
    this.data.owed[key] = sourceHash;
    this.save();
  }

  clearOwed(key: NodeKey): void {
    if (!(key in this.data.owed)) return;
    delete this.data.owed[key];
    this.save();
  }

  get root(): RootMemory | null {
    return this.data.root;
  }

  recordRoot(root: RootMemory): void {
    this.data.root = root;
    this.save();
  }

  private save(): void {
    try {
      ensureStateDir(this.ws);
      atomicWriteFile(statePath(this.ws, 'llm'), `${JSON.stringify(redactValue(workspaceRedactor(this.ws), this.data), null, 1)}\n`);
    } catch {
      /* a read-only state folder: the run still works, the next one knows less */
    }
  }
}

/**
 * Brings the file up to `redactor`'s rules, once after the rules changed: it was redacted by the
 * rules in force when it was saved. Returns its path when it was written again. Throws when it cannot be.
 */
export function reredactLlmState(ws: Workspace, redactor: Redactor): string[] {
  const file = statePath(ws, 'llm');
  const redacted = rewriteRedactedJson<unknown>(
    file,
    redactor,
    (data) => redactValue(redactor, data),
    (data) => `${JSON.stringify(data, null, 1)}\n`,
  );
  return redacted ? [file] : [];
}

/**
 * An answer that could not be read (a proxy's page, cut-off JSON) was once recorded as the
 * input's failure; it is the endpoint's: such nodes are forgotten here, and get their pass.
 */
function withoutUnreadable(failed: Record<NodeKey, FailedInput>): Record<NodeKey, FailedInput> {
  return Object.fromEntries(
    Object.entries(failed).filter(([, f]) => !/^(?:part \d+ of \d+: )?unreadable response/.test(f?.reason ?? '')),
  ) as Record<NodeKey, FailedInput>;
}

export interface BackoffView {
  until: string;
  reason: string;
}

/** For `hipo status`: the backoff in force and how many node inputs the model failed on. */
export function stateSummary(ws: Workspace, baseUrl: string, now = Date.now()): { backoff: BackoffView | null; failedInputs: number } {
  const s = LlmState.load(ws);
  const b = s.backoffAt(baseUrl, now);
  return { backoff: b ? { until: new Date(b.until).toISOString(), reason: b.reason } : null, failedInputs: s.failedInputs().size };
}
