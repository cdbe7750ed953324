// Watching the memory folder. The workspace root is watched (not the memory folder itself) so
// that a memory folder deleted and created again is picked up; everything outside the memory
// folder, hidden files (hipo's temp files start with a dot) and `.hipo/` are ignored.
import { watch, type FSWatcher } from 'chokidar';
import { join, sep } from 'node:path';
import type { Workspace } from '../tree/layout.js';

export interface WatchOptions {
  /** Milliseconds a file's size must hold still before its change is reported. */
  writeFinishMs: number;
  onChange(absPath: string, event: string): void;
  /**
   * A file inside the memory folder was touched, reported as the system reports it: at once,
   * before its writes have settled (may name a folder, or a path that is not there).
   */
  onTouch?(absPath: string): void;
  onError(err: Error): void;
}

export function watchMemory(ws: Workspace, o: WatchOptions): FSWatcher {
  const mem = ws.memoryDir;
  const inside = (p: string): boolean => p === mem || p.startsWith(mem + sep);
  const above = (p: string): boolean => p === ws.root || mem.startsWith(p + sep);
  const ignored = (p: string): boolean => {
    if (above(p)) return false;
    if (!inside(p)) return true;
    const name = p.slice(p.lastIndexOf(sep) + 1);
    return name.startsWith('.') || p.startsWith(ws.stateDir);
  };
  const w = watch(ws.root, {
    ignored,
    ignoreInitial: true,
    persistent: true,
    followSymlinks: false,
    atomic: true,
    awaitWriteFinish: { stabilityThreshold: o.writeFinishMs, pollInterval: Math.max(25, Math.floor(o.writeFinishMs / 4)) },
  });
  for (const ev of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
    w.on(ev, (path: string) => {
      if (inside(path)) o.onChange(path, ev);
    });
  }
  if (o.onTouch) {
    const touch = o.onTouch;
    // A folder's watcher names the entry; a file's watcher names the file it watches.
    w.on('raw', (_event, name: string | null, details) => {
      const at = (details as { watchedPath?: string } | undefined)?.watchedPath;
      if (!at) return;
      for (const p of name ? [join(at, name), at] : [at]) if (inside(p) && !ignored(p)) touch(p);
    });
  }
  w.on('error', (err: unknown) => o.onError(err instanceof Error ? err : new Error(String(err))));
  return w;
}
