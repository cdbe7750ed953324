// Reading the memory tree from disk. A stamp cache (`.hipo/tree-cache.json`) keeps each file's
// record by size and mtime, so a cycle on an unchanged tree stats files instead of reading them.
// The cache is only a cache: a missing or corrupt one means a full read, never a wrong answer.
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { LocalDate } from '../time/calendar.js';
import { classifyPath, nodeKey, type NodeKey, type Workspace } from './layout.js';
import { readNode, readRawLog } from './read.js';
import type { FileStamp, NodeInfo, Problem, RawLogInfo, TreeSnapshot } from './snapshot.js';
import { atomicWriteFile } from '../write/atomic.js';
import { ensureStateDir } from './state-dir.js';

const CACHE_VERSION = 5;
const CACHE_FILE = 'tree-cache.json';
/**
 * A record is trusted when the file's mtime is older than the moment the record was taken:
 * any later change moves the mtime past it. On a file system with whole-second mtimes a change
 * within the same second would not, so there the margin is two seconds.
 */
const COARSE_MARGIN_MS = 2000;

type Cached = ({ kind: 'raw'; info: RawLogInfo } | { kind: 'node'; info: NodeInfo }) & { seen?: number };
interface CacheFile {
  version: number;
  scannedAt: number;
  entries: Record<string, Cached>;
}

export class StampCache {
  private entries: Map<string, Cached>;
  /** When the cache was last written (records older than v4 lack their own time). */
  private scannedAt: number;
  private dirty = false;

  private constructor(entries: Map<string, Cached>, scannedAt: number) {
    this.entries = entries;
    this.scannedAt = scannedAt;
  }

  static empty(): StampCache {
    return new StampCache(new Map(), 0);
  }

  static load(ws: Workspace): StampCache {
    try {
      const parsed = JSON.parse(readFileSync(join(ws.stateDir, CACHE_FILE), 'utf8')) as CacheFile;
      if (parsed.version !== CACHE_VERSION || typeof parsed.entries !== 'object') return StampCache.empty();
      return new StampCache(new Map(Object.entries(parsed.entries)), parsed.scannedAt);
    } catch {
      return StampCache.empty();
    }
  }

  get(relPath: string, stamp: FileStamp): Cached | undefined {
    const hit = this.entries.get(relPath);
    if (!hit) return undefined;
    const s = hit.info.stamp;
    if (s.size !== stamp.size || s.mtimeMs !== stamp.mtimeMs) return undefined;
    const seen = hit.seen ?? this.scannedAt;
    const margin = Number.isInteger(stamp.mtimeMs / 1000) ? COARSE_MARGIN_MS : 0;
    if (stamp.mtimeMs >= seen - margin) return undefined;
    return hit;
  }

  /** True when the record for `relPath` was taken from a file with exactly this stamp. */
  knows(relPath: string, stamp: FileStamp): boolean {
    const hit = this.entries.get(relPath);
    return hit !== undefined && hit.info.stamp.size === stamp.size && hit.info.stamp.mtimeMs === stamp.mtimeMs;
  }

  set(relPath: string, value: Cached): void {
    // Only monthly topics are needed without reading the file (ROOT is built from them);
    // daily and weekly topics are many, and their parents read those files anyway.
    const slim: Cached = value.kind === 'node' && value.info.period.level !== 'monthly' ? { kind: 'node', info: { ...value.info, topics: null } } : { ...value };
    slim.seen = Date.now();
    this.entries.set(relPath, slim);
    this.dirty = true;
  }

  /** Drops entries for files that no longer exist. */
  retain(live: ReadonlySet<string>): void {
    for (const k of this.entries.keys()) {
      if (!live.has(k)) {
        this.entries.delete(k);
        this.dirty = true;
      }
    }
  }

  /** Writes the cache if anything changed. Failure is harmless: the next scan reads more. */
  save(ws: Workspace, scanStartedAt: number): void {
    if (!this.dirty && this.scannedAt !== 0) return;
    const file: CacheFile = { version: CACHE_VERSION, scannedAt: scanStartedAt, entries: Object.fromEntries(this.entries) };
    try {
      ensureStateDir(ws);
      atomicWriteFile(join(ws.stateDir, CACHE_FILE), JSON.stringify(file));
      this.scannedAt = scanStartedAt;
      this.dirty = false;
    } catch {
      /* a read-only state folder only costs speed */
    }
  }
}

export interface ScanResult {
  snapshot: TreeSnapshot;
  /** Milliseconds since the epoch when the scan started (for the cache's racy check). */
  startedAt: number;
}

export class MemoryDirMissing extends Error {
  constructor(readonly dir: string) {
    super(`no memory folder at ${dir} (run "hipo init" to create one)`);
  }
}

function listMarkdown(dir: string, prefix: string, problems: Problem[], memoryName: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push({ file: `${memoryName}/${prefix}`, message: `folder cannot be listed (${code})` });
    return [];
  }
  return names.filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort().map((n) => prefix + n);
}

/** Reads the tree's raw logs and nodes. Throws MemoryDirMissing when there is no tree. */
export function scanTree(ws: Workspace, cache: StampCache): ScanResult {
  const startedAt = Date.now();
  const memoryName = ws.memoryName;
  let top: Stats;
  try {
    top = statSync(ws.memoryDir);
  } catch {
    throw new MemoryDirMissing(ws.memoryDir);
  }
  if (!top.isDirectory()) throw new MemoryDirMissing(ws.memoryDir);

  const problems: Problem[] = [];
  const raws = new Map<LocalDate, RawLogInfo>();
  const nodes = new Map<NodeKey, NodeInfo>();
  const live = new Set<string>();
  const rels = [
    ...listMarkdown(ws.memoryDir, '', problems, memoryName),
    ...listMarkdown(join(ws.memoryDir, 'daily'), 'daily/', problems, memoryName),
    ...listMarkdown(join(ws.memoryDir, 'weekly'), 'weekly/', problems, memoryName),
    ...listMarkdown(join(ws.memoryDir, 'monthly'), 'monthly/', problems, memoryName),
  ];
  for (const rel of rels) {
    const what = classifyPath(rel);
    const shown = `${memoryName}/${rel}`;
    if (what.kind === 'other') continue;
    if (what.kind === 'bad-name') {
      problems.push({ file: shown, message: `skipped: ${what.reason}` });
      continue;
    }
    const abs = join(ws.memoryDir, rel);
    let st: Stats;
    try {
      st = statSync(abs);
    } catch (err) {
      problems.push({ file: shown, message: `skipped: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` });
      continue;
    }
    if (!st.isFile()) continue;
    const stamp: FileStamp = { size: st.size, mtimeMs: st.mtimeMs };
    live.add(rel);
    let entry = cache.get(rel, stamp);
    if (!entry) {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(abs);
      } catch (err) {
        problems.push({ file: shown, message: `skipped: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` });
        continue;
      }
      entry = what.kind === 'raw'
        ? { kind: 'raw', info: readRawLog(what.date, rel, bytes, stamp) }
        : { kind: 'node', info: readNode(what.period, rel, bytes, stamp) };
      cache.set(rel, entry);
    }
    if (entry.kind === 'raw') {
      raws.set(entry.info.date, entry.info);
      if (entry.info.note) problems.push({ file: shown, message: entry.info.usable ? entry.info.note : `skipped: ${entry.info.note}` });
    } else {
      // A node's own problem is reported by the planner, with what it means for the node.
      nodes.set(nodeKey(entry.info.period), entry.info);
    }
  }
  cache.retain(live);
  return { snapshot: { raws, nodes, problems }, startedAt };
}
