// `hipo init`: a workspace with a memory folder and a config file. Creates what is missing,
// never overwrites what is there.
import { mkdirSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultConfig, isPresent, loadConfig, type HipoConfig } from '../config/config.js';
import { CONFIG_FILE, LEGACY_CONFIG_FILE } from '../config/settings-source.js';
import { workspaceHolding } from '../config/workspace-root.js';
import { workspaceAt } from '../tree/layout.js';
import { isValidTimeZone, systemTimeZone } from '../time/calendar.js';

export class InitError extends Error {}

export interface InitResult {
  workspace: string;
  /** The memory folder, relative to the workspace (`memory`, or the config's `memoryDir`). */
  memoryName: string;
  created: string[];
  kept: string[];
  /** What was there and not changed though asked for (`--timezone` beside a config with another zone). */
  notes: string[];
  /** Settings the new config took from a hipocampus.config.json beside it. */
  takenOver: { key: string; value: unknown; from: string }[];
}

export function initWorkspace(dir: string, opts: { timeZone?: string } = {}): InitResult {
  const root = resolve(dir);
  const timeZone = opts.timeZone ?? systemTimeZone();
  if (!isValidTimeZone(timeZone)) throw new InitError(`--timezone: "${timeZone}" is not an IANA time zone (e.g. Europe/Berlin)`);
  // A workspace in a memory folder would hold a tree of its own that commands run there use
  // instead of the real one (`hipo log` writing to memory/memory/).
  const holder = workspaceHolding(root);
  if (holder)
    throw new InitError(`${holder.says}: nothing created (run "hipo init" in ${holder.root}, or give a folder outside its memory folder)`);
  const created: string[] = [];
  const kept: string[] = [];
  if (makeFolder(root)) created.push(root);
  const config = join(root, CONFIG_FILE);
  // A config already there may name another memory folder ("memoryDir": "notes"): that is the
  // one every other command looks for. A hipocampus one gives the settings the two tools share.
  // A config that does not load is reported, not overwritten.
  const loaded = isPresent(config) || isPresent(join(root, LEGACY_CONFIG_FILE)) ? loadConfig(root) : null;
  const ws = workspaceAt(root, loaded?.config.memoryDir ?? 'memory');
  const memoryName = `${ws.memoryName}/`;
  (makeFolder(ws.memoryDir) ? created : kept).push(memoryName);
  const takenOver: InitResult['takenOver'] = [];
  const notes: string[] = [];
  if (isPresent(config)) {
    kept.push(CONFIG_FILE);
    // Never rewritten (it is the user's file, comments and order included): said instead.
    const zone = loaded?.config.timeZone;
    if (opts.timeZone !== undefined && zone !== opts.timeZone)
      notes.push(
        `--timezone ${opts.timeZone} not written: ${CONFIG_FILE} is kept as it is, with the time zone ${zone} ` +
          '(edit "timeZone" there to change it)',
      );
  } else {
    // The time zone is written out so days don't shift when the machine's zone changes; ROOT's
    // cap as a hipocampus workspace had it (once this file is there, that one is not read).
    const rootMaxTokens = loaded?.config.compaction.rootMaxTokens ?? defaultConfig().compaction.rootMaxTokens;
    writeFileSync(config, `${JSON.stringify({ timeZone, compaction: { rootMaxTokens } }, null, 2)}\n`, { flag: 'wx' });
    created.push(CONFIG_FILE);
    if (loaded) for (const key of loaded.takenOver) takenOver.push({ key, value: settingAt(loaded.config, key), from: LEGACY_CONFIG_FILE });
  }
  return { workspace: root, memoryName: ws.memoryName, created, kept, notes, takenOver };
}

/** Makes the folder unless it is there; true when it made it. A file in its place is an error that says so. */
function makeFolder(path: string): boolean {
  let st: Stats | undefined;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    /* ENOTDIR: mkdir says it below */
  }
  if (st) {
    if (!st.isDirectory()) throw new InitError(`${path} is a file, not a folder: nothing created there`);
    return false;
  }
  try {
    mkdirSync(path, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of its path is a file' : (code ?? String(err));
    throw new InitError(`${path}: cannot create the folder (${why})`);
  }
  return true;
}

/** The value of a dotted key (`compaction.rootMaxTokens`). */
function settingAt(config: HipoConfig, key: string): unknown {
  return key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], config);
}
