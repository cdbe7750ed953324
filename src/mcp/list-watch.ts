// When the set of nodes resources/list gives changes, for `notifications/resources/list_changed`.
// One system folder watch (fs.watch) for each place a listed node can come or go: the memory
// folder (ROOT.md; a level folder made or removed), its daily, weekly and monthly folders, the
// folder holding it (the memory folder made or removed), and the folder of the workspace's config
// (a config fixed, broken or naming another memory folder: memoryDir() then says so, and the
// watches follow). An event only schedules a look: once events pause, the listing's names are
// read again (as resources/list reads them: names, never content) and compared with the last
// ones. So a node rewritten in place (written beside it and renamed over it) changes nothing,
// and a compaction writing a dozen nodes is one change.
//
// Why not the daemon's watcher (daemon/watcher.ts): it watches every folder of the tree and
// waits for each written file to settle, raw logs included, which grow at every capture; the
// listing needs the names in four folders.
import { type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ROOT_FILE } from '../tree/layout.js';

const LEVEL_FOLDERS = ['daily', 'weekly', 'monthly'];

export interface ListingWatchOptions {
  /** The served workspace's memory folder (there or not), or null when there is no workspace. */
  memoryDir(): string | null;
  /**
   * Files that say where the memory folder is, or whether one is served (the workspace's config):
   * watched through their folders, there or not, for the whole session.
   */
  settingsFiles?: readonly string[];
  /** The listing's names now, in one string: compared with the last, never parsed. */
  names(): string;
  /** The set of listed nodes changed since the last call (or the start). */
  onChange(): void;
  /** A folder that cannot be watched: it is left unwatched, the others go on. */
  onError(err: Error): void;
  /** Milliseconds without an event that end a burst. */
  quietMs?: number;
  /** The longest a burst of events delays its look: a long catch-up is still reported as it goes. */
  maxDelayMs?: number;
}

export interface ListingWatch {
  close(): void;
}

interface Watched {
  watch: FSWatcher;
  /** Which folder it is: one removed and made again is another, and the old watch sees nothing. */
  identity: string;
  /** Which of its entries concern the listing: the root's change when the config moves the memory folder. */
  concerns: (name: string) => boolean;
}

/**
 * A folder's identity: inode and birth time (a folder made again may get the inode just freed),
 * or null when it is not a folder. Follows a link, as a memory folder kept elsewhere may be one.
 */
function identity(dir: string): string | null {
  try {
    const st = statSync(dir);
    return st.isDirectory() ? `${st.ino}:${st.birthtimeMs}` : null;
  } catch {
    return null;
  }
}

export function watchListing(o: ListingWatchOptions): ListingWatch {
  const quietMs = o.quietMs ?? 300;
  const maxDelayMs = o.maxDelayMs ?? 2000;
  const watches = new Map<string, Watched>();
  const told = new Set<string>();
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let burstStart: number | null = null;
  let last: string | null = null;

  const report = (err: unknown): void => {
    const e = err instanceof Error ? err : new Error(String(err));
    // Once per message: a folder that cannot be watched is tried again at every look.
    if (told.has(e.message)) return;
    told.add(e.message);
    o.onError(e);
  };

  const schedule = (): void => {
    if (closed) return;
    const now = Date.now();
    burstStart ??= now;
    if (timer) clearTimeout(timer);
    timer = setTimeout(look, Math.max(0, Math.min(quietMs, burstStart + maxDelayMs - now)));
    timer.unref();
  };

  /** The folders to watch now, each with the entry names that concern the listing. */
  const wanted = (): Map<string, (name: string) => boolean> => {
    const out = new Map<string, (name: string) => boolean>();
    // One watch a folder: the workspace's root usually holds both the config and the memory folder.
    const add = (dir: string, concerns: (name: string) => boolean): void => {
      const before = out.get(dir);
      out.set(dir, before ? (name) => before(name) || concerns(name) : concerns);
    };
    for (const file of o.settingsFiles ?? []) add(dirname(file), (name) => name === basename(file));
    const mem = o.memoryDir();
    if (mem === null) return out;
    add(dirname(mem), (name) => name === basename(mem));
    add(mem, (name) => name === ROOT_FILE || LEVEL_FOLDERS.includes(name));
    for (const level of LEVEL_FOLDERS) add(join(mem, level), (name) => name.endsWith('.md') && !name.startsWith('.'));
    return out;
  };

  const start = (dir: string, id: string, concerns: (name: string) => boolean): void => {
    try {
      // Not persistent: the session's stdin is what keeps the server alive.
      let entry: Watched | undefined;
      const w = watch(dir, { persistent: false }, (_event, name) => {
        if (name === null || (entry?.concerns ?? concerns)(String(name))) schedule();
      });
      w.on('error', (err) => {
        w.close();
        if (watches.get(dir)?.watch === w) watches.delete(dir);
        // A folder removed under its watch ends it: the watch on the folder above sees that.
        if (identity(dir) !== null) report(new Error(`watching ${dir}: ${err.message}`));
      });
      entry = { watch: w, identity: id, concerns };
      watches.set(dir, entry);
    } catch (err) {
      report(new Error(`cannot watch ${dir}: ${(err as Error).message}`));
    }
  };

  /** Watches the folders there now, each once; drops the ones gone or made again. */
  const sync = (): void => {
    const want = wanted();
    for (const [dir, w] of watches)
      if (!want.has(dir) || identity(dir) !== w.identity) {
        w.watch.close();
        watches.delete(dir);
      }
    for (const [dir, concerns] of want) {
      const kept = watches.get(dir);
      if (kept) {
        kept.concerns = concerns;
        continue;
      }
      const id = identity(dir);
      if (id !== null) start(dir, id, concerns);
    }
  };

  // Watches first, names after: a node written between the two is in the names read.
  function look(): void {
    timer = null;
    burstStart = null;
    if (closed) return;
    try {
      sync();
      const was = last;
      last = o.names();
      if (was !== null && last !== was) o.onChange();
    } catch (err) {
      report(err);
    }
  }

  look();
  return {
    close(): void {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watches.values()) w.watch.close();
      watches.clear();
    },
  };
}
