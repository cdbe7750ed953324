// Which workspace a command is about when no `--dir` names it: the nearest folder at or above the
// current one that is a workspace, the way git finds its repository. A workspace is a folder
// with hipo.config.json (or a hipocampus one), or, without a config, with a memory/ folder that
// hipo has already compacted (ROOT.md or daily/): a bare folder named memory is not enough.
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CONFIG_FILE, configText, LEGACY_CONFIG_FILE } from './settings-source.js';

function isWorkspace(dir: string): boolean {
  // lstat: a config that is a link to nothing marks a workspace too, whose command then says so.
  const config = (name: string): boolean => {
    try {
      return lstatSync(join(dir, name), { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false; // ENOTDIR: `dir` is a file
    }
  };
  if (config(CONFIG_FILE) || config(LEGACY_CONFIG_FILE)) return true;
  return existsSync(join(dir, 'memory', 'ROOT.md')) || existsSync(join(dir, 'memory', 'daily'));
}

/** The nearest workspace at or above `start`, or null when there is none up to the file system root. */
export function findWorkspaceRoot(start: string): string | null {
  let cur = resolve(start);
  for (;;) {
    if (isWorkspace(cur)) return cur;
    const up = dirname(cur);
    if (up === cur) return null;
    cur = up;
  }
}

/**
 * What tells two workspaces apart: the real path of the root (links resolved), or null when
 * nothing is there. A workspace moved or renamed under a running daemon is another path, though
 * the same folder: the daemon's paths all lead to where it was.
 */
export function workspaceIdentity(root: string): string | null {
  try {
    return realpathSync(root);
  } catch {
    return null;
  }
}

/**
 * The workspace whose memory folder `dir` is or lies in (`ws/memory`, `ws/memory/daily`), or
 * null: a folder there is the tree's, and neither a workspace of its own nor one to point
 * `--dir` at. Reads only the `memoryDir` of the configs on the way up (a config that does not
 * parse is its own command's to report).
 */
export function workspaceHolding(dir: string): { root: string; memoryDir: string; says: string } | null {
  const target = resolve(dir);
  for (let up = dirname(target), below = target; up !== below; below = up, up = dirname(up)) {
    if (!isWorkspace(up)) continue;
    const memoryDir = resolve(up, memoryDirIn(up));
    const rel = relative(memoryDir, target);
    if (rel.split(sep)[0] !== '..' && !isAbsolute(rel))
      return { root: up, memoryDir, says: `${target} is ${rel ? 'inside the memory folder' : 'the memory folder'} of the workspace ${up}` };
  }
  return null;
}

function memoryDirIn(root: string): string {
  try {
    const v = (JSON.parse(configText(root) ?? '{}') as { memoryDir?: unknown }).memoryDir;
    if (typeof v === 'string' && v.trim() !== '') return v;
  } catch {
    /* reported by the command that loads it */
  }
  return 'memory';
}
