// Where things live in a memory tree, and what a path inside it means.
// Layout (shared with hipocampus-style folders):
//   memory/YYYY-MM-DD.md          raw log (never written by hipo's compaction)
//   memory/daily/YYYY-MM-DD.md    daily node
//   memory/weekly/YYYY-Www.md     weekly node (ISO week)
//   memory/monthly/YYYY-MM.md     monthly node
//   memory/ROOT.md                root node
import { join, relative, resolve, sep } from 'node:path';
import {
  FIRST_WEEKED_DAY,
  lastDayOfMonthId,
  lastDayOfWeek,
  parseIsoWeek,
  parseLocalDate,
  parseMonthId,
  type IsoWeek,
  type LocalDate,
  type MonthId,
} from '../time/calendar.js';

export type NodeLevel = 'daily' | 'weekly' | 'monthly' | 'root';
export type Level = 'raw' | NodeLevel;
export const NODE_LEVELS: readonly NodeLevel[] = ['daily', 'weekly', 'monthly', 'root'];
export type NodeStatus = 'tentative' | 'fixed';
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export type Period =
  | { readonly level: 'daily'; readonly date: LocalDate }
  | { readonly level: 'weekly'; readonly week: IsoWeek }
  | { readonly level: 'monthly'; readonly month: MonthId }
  | { readonly level: 'root' };

/** `2026-03-15`, `2026-W11`, `2026-03` or `root`. */
export function periodId(p: Period): string {
  switch (p.level) {
    case 'daily':
      return p.date;
    case 'weekly':
      return p.week;
    case 'monthly':
      return p.month;
    case 'root':
      return 'root';
  }
}

/** Stable key of a node: `daily:2026-03-15`. */
export type NodeKey = string;
export function nodeKey(p: Period): NodeKey {
  return `${p.level}:${periodId(p)}`;
}

export const ROOT_FILE = 'ROOT.md';

/** Path of a node relative to the memory folder. */
export function nodeRelPath(p: Period): string {
  switch (p.level) {
    case 'daily':
      return `daily/${p.date}.md`;
    case 'weekly':
      return `weekly/${p.week}.md`;
    case 'monthly':
      return `monthly/${p.month}.md`;
    case 'root':
      return ROOT_FILE;
  }
}

export function rawRelPath(date: LocalDate): string {
  return `${date}.md`;
}

export type Classified =
  | { kind: 'raw'; date: LocalDate }
  | { kind: 'node'; period: Period }
  | { kind: 'bad-name'; reason: string }
  | { kind: 'other' };

/** A day's raw log, or a dated note of that day beside it (`2026-11-20-standup.md`, tree/raw-day.ts). */
const RAW_SHAPE = /^(\d{4}-\d{2}-\d{2})(?:-[^/]+)?\.md$/;
const DAILY_SHAPE = /^daily\/(\d{4}-\d{2}-\d{2})\.md$/;
const WEEKLY_SHAPE = /^weekly\/(\d{4}-W\d{2})\.md$/;
const MONTHLY_SHAPE = /^monthly\/(\d{4}-\d{2})\.md$/;

/** The day a file name gives, or why it is none the tree can hold. */
function dayOfName(name: string): LocalDate | { reason: string } {
  const date = parseLocalDate(name);
  if (!date) return { reason: `"${name}" is not a calendar date` };
  // 0000-01-01 and -02 fall in the last ISO week of year -1, which no `YYYY-Www` names.
  return date < FIRST_WEEKED_DAY ? { reason: `"${name}" falls in an ISO week of year -1, which no weekly node can name` } : date;
}

/** What a path relative to the memory folder (forward slashes) is. */
export function classifyPath(rel: string): Classified {
  let m = RAW_SHAPE.exec(rel);
  if (m) {
    const date = dayOfName(m[1]!);
    return typeof date === 'object' ? { kind: 'bad-name', reason: date.reason } : { kind: 'raw', date };
  }
  m = DAILY_SHAPE.exec(rel);
  if (m) {
    const date = dayOfName(m[1]!);
    return typeof date === 'object' ? { kind: 'bad-name', reason: date.reason } : { kind: 'node', period: { level: 'daily', date } };
  }
  m = WEEKLY_SHAPE.exec(rel);
  if (m) {
    const week = parseIsoWeek(m[1]!);
    return week ? { kind: 'node', period: { level: 'weekly', week } } : { kind: 'bad-name', reason: `"${m[1]}" is not an ISO week` };
  }
  m = MONTHLY_SHAPE.exec(rel);
  if (m) {
    const month = parseMonthId(m[1]!);
    return month ? { kind: 'node', period: { level: 'monthly', month } } : { kind: 'bad-name', reason: `"${m[1]}" is not a month` };
  }
  if (rel === ROOT_FILE) return { kind: 'node', period: { level: 'root' } };
  return { kind: 'other' };
}

/**
 * A day's date written another way (`2026-11-2`, `2026_11_22`, `20261123`): year first, then the
 * month and day, the same separator twice or none at all.
 */
const OTHER_DATE_SHAPE = /^(\d{4})(?:([-_. ])(\d{1,2})\2(\d{1,2})|(\d{2})(\d{2}))$/;
/** What a sync tool or a file manager adds to a copy: ` (conflicted copy)`, ` (1)`, ` copy 2`, `.sync-conflict-…`. */
const COPY_SUFFIX = /(?:\s*\([^()]*\)|\s+(?:-\s+)?copy(?:\s+\d+)?|\.sync-conflict-[^/]*|~\d*)$/i;

/**
 * The raw log name a top-level file probably meant, when its name is a day's date in another
 * shape, maybe with a copy's suffix, an upper-case or a doubled `.md` (`2026-11-2.md`,
 * `2026-11-20.MD`, `2026-11-24 (conflicted copy).md`, `2026-11-19.md.md`); null for anything
 * else. Conservative: a name holding other words (`meeting-notes-2026.md`) is a note, not a log.
 */
export function intendedRawName(name: string): string | null {
  const ext = /^(.+?)((?:\.md)+)$/i.exec(name);
  if (!ext) return null;
  const base = ext[1]!;
  const intended = `${base}.md`;
  // `2026-11-20.MD`, `2026-11-20-standup.md.md`: only the extension is off.
  if (intended !== name && classifyPath(intended).kind === 'raw') return intended;
  const m = OTHER_DATE_SHAPE.exec(base.replace(COPY_SUFFIX, '').trim());
  if (!m) return null;
  const [month, day] = m[2] ? [m[3]!, m[4]!] : [m[5]!, m[6]!];
  const date = parseLocalDate(`${m[1]}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`);
  return date && rawRelPath(date) !== name ? rawRelPath(date) : null;
}

/**
 * The node a file is a copy of, by what a sync tool or a file manager adds to a copy's name
 * (`daily/2026-11-03 (copy).md`, `weekly/2026-W45.sync-conflict-….md`, `ROOT (1).md`); null
 * for anything else. Such a copy is no node, and search finds it beside the node it copies.
 */
export function copiedNodeName(rel: string): string | null {
  const m = /^((?:[^/]+\/)?)([^/]+?)\.md$/i.exec(rel);
  if (!m) return null;
  const meant = `${m[1]}${m[2]!.replace(COPY_SUFFIX, '').trim()}.md`;
  return meant !== rel && classifyPath(meant).kind === 'node' ? meant : null;
}

/** The folders of one workspace: the tree, and hipo's own state beside it. */
export interface Workspace {
  /** The workspace folder (holds `memory/` and `hipo.config.json`). */
  readonly root: string;
  /** The memory tree. */
  readonly memoryDir: string;
  /** The memory folder as nodes name it in `source-files`: `memory`. */
  readonly memoryName: string;
  /** hipo's caches, journal and lock (`.hipo/`): deleting it loses nothing. */
  readonly stateDir: string;
}

export function workspaceAt(dir: string, memoryDir = 'memory'): Workspace {
  const root = resolve(dir);
  const abs = resolve(root, memoryDir);
  return { root, memoryDir: abs, memoryName: relative(root, abs).split(sep).join('/') || '.', stateDir: join(root, '.hipo') };
}

/** The last day a period covers (null for ROOT, which covers all of them). */
export function periodLastDay(p: Period): LocalDate | null {
  switch (p.level) {
    case 'daily':
      return p.date;
    case 'weekly':
      return lastDayOfWeek(p.week);
    case 'monthly':
      return lastDayOfMonthId(p.month);
    case 'root':
      return null;
  }
}
