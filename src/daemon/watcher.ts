// Watching the memory folder: one system folder watch (fs.watch) per folder of the tree, and
// for each event a look at the one entry it names. Files are reported once their size has held
// still (a writer may still be appending), a file that vanishes only if it is still gone a moment
// later (an editor's atomic save replaces a file by renaming another over it: that is a change).
// Hidden entries (hipo's temp files start with a dot) and `.hipo/` are ignored.
//
// Why not chokidar: on every event in a folder it reads the whole folder again, with a stat of
// every entry, and it keeps one watch per file. A 10-year memory holds 3,650 raw logs beside
// ROOT.md and 3,650 daily nodes, so each change cost the daemon ~90 ms of CPU and ~16 MB of
// garbage in re-reads, and 7,000 watches is near Linux's old default limit of 8,192. Here a
// change costs a stat, and the watches are the tree's few folders.
import { type FSWatcher, lstatSync, readdirSync, type Stats, statSync, watch } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { Workspace } from '../tree/layout.js';

export type WatchEvent = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

export interface WatchOptions {
  /** Milliseconds a file's size must hold still before its change is reported. */
  writeFinishMs: number;
  onChange(absPath: string, event: WatchEvent): void;
  /**
   * A file inside the memory folder was touched, reported as the system reports it: at once,
   * before its writes have settled (may name a folder, or a path that is not there).
   */
  onTouch?(absPath: string): void;
  onError(err: Error): void;
}

/** How long a vanished file must stay gone to be reported as removed (an atomic save's gap). */
const GONE_MS = 100;

type Kind = 'file' | 'dir';

interface Folder {
  watch: FSWatcher | null;
  /** Which folder it is (identity()): a folder removed and made again is another one. */
  identity: string | null;
  /** Entry name → kind, as last seen. */
  entries: Map<string, Kind>;
}

export interface MemoryWatcher {
  close(): Promise<void>;
}

export function watchMemory(ws: Workspace, o: WatchOptions): MemoryWatcher {
  return new FolderWatcher(ws, o);
}

class FolderWatcher implements MemoryWatcher {
  private readonly mem: string;
  private readonly folders = new Map<string, Folder>();
  /** Files waiting for their writes to settle: the event to report and the size last seen. */
  private readonly settling = new Map<string, { event: 'add' | 'change'; size: number; timer: NodeJS.Timeout }>();
  private readonly goneTimers = new Map<string, NodeJS.Timeout>();
  private readonly parent: FSWatcher | null;
  private closed = false;

  constructor(
    private readonly ws: Workspace,
    private readonly o: WatchOptions,
  ) {
    this.mem = ws.memoryDir;
    // The memory folder's own coming and going is seen from the folder that holds it.
    this.parent = this.watchFolder(dirname(this.mem), (name) => {
      if (name === null || name === basename(this.mem)) this.checkMemoryFolder();
    });
    if (kindOf(this.mem, true) === 'dir') this.addFolder(this.mem, false);
  }

  private ignored(abs: string): boolean {
    const name = abs.slice(abs.lastIndexOf(sep) + 1);
    return name.startsWith('.') || abs === this.ws.stateDir || abs.startsWith(this.ws.stateDir + sep);
  }

  private watchFolder(dir: string, onEvent: (name: string | null) => void): FSWatcher | null {
    try {
      const w = watch(dir, { persistent: true }, (_event, name) => {
        if (!this.closed) onEvent(name === null ? null : String(name));
      });
      w.on('error', (err) => {
        // A folder removed under its watch ends it; its parent's watch reports the removal.
        if ((err as NodeJS.ErrnoException).code !== 'EPERM' && kindOf(dir) === 'dir') this.o.onError(err);
        w.close();
      });
      return w;
    } catch (err) {
      this.o.onError(new Error(`cannot watch ${dir}: ${(err as Error).message}`));
      return null;
    }
  }

  /** Starts watching `dir` and the folders inside it; `report` says its files are new. */
  private addFolder(dir: string, report: boolean): void {
    if (this.folders.has(dir)) return;
    const folder: Folder = { watch: null, identity: identity(statOf(dir, dir === this.mem)), entries: new Map() };
    this.folders.set(dir, folder);
    folder.watch = this.watchFolder(dir, (name) => this.onEvent(dir, name));
    for (const [name, kind] of listFolder(dir)) {
      const abs = join(dir, name);
      if (this.ignored(abs)) continue;
      folder.entries.set(name, kind);
      if (kind === 'dir') {
        if (report) this.o.onChange(abs, 'addDir');
        this.addFolder(abs, report);
      } else if (report) this.settle(abs, 'add');
    }
  }

  private removeFolder(dir: string): void {
    for (const [path, f] of this.folders) {
      if (path !== dir && !path.startsWith(dir + sep)) continue;
      f.watch?.close();
      this.folders.delete(path);
    }
    for (const [path, s] of this.settling) {
      if (!path.startsWith(dir + sep)) continue;
      clearTimeout(s.timer);
      this.settling.delete(path);
    }
  }

  private checkMemoryFolder(): void {
    const st = statOf(this.mem, true);
    const there = kindFrom(st) === 'dir';
    const watched = this.folders.get(this.mem);
    if (there && watched && watched.identity !== identity(st)) {
      // Removed and made again before the system said so: the watch was on the old folder.
      this.removeFolder(this.mem);
      this.o.onChange(this.mem, 'unlinkDir');
    }
    if (there && !this.folders.has(this.mem)) {
      // Its files are not reported one by one: a folder that came back is looked at whole.
      this.addFolder(this.mem, false);
      this.o.onChange(this.mem, 'addDir');
    } else if (!there && this.folders.has(this.mem)) {
      this.removeFolder(this.mem);
      this.o.onChange(this.mem, 'unlinkDir');
    }
  }

  private onEvent(dir: string, name: string | null): void {
    const folder = this.folders.get(dir);
    if (!folder) return;
    if (name === null) {
      // The system did not say which entry: compare the folder with what it held.
      const now = listFolder(dir);
      for (const n of new Set([...folder.entries.keys(), ...now.keys()])) this.onEntry(dir, folder, n);
      return;
    }
    const abs = join(dir, name);
    if (this.ignored(abs)) return;
    if (this.o.onTouch) {
      this.o.onTouch(abs);
      if (dir !== this.mem) this.o.onTouch(dir);
    }
    this.onEntry(dir, folder, name);
  }

  private onEntry(dir: string, folder: Folder, name: string): void {
    const abs = join(dir, name);
    if (this.ignored(abs)) return;
    const was = folder.entries.get(name);
    const st = statOf(abs);
    const kind = kindFrom(st);
    if (kind === null) {
      if (was === 'dir') {
        folder.entries.delete(name);
        this.removeFolder(abs);
        this.o.onChange(abs, 'unlinkDir');
      } else if (was === 'file' && !this.goneTimers.has(abs)) {
        // Still gone a moment later: removed (not replaced by an atomic save).
        const t = setTimeout(() => {
          this.goneTimers.delete(abs);
          if (this.closed || kindOf(abs) !== null || this.folders.get(dir)?.entries.get(name) !== 'file') return;
          folder.entries.delete(name);
          const s = this.settling.get(abs);
          if (s) clearTimeout(s.timer);
          this.settling.delete(abs);
          this.o.onChange(abs, 'unlink');
        }, GONE_MS);
        t.unref();
        this.goneTimers.set(abs, t);
      }
      return;
    }
    if (kind === 'dir') {
      if (was === 'dir') {
        if (this.folders.get(abs)?.identity === identity(st)) return;
        // Replaced by another folder of the same name before its removal was read.
        this.removeFolder(abs);
        this.o.onChange(abs, 'unlinkDir');
      }
      folder.entries.set(name, 'dir');
      this.o.onChange(abs, 'addDir');
      this.addFolder(abs, true);
      return;
    }
    folder.entries.set(name, 'file');
    this.settle(abs, was === 'file' ? 'change' : 'add');
  }

  /** Reports `abs` once its size has held still for `writeFinishMs`. */
  private settle(abs: string, event: 'add' | 'change'): void {
    const prior = this.settling.get(abs);
    if (prior) clearTimeout(prior.timer);
    const check = (): void => {
      if (this.closed) return;
      const s = this.settling.get(abs);
      if (!s) return;
      const size = sizeOf(abs);
      if (size === null) {
        // Gone before it settled: the removal (if it stays gone) is reported by its own event.
        this.settling.delete(abs);
        return;
      }
      if (size !== s.size) {
        s.size = size;
        s.timer = setTimeout(check, this.o.writeFinishMs).unref();
        return;
      }
      this.settling.delete(abs);
      this.o.onChange(abs, s.event);
    };
    // An add stays an add while it settles, whatever events follow.
    const entry = { event: prior?.event ?? event, size: sizeOf(abs) ?? -1, timer: setTimeout(check, this.o.writeFinishMs).unref() };
    this.settling.set(abs, entry);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.parent?.close();
    for (const f of this.folders.values()) f.watch?.close();
    this.folders.clear();
    for (const s of this.settling.values()) clearTimeout(s.timer);
    this.settling.clear();
    for (const t of this.goneTimers.values()) clearTimeout(t);
    this.goneTimers.clear();
  }
}

/**
 * A folder's entries by kind; symbolic links are not followed (they count as files), except the
 * memory folder itself, which may be a link to a folder kept elsewhere (a synced drive).
 */
function listFolder(dir: string): Map<string, Kind> {
  const out = new Map<string, Kind>();
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) out.set(e.name, e.isDirectory() ? 'dir' : 'file');
  } catch {
    /* gone or unreadable: nothing to watch in it */
  }
  return out;
}

function statOf(abs: string, follow = false): Stats | null {
  try {
    return follow ? statSync(abs) : lstatSync(abs);
  } catch {
    return null;
  }
}

function kindFrom(st: Stats | null): Kind | null {
  return st === null ? null : st.isDirectory() ? 'dir' : 'file';
}

function kindOf(abs: string, follow = false): Kind | null {
  return kindFrom(statOf(abs, follow));
}

/**
 * A folder's identity: its inode with its birth time, since a file system may give a folder made
 * again the inode number of the one just removed (ext4 does). Without birth times (some file
 * systems), the inode alone.
 */
function identity(st: Stats | null): string | null {
  return st === null ? null : `${st.ino}:${st.birthtimeMs}`;
}

function sizeOf(abs: string): number | null {
  const st = statOf(abs);
  return st === null ? null : st.size;
}
