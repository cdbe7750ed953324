// hipo's side of an end-to-end run: the memory a fresh workspace starts with (a user fact in
// yesterday's raw log), what the hooks wrote (today's raw log, the journal), and the checks
// every platform shares: each turn once, no thinking, no tool output, no secret.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Sandbox } from './sandbox.js';
import { filesContaining, tail } from './sandbox.js';

/** What yesterday's raw log says, and the words a request carrying it must contain. */
export const USER_FACT = "The user's dog is a golden retriever named Biscuit.";
export const FACT_MARK = 'golden retriever named Biscuit';

/** Secrets the prompts carry: each must reach no file hipo writes. Shaped as real keys are. */
export const SECRETS = {
  anthropic: 'sk-ant-api03-Zq8vR2mX7nK4pL9sT1wY6bH3jF5dG0aC8eV2uN7iO4kM1xQ9',
  github: 'ghp_R7t2Kx9mQ4vB8nL3pZ6wY1sH5jD0fG2aC4eE',
  aws: 'AKIAQ3EGRV7Z5XKWMN4P',
};

/** Words the fake model thinks but never says: they must not reach the raw log. */
export const THINKING_MARK = 'private-reasoning-7f3a';

export async function initWorkspace(sb: Sandbox): Promise<void> {
  const r = await sb.hipo(['init']);
  expect(r.code, `hipo init failed\n${tail(r)}`).toBe(0);
  writeFileSync(join(sb.project, 'memory', `${sb.yesterday}.md`), `# ${sb.yesterday}\n\n## Dog [user]\n- ${USER_FACT}\n`);
}

export function rawLog(sb: Sandbox, date = sb.today): string {
  const f = join(sb.project, 'memory', `${date}.md`);
  return existsSync(f) ? readFileSync(f, 'utf8') : '';
}

/** The `## Conversation …` entries of a raw log, each with its text. */
export function conversations(log: string): string[] {
  return log.split(/^(?=## )/m).filter((s) => s.startsWith('## Conversation'));
}

export interface JournalRecord {
  type: string;
  event?: string;
  session?: string;
  turns?: number;
  trigger?: string;
  message?: string;
  note?: string;
  [k: string]: unknown;
}

export function journal(sb: Sandbox): JournalRecord[] {
  const f = join(sb.project, '.hipo', 'journal.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as JournalRecord);
}

/** hipo's own account of what its hooks did: capture records and errors, for failure messages. */
export function hookReport(sb: Sandbox): string {
  const recs = journal(sb).filter((r) => r.type === 'capture' || r.type === 'hook-error');
  return recs.length ? recs.map((r) => JSON.stringify(r)).join('\n') : '(no hook ran: the journal has no capture or hook-error record)';
}

/** Each prompt appears in exactly one `User:` line of today's log. */
export function expectEachPromptOnce(sb: Sandbox, prompts: string[]): void {
  const log = rawLog(sb);
  for (const p of prompts) {
    const n = log.split('\n').filter((l) => l.startsWith('User:') && l.includes(p)).length;
    expect(
      n,
      `prompt "${p}" should be in today's raw log (${sb.today}.md) once, found ${n} times\n--- raw log\n${log}\n--- hooks\n${hookReport(sb)}`,
    ).toBe(1);
  }
}

/** No thinking, no tool output, no secret in anything hipo wrote (memory/ and .hipo/). */
export function expectNothingLeaked(sb: Sandbox, toolOutputMarks: string[] = []): void {
  const log = rawLog(sb);
  expect(log, `thinking reached the raw log\n${log}`).not.toContain(THINKING_MARK);
  for (const m of toolOutputMarks) expect(log, `tool output "${m}" reached the raw log\n${log}`).not.toContain(m);
  const hipoFiles = (rel: string): boolean =>
    !(rel === 'memory' || rel.startsWith('memory/') || rel === '.hipo' || rel.startsWith('.hipo/'));
  for (const [kind, secret] of Object.entries(SECRETS)) {
    const leaked = filesContaining(sb.project, secret, hipoFiles);
    expect(leaked, `the ${kind} key reached files hipo wrote`).toEqual([]);
  }
}
