// `hipo compact`, `hipo search` and `hipo recall` when a daemon runs for the workspace: the daemon
// already holds the tree, the index and the loaded code, so the command only asks it over the
// socket and prints the answer. This path runs before the command line is even built and loads a
// handful of small modules: no configuration validation (the daemon answers only a command whose
// settings are made from the same files and variables as its own, config/settings-source.ts), no
// redactor (the daemon's answer is redacted already), no index or compaction code. Whenever it
// cannot be sure the daemon's answer is the command's (options it does not read, a help request,
// another clock or other settings, no daemon), it returns null and the command runs as usual.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { askDaemon, clockSource, type DaemonAnswer, type DaemonAsk, type DaemonRequest } from '../daemon/ask.js';
import type { CompactAnswer, RecallAnswered, SearchAnswered } from '../daemon/requests.js';
import { configText, DEFAULT_EXPAND_TIMEOUT_MS, DEFAULT_LOCK_WAIT_MS, MAX_TIMER_MS, settingsDigest } from '../config/settings-source.js';
import { findWorkspaceRoot } from '../config/workspace-root.js';
import { workspaceAt } from '../tree/layout.js';
import { processIo, type Io } from './io.js';
import { EXIT } from './exit.js';

const COMPACT_OPTIONS = {
  now: { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  dir: { type: 'string' },
} as const;

const RECALL_OPTIONS = {
  budget: { type: 'string' },
  also: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  'no-search': { type: 'boolean' },
  'no-update': { type: 'boolean' },
  now: { type: 'string' },
  dir: { type: 'string' },
} as const;

const SEARCH_OPTIONS = {
  mode: { type: 'string' },
  limit: { type: 'string', short: 'n' },
  level: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  type: { type: 'string' },
  also: { type: 'string', multiple: true },
  expand: { type: 'boolean' },
  'no-expand': { type: 'boolean' },
  workspace: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  'no-update': { type: 'boolean' },
  dir: { type: 'string' },
} as const;

interface WaitSettings {
  lockWaitMs?: unknown;
  search?: { expand?: { enabled?: unknown; timeoutMs?: unknown } };
}

/** A timer setting of the config file, or `fallback` when it is not set or not a valid one. */
export function timerOr(v: unknown, min: number, fallback: number): number {
  return typeof v === 'number' && v >= min && v <= MAX_TIMER_MS ? v : fallback;
}

/**
 * How long the command waits for the daemon, as the config file (`text`) sets it: `lockWaitMs`
 * for its turn at the tree or index, and for a search that expands its query, the model's
 * `search.expand.timeoutMs` before that. A daemon that is only waiting for the model is not
 * given up on: the command would ask the model again itself.
 */
function waitMs(text: string | null, asked: DaemonAsk): number {
  // A config that does not parse is the command's to report: JSON.parse throws, the caller returns null.
  const c = (text === null ? {} : JSON.parse(text)) as WaitSettings;
  const lock = timerOr(c.lockWaitMs, 0, DEFAULT_LOCK_WAIT_MS);
  const expands = asked.op === 'search' && (asked.search.expand ?? c.search?.expand?.enabled === true);
  return expands ? lock + timerOr(c.search?.expand?.timeoutMs, 100, DEFAULT_EXPAND_TIMEOUT_MS) : lock;
}

/**
 * The answer of the daemon of `root` to `asked`, with this process's clock and settings, waiting
 * as long as `wait` says for the config file's text (which JSON.parse may reject: the caller
 * does the work itself then); null: none answered.
 */
export function askDaemonAbout<T>(
  root: string,
  now: string | undefined,
  asked: DaemonAsk,
  wait: (config: string | null) => number,
): Promise<DaemonAnswer<T> | null> {
  const config = configText(root);
  const request = { ...asked, clock: clockSource(process.env, now), settings: settingsDigest(root, process.env, config) } as DaemonRequest;
  return askDaemon<T>(workspaceAt(root), request, wait(config));
}

/** A command's question to the daemon of `root`, waiting as the command's settings say (waitMs). */
function ask<T>(root: string, now: string | undefined, asked: DaemonAsk): Promise<DaemonAnswer<T> | null> {
  return askDaemonAbout<T>(root, now, asked, (config) => waitMs(config, asked));
}

function workspaceOf(dir: string | undefined): string | null {
  return dir !== undefined ? resolve(dir) : findWorkspaceRoot(process.cwd());
}

/** The command's exit code when a running daemon did its work, else null (the command runs itself). */
export async function daemonFirst(argv: readonly string[], io: Io = processIo): Promise<number | null> {
  try {
    const [command, ...rest] = argv;
    if (command === 'compact') return await compact(rest, io);
    if (command === 'search') return await search(rest, io);
    if (command === 'recall') return await recall(rest, io);
    return null;
  } catch {
    // Anything unexpected here (an option it cannot read, a config that does not parse): the
    // command itself says what is wrong.
    return null;
  }
}

async function compact(args: readonly string[], io: Io): Promise<number | null> {
  const { values, positionals } = parseArgs({ args: [...args], options: COMPACT_OPTIONS, strict: true, allowPositionals: true });
  if (positionals.length) return null;
  const root = workspaceOf(values.dir);
  if (!root) return null;
  const answer = await ask<CompactAnswer>(root, values.now, { op: 'compact' });
  if (!answer) return null;
  if (!answer.ok) {
    io.err(`hipo: the daemon's cycle failed: ${answer.error}`);
    return EXIT.failed;
  }
  const { printDaemonCompact } = await import('./format.js');
  const a: Partial<CompactAnswer> & Pick<CompactAnswer, 'compact'> = answer.result;
  // A daemon of an earlier hipo (still running after an upgrade) ran the cycle but does not say these.
  const ws = workspaceAt(root, a.memoryDir ?? 'memory');
  const configWarnings = a.configWarnings ?? [];
  return printDaemonCompact(a.compact, ws, io, { json: !!values.json, verbose: !!values.verbose, configWarnings });
}

async function search(args: readonly string[], io: Io): Promise<number | null> {
  const { values, positionals } = parseArgs({ args: [...args], options: SEARCH_OPTIONS, strict: true, allowPositionals: true });
  if (values.expand && values['no-expand']) return null; // the command line's rule (the last one wins) decides
  const { searchRequest } = await import('./search-options.js');
  const req = searchRequest(positionals, {
    ...values,
    ...(values.expand ? { expand: true } : values['no-expand'] ? { expand: false } : {}),
    update: !values['no-update'],
  });
  const root = workspaceOf(values.dir);
  if (!root) return null;
  const answer = await ask<SearchAnswered>(root, undefined, { op: 'search', search: req });
  // A search the daemon could not run is run by the command, which reports its own errors; so is
  // one a daemon of an earlier hipo answered in its own shape.
  if (!answer?.ok || !answer.result.search) return null;
  const { printSearch } = await import('./search-output.js');
  printSearch(answer.result.search, io, { json: !!values.json, configWarnings: answer.result.configWarnings });
  return EXIT.ok;
}

async function recall(args: readonly string[], io: Io): Promise<number | null> {
  const { values, positionals } = parseArgs({ args: [...args], options: RECALL_OPTIONS, strict: true, allowPositionals: true });
  const question = positionals.join(' ').trim();
  const budget = values.budget === undefined ? undefined : Number(values.budget);
  // What the command rejects, it says how: an empty question, a budget that is not one.
  if (!question || (budget !== undefined && (!Number.isInteger(budget) || budget < 100))) return null;
  const root = workspaceOf(values.dir);
  if (!root) return null;
  const answer = await ask<RecallAnswered>(root, values.now, {
    op: 'recall',
    recall: {
      question,
      ...(budget !== undefined ? { budget } : {}),
      also: values.also ?? [],
      search: !values['no-search'],
      update: !values['no-update'],
    },
  });
  if (!answer?.ok || !answer.result.recall) return null;
  const { printRecall } = await import('./recall-output.js');
  printRecall(answer.result.recall, workspaceAt(root, answer.result.memoryDir).memoryName, io, {
    json: !!values.json,
    // A daemon of an earlier hipo may not say them.
    configWarnings: answer.result.configWarnings ?? [],
  });
  return EXIT.ok;
}
