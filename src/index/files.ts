// Which files the search index covers, and what each one is: every markdown file of the memory
// tree (raw logs, daily/weekly/monthly nodes, ROOT.md, anything else kept there) plus the extra
// folders or files the config names (`search.include`, e.g. `knowledge/`).
import { type Dirent, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { lastDayOfMonthId, monthDates, parseLocalDate, weekDates, type LocalDate } from '../time/calendar.js';
import { redactedPath, workspaceRedactor } from '../redact/workspace.js';
import { brokenLink, realInside } from '../tree/inside.js';
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
  /** The file's size and mtime as the listing found them (the caller need not ask again). */
  stats: FileStamp;
}

/**
 * What tells a file changed without reading it. Not the whole Stats: with its four Dates, the
 * 6,858 of a 10-year tree, kept until the index is up to date, gave the listing twice the
 * garbage collection (a scavenge copies what is still alive).
 */
export type FileStamp = Pick<Stats, 'size' | 'mtimeMs'>;

/** Folders never descended into: hidden ones (`.hipo`, `.git`) and dependency trees. */
const SKIP_DIRS = new Set(['node_modules']);
const DOT = '.'.charCodeAt(0);
const MARKDOWN = /\.md$/i;
const DATE_IN_NAME = /(?:^|[^\d])(\d{4}-\d{2}-\d{2})(?:[^\d]|$)/;

/** A path from `from` to `abs`, forward slashes: `''` for `from` itself. */
function slashRelative(from: string, abs: string): string {
  const rel = relative(from, abs);
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** A folder as its files' paths begin: `memory/daily/`, `''` for the folder itself, `../away/`. */
function asPrefix(rel: string): string {
  return rel === '' || rel.endsWith('/') ? rel : `${rel}/`;
}

/**
 * What a file is, for the index: `path` is workspace-relative, `inTree` relative to the memory
 * folder (starting `..` outside it), both with forward slashes.
 */
function describeFile(path: string, inTree: string, abs: string, stats: FileStamp): IndexableFile {
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
  const add = (path: string, inTree: string, abs: string, stats: Stats): void => {
    if (seen.has(path) || refused.has(path)) return;
    // The index keeps every file's path: a path that holds a secret is left out, named redacted.
    const named = redactedPath(redactor, path, inMemory);
    if (named === path) seen.set(path, describeFile(path, inTree, abs, { size: stats.size, mtimeMs: stats.mtimeMs }));
    else {
      refused.add(path);
      problems.push(`${named}: skipped: its name holds a secret, which the search index would copy; rename the file`);
    }
  };
  // A file not met by a walk: its paths are worked out from its own.
  const addFile = (abs: string, stats: Stats): void => add(wsPath(abs), slashRelative(ws.memoryDir, abs), abs, stats);
  const wsPath = (abs: string): string => slashRelative(ws.root, abs);
  // Symbolic links to files are followed while they stay inside the folder walked; links to
  // folders are not (a link loop would never end). Null: not listed.
  const entryStats = (abs: string, root: string): Stats | null => {
    try {
      const st = lstatSync(abs);
      if (!st.isSymbolicLink()) return st;
      if (realInside(root, relative(root, abs)) === null) {
        const why = brokenLink(abs) ?? `a link to outside ${wsPath(root) || '.'}`;
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
    // other files are told apart by their directory entry. A file's paths are its folder's and
    // its name: a path.join and two path.relative per file cost as much as the system calls
    // (6,858 files of a 10-year tree: ~55 ms of a one-shot search's ~200 ms listing).
    const inDir = dir.endsWith(sep) ? dir : dir + sep;
    const path = asPrefix(wsPath(dir));
    const inTree = asPrefix(slashRelative(ws.memoryDir, dir));
    for (const e of entries) {
      const name = e.name;
      if (name.charCodeAt(0) === DOT || SKIP_DIRS.has(name)) continue;
      const abs = inDir + name;
      if (e.isDirectory()) walk(abs, null, root);
      else if (!MARKDOWN.test(name) || !(e.isFile() || e.isSymbolicLink())) continue;
      else {
        const st = entryStats(abs, root);
        if (st?.isFile()) add(path + name, inTree + name, abs, st);
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
      if (st?.isFile()) addFile(abs, st);
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
    else if (st.isFile()) addFile(abs, st);
  }
  // The default order compares UTF-16 code units, as `<` does, without calling back per comparison.
  const paths = [...seen.keys()].sort();
  return { files: paths.map((path) => seen.get(path)!), problems };
}
