// Reading the memory tree from disk: list the folders, stat each file, and read only the files
// the stamp cache does not already know in this exact version.
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { LocalDate } from '../time/calendar.js';
import { classifyPath, nodeKey, type NodeKey, type Workspace } from './layout.js';
import { readNode, readRawLog } from './read.js';
import type { FileStamp, NodeInfo, Problem, RawLogInfo, TreeSnapshot } from './snapshot.js';
import { StampCache, type Cached } from './stamp-cache.js';

export { StampCache };

export interface ScanResult {
  snapshot: TreeSnapshot;
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
    let entry: Cached | undefined = cache.get(rel, stamp, what.kind === 'raw' ? { date: what.date } : { period: what.period });
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
  return { snapshot: { raws, nodes, problems } };
}
