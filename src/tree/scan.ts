// Reading the memory tree from disk: list the folders, stat each file, and read only the files
// the stamp cache does not already know in this exact version.
import { existsSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { redactedPath, workspaceRedactor } from '../redact/workspace.js';
import type { LocalDate } from '../time/calendar.js';
import { brokenLink, realInside } from './inside.js';
import { classifyPath, copiedNodeName, intendedRawName, nodeKey, type NodeKey, type Workspace } from './layout.js';
import { cappedNote, DEFAULT_MAX_FILE_BYTES, readCapped, type CappedRead } from './capped.js';
import { oversizedNode, readNode, readRawLog } from './read.js';
import { withoutPart, withPart } from './raw-day.js';
import type { Cached, FileStamp, NodeInfo, Problem, RawLogInfo, ScanCache, TreeSnapshot } from './snapshot.js';

export interface ScanResult {
  snapshot: TreeSnapshot;
}

export class MemoryDirMissing extends Error {
  constructor(readonly dir: string) {
    super(`no memory folder at ${dir} (run "hipo init" to create one)`);
  }
}

const COPY_NOTE = "not one of hipo's nodes, left as it is (search finds it beside the node)";

function listMarkdown(ws: Workspace, prefix: string, problems: Problem[]): string[] {
  const dir = join(ws.memoryDir, prefix);
  const shown = `${ws.memoryName}/${prefix}`;
  if (prefix && realInside(ws.memoryDir, prefix.slice(0, -1)) === null) {
    problems.push({
      file: shown.slice(0, -1),
      message: 'a link to a folder outside the memory folder: its files are not read, and no node is written there',
    });
    return [];
  }
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push({ file: shown, message: `folder cannot be listed (${code})` });
    return [];
  }
  const out: string[] = [];
  const names = new Set(entries.map((e) => e.name));
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!prefix && !e.isDirectory()) {
      const misnamed = misnamedRawLog(e.name, (n) => names.has(n));
      if (misnamed) {
        problems.push({ file: shownPath(ws, e.name), message: misnamed });
        continue;
      }
    }
    if (!e.name.endsWith('.md') || e.name.startsWith('.')) continue;
    // Listed all the same: it is a note of the user's, searched, never compacted or rewritten.
    const copied = e.isDirectory() ? null : copiedNodeName(prefix + e.name);
    if (copied)
      problems.push({
        file: shownPath(ws, prefix + e.name),
        message: `looks like a copy of ${ws.memoryName}/${copied}: ${COPY_NOTE}`,
      });
    // A link is followed only while it stays inside the memory folder.
    if (e.isSymbolicLink() && realInside(ws.memoryDir, prefix + e.name) === null) {
      problems.push({ file: shown + e.name, message: unfollowedLink(join(dir, e.name)) });
      continue;
    }
    out.push(prefix + e.name);
  }
  return out;
}

/**
 * Why a top-level file is not read though it looks like a raw log (`2026-11-2.md`,
 * `2026-11-20.MD`, a sync tool's conflicting copy), with the name it probably meant; null for
 * any other file. Said, never renamed: the file is the user's.
 */
function misnamedRawLog(name: string, exists: (name: string) => boolean): string | null {
  if (classifyPath(name).kind !== 'other') return null;
  const meant = intendedRawName(name);
  if (!meant) return null;
  return `looks like a raw log but is not named YYYY-MM-DD.md (${exists(meant) ? `a copy of ${meant}?` : `${meant}?`}): not compacted`;
}

/** A file as problems name it: its memory-relative path, any secret in it redacted by the workspace's rules. */
function shownPath(ws: Workspace, rel: string): string {
  return `${ws.memoryName}/${redactedPath(workspaceRedactor(ws), rel)}`;
}

/** Why a link is not followed: it leads out of the memory folder, to nothing, or around in a loop. */
function unfollowedLink(abs: string): string {
  return `skipped: ${brokenLink(abs) ?? 'a link to outside the memory folder'}`;
}

/** Reads the tree's raw logs and nodes. Throws MemoryDirMissing when there is no tree. */
export function scanTree(ws: Workspace, cache: ScanCache, maxFileBytes = DEFAULT_MAX_FILE_BYTES): ScanResult {
  requireMemoryDir(ws);
  const problems: Problem[] = [];
  const raws = new Map<LocalDate, RawLogInfo>();
  const nodes = new Map<NodeKey, NodeInfo>();
  const live = new Set<string>();
  const rels = ['', 'daily/', 'weekly/', 'monthly/'].flatMap((prefix) => listMarkdown(ws, prefix, problems));
  for (const rel of rels) {
    const got = readEntry(ws, rel, cache, problems, maxFileBytes);
    if (got === 'gone') continue;
    live.add(rel);
    if (got) put(got, raws, nodes);
  }
  cache.retain(live);
  if (raws.size === 0) {
    const nested = nestedDatedNotes(ws);
    if (nested.length) {
      const more =
        nested.length > 1 ? ` (nor ${nested.length - 1}${nested.length > NESTED_LOOK ? '+' : ''} more dated notes in subfolders)` : '';
      problems.push({
        file: `${ws.memoryName}/${nested[0]}`,
        message:
          `not read as a raw log${more}: raw logs are read at the top of ${ws.memoryName}/ only, ` +
          `as ${ws.memoryName}/YYYY-MM-DD.md; search finds them where they are`,
      });
    }
  }
  return { snapshot: { raws, nodes, problems } };
}

/** How many dated notes a scan looks for in subfolders, and how deep. */
const NESTED_LOOK = 20;
const NESTED_DEPTH = 3;
const TREE_FOLDERS = new Set(['daily', 'weekly', 'monthly', 'edits']);

/**
 * Dated notes in subfolders (`2026/11/2026-11-20.md`, a notes app's layout): looked for only when
 * the top holds no raw log, so that a memory folder laid out another way is not just "nothing to
 * do". Bounded: the first few, a few levels down.
 */
function nestedDatedNotes(ws: Workspace): string[] {
  const found: string[] = [];
  const walk = (rel: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(ws.memoryDir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (found.length > NESTED_LOOK) return;
      if (e.name.startsWith('.')) continue;
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && depth < NESTED_DEPTH && !(depth === 0 && TREE_FOLDERS.has(e.name))) walk(path, depth + 1);
      else if (rel && e.isFile() && /^\d{4}-\d{2}-\d{2}\b.*\.md$/.test(e.name)) found.push(path);
    }
  };
  walk('', 0);
  return found;
}

/**
 * The tree as `previous` was, with only the `changed` files (memory-relative paths) looked at
 * again. For a resident process whose file watcher reports every change: a cycle then costs the
 * same however many years the tree holds. Anything the watcher cannot vouch for (a folder that
 * came or went, a watcher error) calls for a full scanTree instead.
 */
export function rescanTree(
  ws: Workspace,
  cache: ScanCache,
  previous: TreeSnapshot,
  changed: Iterable<string>,
  maxFileBytes = DEFAULT_MAX_FILE_BYTES,
): ScanResult {
  requireMemoryDir(ws);
  const raws = new Map(previous.raws);
  const nodes = new Map(previous.nodes);
  const paths = new Set(changed);
  const shownPaths = new Set([...paths].map((rel) => shownPath(ws, rel)));
  // Problems of the files looked at again are found again (or are gone); the rest still hold.
  const problems = previous.problems.filter((p) => !shownPaths.has(p.file));
  for (const rel of paths) {
    const what = classifyPath(rel);
    if (what.kind === 'raw') {
      const rest = withoutPart(raws.get(what.date), rel);
      if (rest) raws.set(what.date, rest);
      else raws.delete(what.date);
    } else if (what.kind === 'node') nodes.delete(nodeKey(what.period));
    else if (what.kind === 'other') {
      const misnamed = rel.includes('/') ? null : misnamedRawLog(rel, (n) => existsSync(join(ws.memoryDir, n)));
      if (misnamed && isFile(join(ws.memoryDir, rel))) problems.push({ file: shownPath(ws, rel), message: misnamed });
      continue;
    }
    if (realInside(ws.memoryDir, rel) === null) {
      problems.push({ file: shownPath(ws, rel), message: unfollowedLink(join(ws.memoryDir, rel)) });
      continue;
    }
    const got = readEntry(ws, rel, cache, problems, maxFileBytes);
    if (got && got !== 'gone') put(got, raws, nodes);
  }
  return { snapshot: { raws, nodes, problems } };
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

/** Throws MemoryDirMissing unless the workspace's memory folder is there (a folder). */
export function requireMemoryDir(ws: Pick<Workspace, 'memoryDir'>): void {
  let top: Stats;
  try {
    top = statSync(ws.memoryDir);
  } catch {
    throw new MemoryDirMissing(ws.memoryDir);
  }
  if (!top.isDirectory()) throw new MemoryDirMissing(ws.memoryDir);
}

function put(entry: Cached, raws: Map<LocalDate, RawLogInfo>, nodes: Map<NodeKey, NodeInfo>): void {
  if (entry.kind === 'raw') raws.set(entry.info.date, withPart(raws.get(entry.info.date), entry.info));
  // A node's own problem is reported by the planner, with what it means for the node.
  else nodes.set(nodeKey(entry.info.period), entry.info);
}

/**
 * One file's record: from the stamp cache when it knows this exact version, else read. 'gone'
 * when there is no such file; null when it is not part of the tree or could not be read (the
 * reason is added to `problems`).
 */
function readEntry(ws: Workspace, rel: string, cache: ScanCache, problems: Problem[], maxFileBytes: number): Cached | null | 'gone' {
  const what = classifyPath(rel);
  const shown = shownPath(ws, rel);
  if (what.kind === 'other') return null;
  const abs = join(ws.memoryDir, rel);
  let st: Stats;
  try {
    st = statSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'gone';
    problems.push({ file: shown, message: `skipped: cannot be read (${code ?? String(err)})` });
    return null;
  }
  if (!st.isFile()) {
    // A folder named like a raw log is not one: said, for its notes would never be compacted.
    if (what.kind === 'raw' && st.isDirectory())
      problems.push({ file: shown, message: 'skipped: a folder named like a raw log; its files are not compacted (search finds them)' });
    return 'gone';
  }
  // A raw log's name is copied into its nodes (`source-files`, links) and the search index: one
  // that holds a secret is left out until it is renamed.
  if (shown !== `${ws.memoryName}/${rel}`) {
    problems.push({
      file: shown,
      message: 'skipped: its name holds a secret, which its nodes and the search index would copy; rename the file to have it compacted',
    });
    return null;
  }
  if (what.kind === 'bad-name') {
    problems.push({ file: shown, message: `skipped: ${what.reason}` });
    return null;
  }
  const stamp: FileStamp = { size: st.size, mtimeMs: st.mtimeMs };
  let entry: Cached | undefined = cache.get(rel, stamp, what.kind === 'raw' ? { date: what.date } : { period: what.period });
  if (!entry) {
    let read: CappedRead;
    try {
      read = readCapped(abs, maxFileBytes);
    } catch (err) {
      problems.push({ file: shown, message: `skipped: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` });
      return null;
    }
    const note = read.truncated ? cappedNote(read, maxFileBytes) : null;
    if (what.kind === 'raw') entry = { kind: 'raw', info: readRawLog(what.date, rel, read.bytes, stamp, { hash: read.hash, note }) };
    else
      entry = {
        kind: 'node',
        info: note
          ? oversizedNode(what.period, rel, stamp, `${note}: not one of hipo's nodes, left as it is`)
          : readNode(what.period, rel, read.bytes, stamp),
      };
    cache.set(rel, entry);
  }
  if (entry.kind === 'raw' && entry.info.note)
    problems.push({ file: shown, message: entry.info.usable ? entry.info.note : `skipped: ${entry.info.note}` });
  return entry;
}
