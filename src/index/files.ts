// Which files the search index covers, and what each one is: every markdown file of the memory
// tree (raw logs, daily/weekly/monthly nodes, ROOT.md, anything else kept there) plus the extra
// folders or files the config names (`search.include`, e.g. `knowledge/`).
import { type Dirent, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { lastDayOfMonthId, monthDates, parseLocalDate, weekDates, type LocalDate } from '../time/calendar.js';
import { redactedPath, workspaceRedactor } from '../redact/workspace.js';
import { danglingLink, realInside } from '../tree/inside.js';
import { classifyPath, type Workspace } from '../tree/layout.js';
import type { IndexLevel } from './levels.js';
import { requireMemoryDir } from '../tree/scan.js';

/** The days a file speaks about, inclusive. */
export interface DateRange {
  start: LocalDate;
  end: LocalDate;
}

export interface IndexableFile {
  /** Workspace-relative, forward slashes: `memory/2026-03-15.md`, `knowledge/auth.md`. */
  path: string;
  abs: string;
  level: IndexLevel;
  period: DateRange | null;
  /** The file's stats as the listing found them (the caller need not ask again). */
  stats: Stats;
}

/** Folders never descended into: hidden ones (`.hipo`, `.git`) and dependency trees. */
const SKIP_DIRS = new Set(['node_modules']);
const DATE_IN_NAME = /(?:^|[^\d])(\d{4}-\d{2}-\d{2})(?:[^\d]|$)/;

/** What a workspace-relative path is, for the index. */
function describeFile(ws: Workspace, abs: string, stats: Stats): IndexableFile {
  const path = relative(ws.root, abs).split(sep).join('/');
  const inTree = relative(ws.memoryDir, abs).split(sep).join('/');
  const what = inTree.startsWith('..') ? ({ kind: 'other' } as const) : classifyPath(inTree);
  if (what.kind === 'raw') return { path, abs, stats, level: 'raw', period: { start: what.date, end: what.date } };
  if (what.kind === 'node') {
    const p = what.period;
    switch (p.level) {
      case 'daily':
        return { path, abs, stats, level: 'daily', period: { start: p.date, end: p.date } };
      case 'weekly': {
        const days = weekDates(p.week);
        return { path, abs, stats, level: 'weekly', period: { start: days[0]!, end: days[6]! } };
      }
      case 'monthly':
        return { path, abs, stats, level: 'monthly', period: { start: monthDates(p.month)[0]!, end: lastDayOfMonthId(p.month) } };
      case 'root':
        return { path, abs, stats, level: 'root', period: null };
    }
  }
  // Other markdown: a date in its name (`notes/2026-03-15-standup.md`) still places it in time.
  const m = DATE_IN_NAME.exec(path.slice(path.lastIndexOf('/') + 1));
  const date = m ? parseLocalDate(m[1]!) : null;
  return { path, abs, stats, level: 'other', period: date ? { start: date, end: date } : null };
}

export interface FileListing {
  files: IndexableFile[];
  /** Configured paths that could not be read, each naming the path and why. */
  problems: string[];
}

/**
 * Lists every file the index should hold, sorted by path, each once. With `memoryFiles`
 * (memory-relative paths: the files a caller knows changed), the memory folder is not walked:
 * those of them that exist and would be listed are, with everything `include` names.
 */
export function listIndexableFiles(ws: Workspace, include: readonly string[], memoryFiles?: Iterable<string>): FileListing {
  // A missing memory folder is not an empty one: listing nothing would empty the index, and
  // with a paid embedder the whole tree would be embedded again once the folder is back.
  requireMemoryDir(ws);
  const seen = new Map<string, IndexableFile>();
  const problems: string[] = [];
  const redactor = workspaceRedactor(ws);
  const refused = new Set<string>();
  const inMemory = ws.memoryName === '.' ? '' : `${ws.memoryName}/`;
  const add = (abs: string, stats: Stats): void => {
    const f = describeFile(ws, abs, stats);
    if (seen.has(f.path) || refused.has(f.path)) return;
    // The index keeps every file's path: a path that holds a secret is left out, named redacted.
    const named = redactedPath(redactor, f.path, inMemory);
    if (named === f.path) seen.set(f.path, f);
    else {
      refused.add(f.path);
      problems.push(`${named}: skipped: its name holds a secret, which the search index would copy; rename the file`);
    }
  };
  const wsPath = (abs: string): string => relative(ws.root, abs).split(sep).join('/');
  // Symbolic links to files are followed while they stay inside the folder walked; links to
  // folders are not (a link loop would never end). Null: not listed.
  const entryStats = (abs: string, root: string): Stats | null => {
    try {
      const st = lstatSync(abs);
      if (!st.isSymbolicLink()) return st;
      if (realInside(root, relative(root, abs)) === null) {
        const target = danglingLink(abs);
        const why = target === null ? `a link to outside ${wsPath(root) || '.'}` : `a link to ${target}, which does not exist`;
        problems.push(`${wsPath(abs)}: skipped: ${why}`);
        return null;
      }
      const target = statSync(abs);
      return target.isDirectory() ? null : target;
    } catch {
      return null; // gone
    }
  };
  const walk = (dir: string, reportMissing: string | null, root = dir): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (reportMissing !== null || code !== 'ENOENT') problems.push(`${reportMissing ?? dir}: cannot be listed (${code ?? String(err)})`);
      return;
    }
    // One system call per markdown file (its stats, which the index needs anyway); folders and
    // other files are told apart by their directory entry.
    for (const e of entries) {
      const name = e.name;
      if (name.startsWith('.') || SKIP_DIRS.has(name)) continue;
      const abs = join(dir, name);
      if (e.isDirectory()) walk(abs, null, root);
      else if (!name.toLowerCase().endsWith('.md') || !(e.isFile() || e.isSymbolicLink())) continue;
      else {
        const st = entryStats(abs, root);
        if (st?.isFile()) add(abs, st);
      }
    }
  };
  if (memoryFiles === undefined) walk(ws.memoryDir, null);
  else
    for (const rel of memoryFiles) {
      const parts = rel.split('/');
      if (parts.some((part) => part.startsWith('.') || SKIP_DIRS.has(part)) || !rel.toLowerCase().endsWith('.md')) continue;
      const abs = join(ws.memoryDir, ...parts);
      // Gone: the caller removes it from the index.
      const st = entryStats(abs, ws.memoryDir);
      if (st?.isFile()) add(abs, st);
    }
  for (const p of include) {
    const abs = resolve(ws.root, p);
    let st: Stats;
    try {
      st = statSync(abs);
    } catch (err) {
      problems.push(
        `search.include "${p}": ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(err as NodeJS.ErrnoException).code})`}`,
      );
      continue;
    }
    if (st.isDirectory()) walk(abs, `search.include "${p}"`);
    else if (st.isFile()) add(abs, st);
  }
  return { files: [...seen.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), problems };
}
