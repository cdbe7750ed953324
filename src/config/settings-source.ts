// Where a process's settings come from: the workspace's config file (or a hipocampus one) and the
// HIPO_* environment variables (TZ too: a config without a time zone takes the system's). Kept
// apart from config.ts, which validates, so that a one-shot command can tell whether a running
// daemon works with the same settings without loading the validation, time zone data or the
// redactor first (cli/daemon-first.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CONFIG_FILE = 'hipo.config.json';
/** Read for the settings it shares with hipo when `hipo.config.json` is absent. */
export const LEGACY_CONFIG_FILE = 'hipocampus.config.json';

/** Default of `lockWaitMs`: how long a command waits for another hipo process. */
export const DEFAULT_LOCK_WAIT_MS = 10_000;

/** Default of `search.expand.timeoutMs`: how long a search waits for the model's extra queries. */
export const DEFAULT_EXPAND_TIMEOUT_MS = 20_000;

/** Default of `agents.hookBudgetMs`: how long a hook spends on its work (a capture's reading, a daemon's answer). */
export const DEFAULT_HOOK_BUDGET_MS = 1500;

/** Default of `agents.hookTimeoutMs`: the hard cap on a hook process. */
export const DEFAULT_HOOK_TIMEOUT_MS = 8000;

/** The longest delay a Node timer takes (2^31 − 1 ms, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a workspace may be called in a shared database: it shows in results and in `--workspace`. */
export const WORKSPACE_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,99}$/u;

/** Variables that say when "today" is: compared on their own (daemon/ask.ts clockSource). */
const CLOCK_VARIABLES = new Set(['HIPO_NOW', 'HIPO_NOW_FILE']);

function fileText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The text of the workspace's `hipo.config.json`, or null when there is none. */
export function configText(root: string): string | null {
  return fileText(join(root, CONFIG_FILE));
}

/**
 * A digest of everything the settings of a process in `root` with `env` are made from: two
 * processes with the same digest load the same configuration. (Secrets in variables go into the
 * digest only: it is a one-way hash.) `config`: the config file's text when the caller has read it.
 */
export function settingsDigest(root: string, env: NodeJS.ProcessEnv, config: string | null = configText(root)): string {
  const vars = Object.keys(env)
    .filter((k) => (k.startsWith('HIPO_') && !CLOCK_VARIABLES.has(k)) || k === 'TZ')
    .sort()
    .map((k) => [k, env[k] ?? '']);
  const parts = [config, fileText(join(root, LEGACY_CONFIG_FILE)), vars];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}
