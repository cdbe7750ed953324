// Model answers by request hash, under `.hipo/llm-cache/`: a request hipo has sent before (same
// endpoint, model, parameters and messages) is answered from here and costs nothing. Answers are
// kept raw, valid or not, so a request the model got wrong is not paid for twice either; they
// are validated again when read. Only a cache: deleting it costs calls, never correctness.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { hashParts } from '../../tree/hash.js';
import type { Workspace } from '../../tree/layout.js';
import { ensureStateDir } from '../../state/dir.js';
import { atomicWriteFile, removeIfUnchanged } from '../../fs/atomic.js';
import type { ChatMessage, ChatResponse } from './client.js';
import { requestBody } from './client.js';
import type { LlmSettings } from './settings.js';
import { redactValue } from '../../redact/lines.js';
import type { Redactor } from '../../redact/redactor.js';
import { workspaceRedactor } from '../../redact/workspace.js';
import { statePath, stateRecords } from '../../state/dir.js';

/** Entries kept; the least recently used beyond this are deleted. */
const MAX_ENTRIES = 4000;

export interface CachedAnswer extends ChatResponse {
  key: string;
  at: string;
}

/** The hash of everything that decides the answer (not the API key). */
export function requestKey(s: LlmSettings, messages: readonly ChatMessage[], maxOutputTokens: number): string {
  return hashParts([s.baseUrl, JSON.stringify(requestBody(s, messages, maxOutputTokens))]);
}

export class AnswerCache {
  private readonly dir: string;
  private pruned = false;

  constructor(private readonly ws: Workspace) {
    this.dir = statePath(ws, 'llmCache');
  }

  /** Whether an answer is kept, without marking it used (for --dry-run). */
  has(key: string): boolean {
    return existsSync(join(this.dir, `${key}.json`));
  }

  get(key: string): CachedAnswer | null {
    const file = join(this.dir, `${key}.json`);
    try {
      const hit = JSON.parse(readFileSync(file, 'utf8')) as CachedAnswer;
      if (hit.key !== key || typeof hit.text !== 'string') return null;
      const now = new Date();
      utimesSync(file, now, now); // recently used: kept longest
      return hit;
    } catch {
      return null;
    }
  }

  put(key: string, answer: ChatResponse): void {
    try {
      ensureStateDir(this.ws);
      mkdirSync(this.dir, { recursive: true });
      const entry: CachedAnswer = { ...redactValue(workspaceRedactor(this.ws), answer), key, at: new Date().toISOString() };
      atomicWriteFile(join(this.dir, `${key}.json`), JSON.stringify(entry), { durable: false });
      if (!this.pruned) this.prune();
    } catch {
      /* a read-only state folder only costs calls */
    }
  }

  /** Deletes the least recently used entries past MAX_ENTRIES (once per run). */
  private prune(): void {
    this.pruned = true;
    const names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    if (names.length <= MAX_ENTRIES) return;
    const byAge = names.map((n) => ({ n, t: statSync(join(this.dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const { n } of byAge.slice(0, names.length - MAX_ENTRIES)) {
      try {
        unlinkSync(join(this.dir, n));
      } catch {
        /* gone already */
      }
    }
  }
}

/**
 * Deletes the answers in which `redactor`'s rules find something, once after the rules changed:
 * an answer was redacted by the rules in force when it was kept. Deleted rather than redacted: an
 * answer is kept as the model gave it (it is validated when read), and the request it answers was
 * made from text the same rules now redact further, so that request is not sent again; at worst a
 * deletion costs one call. Returns the paths of the files deleted.
 */
export function dropRedactedAnswers(ws: Workspace, redactor: Redactor): string[] {
  return stateRecords(ws, 'llmCache').flatMap((file) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return []; // gone already
    }
    const text = bytes.toString('utf8');
    let holds: boolean;
    try {
      const entry: unknown = JSON.parse(text);
      holds = JSON.stringify(redactValue(redactor, entry)) !== JSON.stringify(entry);
    } catch {
      holds = redactor.redact(text).text !== text;
    }
    // One being written again meanwhile (the same request answered) was redacted by the rules in force.
    return holds && removeIfUnchanged(file, bytes) ? [file] : [];
  });
}
