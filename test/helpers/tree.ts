// Reading nodes back in tests: status, frontmatter, body.
import { splitFrontmatter, type FrontmatterData } from '../../src/tree/frontmatter.js';
import { compact, type CompactOptions, type CompactResult } from '../../src/cycle/compaction.js';
import { configOf, type TestWorkspace } from './workspace.js';
import { buildPack, type Pack } from '../../src/context/pack.js';
import type { LocalDate } from '../../src/time/calendar.js';

export function node(ws: TestWorkspace, rel: string): { data: FrontmatterData; body: string } {
  const doc = splitFrontmatter(ws.read(`memory/${rel}`));
  if (!doc.data) throw new Error(`memory/${rel} has no frontmatter: ${doc.error}`);
  return { data: doc.data, body: doc.body };
}

export function statusOf(ws: TestWorkspace, rel: string): string | null {
  return ws.exists(`memory/${rel}`) ? String(node(ws, rel).data.status) : null;
}

/** One compaction as `hipo compact --now DATE` would run it, in-process. */
export function cycle(ws: TestWorkspace, now: string, opts: CompactOptions = {}): Promise<CompactResult> {
  return compact(ws, configOf(ws), { now, lockWaitMs: 2000, ...opts });
}

// Raw logs, and the dated notes beside them (`2026-06-02-standup.md`).
const RAW_LOG = /^memory\/\d{4}-\d{2}-\d{2}(?:-[^/]+)?\.md$/;

/** Content hashes of the raw logs (to prove hipo never touched them). */
export function rawLogHashes(ws: TestWorkspace): Record<string, string> {
  return Object.fromEntries(Object.entries(ws.hashes('memory')).filter(([k]) => RAW_LOG.test(k)));
}

/** Content hashes of everything else in the memory folder: the nodes hipo wrote. */
export function nodeHashes(ws: TestWorkspace): Record<string, string> {
  return Object.fromEntries(Object.entries(ws.hashes('memory')).filter(([k]) => !RAW_LOG.test(k)));
}

/** Writes a small raw log in the hipo format. */
export function rawLog(date: string, entries: Record<string, string[]>): string {
  const parts = [`# ${date}`, ''];
  for (const [heading, bullets] of Object.entries(entries)) parts.push(`## ${heading}`, ...bullets.map((b) => `- ${b}`), '');
  return parts.join('\n');
}

/** YAML lines of a "billion laughs": each a list of nine of the line above, 9^levels values in all. */
export function aliasBomb(levels: number): string {
  const name = (i: number) => String.fromCharCode(97 + i);
  const nine = (v: string) => `[${Array<string>(9).fill(v).join(',')}]`;
  let yaml = `a: &a ${nine('x')}\n`;
  for (let i = 1; i < levels; i++) yaml += `${name(i)}: &${name(i)} ${nine(`*${name(i - 1)}`)}\n`;
  return yaml;
}

/** The SessionStart pack of `ws` on `today`, at the hook's default budget (8,000 characters). */
export function sessionPack(
  ws: TestWorkspace,
  today: string,
  opts: { ephemeralMarkers?: readonly string[]; budget?: number; activeContextDays?: number; query?: string } = {},
): Pack {
  return buildPack({
    memoryDir: ws.memoryDir,
    memoryName: ws.memoryName,
    today: today as LocalDate,
    timeZone: 'UTC',
    budget: 8000,
    unit: 'chars',
    measure: (s) => s.length,
    ...opts,
  });
}
