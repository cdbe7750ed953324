// The workspace configuration: `hipo.config.json` beside `memory/`. Every key is optional;
// defaults live here and nowhere else.
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isValidTimeZone, systemTimeZone } from '../time/calendar.js';
import { recordWorkspacePatterns } from '../redact/workspace.js';
import { jsonSyntaxProblem } from './json-position.js';
import { backtrackingRisk } from './regex-safety.js';
import {
  CONFIG_FILE,
  DEFAULT_EXPAND_TIMEOUT_MS,
  DEFAULT_HOOK_BUDGET_MS,
  DEFAULT_HOOK_TIMEOUT_MS,
  DEFAULT_LOCK_WAIT_MS,
  LEGACY_CONFIG_FILE,
  MAX_TIMER_MS,
  WORKSPACE_NAME,
} from './settings-source.js';

export interface CompactionConfig {
  /** Per-cycle limits on nodes generated at each level (most recent period first). */
  limits: { daily: number; weekly: number; monthly: number; root: number };
  /** Smart thresholds in lines: at or below, copy/concatenate; above, summarize. */
  thresholds: { daily: number; weekly: number; monthly: number };
  /** The same in bytes: sources above either threshold are summarized (a log of a few huge lines too). */
  thresholdBytes: { daily: number; weekly: number; monthly: number };
  /** ROOT.md size cap, in tokens of `tokenizer`. */
  rootMaxTokens: number;
  /**
   * How ROOT's sections share `rootMaxTokens` (relative weights, scaled to add up to 1): each
   * gets its share first, and what one leaves unused goes to the others (profile, then topics,
   * active, rules, patterns, history).
   */
  rootShares: RootShares;
  /** BPE encoding used to count tokens: cl100k_base (default) or o200k_base. */
  tokenizer: string;
  /** Full days after a week or month ends before its node is fixed. */
  graceDays: number;
  /** Window of ROOT's Active Context section. */
  activeContextDays: number;
  /** Reference topics unseen this long get the `?` marker. */
  referenceStaleDays: number;
  /** Project topics unseen this long are the first dropped from ROOT's Topics Index. */
  projectStaleDays: number;
  /** Extra ephemeral markers: entries containing one are left out of summaries. */
  ephemeralMarkers: string[];
}

export const ROOT_SECTIONS = ['profile', 'rules', 'active', 'patterns', 'history', 'topics'] as const;
export type RootSection = (typeof ROOT_SECTIONS)[number];
export type RootShares = Record<RootSection, number>;

/** Agent integration: transcript capture hooks, session-start restore, context packs. */
interface AgentsConfig {
  /** Characters of one transcript message kept in the raw log (the rest is marked as cut). */
  captureMessageChars: number;
  /** Milliseconds a capture hook spends reading a transcript; the rest waits for the next hook. */
  hookBudgetMs: number;
  /** Hard cap on a hook process: it exits (status 0, no output) after this long, whatever it is doing. */
  hookTimeoutMs: number;
  /** Character budget of the SessionStart context (keep under the platform's 10,000 preview limit). */
  sessionStartChars: number;
  /** Default token budget of `hipo context` and `hipo recall`. */
  contextTokens: number;
  /**
   * After a capture hook archived new turns, with no daemon running, the hook starts `hipo
   * compact --catch-up` in the background, at most once per this many minutes; 0: never.
   */
  compactAfterCaptureMinutes: number;
  /**
   * At UserPromptSubmit, the search hits (bm25, in the index the daemon or compaction keeps)
   * handed to the agent with the prompt; 0: none. At most `promptRecallChars` characters.
   */
  promptRecallHits: number;
  /**
   * At UserPromptSubmit, the lines of the monthly nodes' User Facts that share the most words
   * with the prompt, shown before the hits; 0: none.
   */
  promptRecallFacts: number;
  promptRecallChars: number;
}

/**
 * An OpenAI-compatible chat-completions endpoint for summaries (docs/llm.md). Off unless
 * `baseUrl` and `model` are set (here or by HIPO_LLM_BASE_URL / HIPO_LLM_MODEL): with no
 * endpoint nothing ever leaves the machine and the extractive summarizer does the work.
 */
export interface LlmConfig {
  /** e.g. `http://127.0.0.1:11434/v1` (Ollama), `https://api.openai.com/v1`. Empty: off. */
  baseUrl: string;
  model: string;
  /** Name of the environment variable holding the API key (HIPO_LLM_API_KEY always wins). */
  apiKeyEnv: string;
  /** Per request, in milliseconds. */
  timeoutMs: number;
  maxOutputTokens: number;
  temperature: number;
  /** Retries after a 429, a 5xx or a refused connection (not after a timeout). */
  maxRetries: number;
  /** A `retry-after` longer than this is not waited for: the node falls back and hipo backs off. */
  maxRetryWaitMs: number;
  /** Sources are condensed to fit this many tokens per request. */
  maxInputTokens: number;
  /** A node whose sources do not fit one request is sent in up to this many parts (calls). */
  maxPartsPerNode: number;
  /** Model calls allowed per compaction cycle; past it, nodes fall back to extractive. */
  maxCallsPerCycle: number;
  /** After an unreachable endpoint or a server error, no call for this long (doubling per failure, up to 64×). */
  backoffMinutes: number;
  /** Levels summarized by the model; the others stay extractive. */
  levels: string[];
  /** Extra request fields merged into every call (e.g. `{"max_completion_tokens": 2000}`); null removes a field. */
  extraBody: Record<string, unknown>;
}

/** The search index (`.hipo/index.db`) and how queries are ranked; see docs/search.md. */
export interface SearchConfig {
  /** Extra markdown to index besides the memory tree: workspace-relative folders or files. */
  include: string[];
  /** Vector embedder: "wink" (offline default), "use-lite", "openai" or "none". */
  embedder: string;
  /** An OpenAI-compatible embeddings endpoint (HIPO_EMBED_* environment variables override). */
  openai: { baseUrl: string; model: string; apiKey: string; batchSize: number; timeoutMs: number };
  /** Build the index on `hipo compact` even when none exists yet (otherwise only kept current). */
  autoIndex: boolean;
  /** Chunks longer than this many characters are split, with overlap. */
  chunkChars: number;
  /**
   * Each user statement of a conversation also indexed as a chunk of its own (index/chunk.ts). Off:
   * on MemAware it gains nothing measurable for 50% more chunks (docs/search.md).
   */
  factChunks: boolean;
  /**
   * Reciprocal rank fusion: score = sum of weight / (k + rank). vectorWeight null: the
   * embedder's own (0.2 for averaged word vectors, 1 for sentence models).
   */
  hybrid: { k: number; bm25Weight: number; vectorWeight: number | null };
  /** Vector hits less similar than this (cosine) are dropped: nearest is not always near. */
  minSimilarity: number;
  /**
   * Query expansion by the configured model (the `llm` section): before a search, the model
   * reads ROOT.md and the query and writes more queries; see docs/search.md. Off by default;
   * `hipo search --expand` asks for it once.
   */
  expand: { enabled: boolean; maxQueries: number; timeoutMs: number };
  /**
   * Where searches read the index: "sqlite" (`.hipo/index.db`, this machine) or "postgres" (a
   * server many workspaces share; the local file still does the chunking and embedding, and its
   * rows are pushed after each update). See README, "Team memory".
   */
  store: 'sqlite' | 'postgres';
  postgres: PostgresConfig;
}

interface PostgresConfig {
  /** `postgres://user:password@host:port/database` (HIPO_PG_URL wins). Never printed with its password. */
  url: string;
  /** This workspace's name in the shared database; default: the workspace folder's name. */
  workspace: string;
  /** Other workspaces a search reads besides this one (none by default). */
  workspaces: string[];
}

export interface HipoConfig {
  /** Folder of the memory tree, relative to the workspace. */
  memoryDir: string;
  /** IANA time zone for days, weeks and months. */
  timeZone: string;
  compaction: CompactionConfig;
  /** How long `hipo compact` waits for another writer's lock, in milliseconds. */
  lockWaitMs: number;
  /** Extra secret patterns (JavaScript regular expressions); matches are redacted whole. */
  redactPatterns: string[];
  /** A raw log or indexed file bigger than this is read only up to it, with a warning naming it. */
  maxFileBytes: number;
  agents: AgentsConfig;
  daemon: DaemonConfig;
  llm: LlmConfig;
  search: SearchConfig;
}

interface DaemonConfig {
  /** Quiet time after the last file change before a cycle runs. */
  debounceMs: number;
  /** Cron expression (in `timeZone`) for cycles that run even when nothing changed. */
  heartbeat: string;
  /** A file's size must hold still this long before its change is reported. */
  writeFinishMs: number;
  /** First retry delay after a failed run (doubles up to the heartbeat). */
  retryMs: number;
  /** Megabytes (roughly) kept of what unchanged sources parse to, so they are not parsed again. */
  cacheMB: number;
  /** Quiet time after which the search index is closed and the caches dropped (0: never). */
  releaseAfterMs: number;
  /** Megabytes of search-index pages the daemon keeps (SQLite's page cache) while its index is open. */
  indexCacheMB: number;
}

/** Default of `maxFileBytes`: about a hundred times a busy day of agent sessions. */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

export function defaultConfig(): HipoConfig {
  return {
    memoryDir: 'memory',
    // Filled in by loadConfig when unset: asking Intl for the system zone costs ~20 ms.
    timeZone: '',
    compaction: {
      limits: { daily: 1, weekly: 1, monthly: 1, root: 1 },
      thresholds: { daily: 200, weekly: 300, monthly: 500 },
      // About 320 bytes a line at the line thresholds: well above ordinary logs (≤ 80 bytes a line).
      thresholdBytes: { daily: 64 * 1024, weekly: 96 * 1024, monthly: 160 * 1024 },
      rootMaxTokens: 3000,
      rootShares: { profile: 0.5, rules: 0.08, active: 0.12, patterns: 0.05, history: 0.05, topics: 0.2 },
      tokenizer: 'cl100k_base',
      graceDays: 7,
      activeContextDays: 7,
      referenceStaleDays: 30,
      projectStaleDays: 90,
      ephemeralMarkers: [],
    },
    lockWaitMs: DEFAULT_LOCK_WAIT_MS,
    redactPatterns: [],
    maxFileBytes: DEFAULT_MAX_FILE_BYTES,
    agents: {
      captureMessageChars: 6000,
      hookBudgetMs: DEFAULT_HOOK_BUDGET_MS,
      hookTimeoutMs: DEFAULT_HOOK_TIMEOUT_MS,
      sessionStartChars: 8000,
      contextTokens: 2000,
      compactAfterCaptureMinutes: 10,
      promptRecallHits: 3,
      promptRecallFacts: 3,
      promptRecallChars: 2000,
    },
    daemon: {
      debounceMs: 2000,
      heartbeat: '*/30 * * * *',
      writeFinishMs: 300,
      retryMs: 5000,
      cacheMB: 16,
      releaseAfterMs: 120_000,
      indexCacheMB: 2,
    },
    llm: {
      baseUrl: '',
      model: '',
      apiKeyEnv: '',
      timeoutMs: 120_000,
      maxOutputTokens: 2000,
      temperature: 0.2,
      maxRetries: 2,
      maxRetryWaitMs: 30_000,
      maxInputTokens: 16_000,
      maxPartsPerNode: 4,
      maxCallsPerCycle: 8,
      backoffMinutes: 5,
      levels: ['daily', 'weekly', 'monthly', 'root'],
      extraBody: {},
    },
    search: {
      include: [],
      embedder: 'wink',
      openai: { baseUrl: '', model: '', apiKey: '', batchSize: 64, timeoutMs: 30_000 },
      autoIndex: false,
      chunkChars: 2000,
      factChunks: false,
      hybrid: { k: 10, bm25Weight: 1, vectorWeight: null },
      minSimilarity: 0.2,
      expand: { enabled: false, maxQueries: 4, timeoutMs: DEFAULT_EXPAND_TIMEOUT_MS },
      store: 'sqlite',
      postgres: { url: '', workspace: '', workspaces: [] },
    },
  };
}

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    /** What is wrong with it, without the file's name. */
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

export interface LoadedConfig {
  config: HipoConfig;
  /** The file the settings came from, if any. */
  source: string | null;
  warnings: string[];
  /** Settings a hipocampus.config.json gave (`compaction.rootMaxTokens`), when it was the source. */
  takenOver: string[];
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * The known setting a mistyped one most likely meant: the same but for case, or at most two
 * letters away (`rootMaxToken`, `serach`, `memorydir`), and nearer than every other.
 */
function nearestKey(key: string, known: readonly string[]): string | null {
  const CAP = 3;
  let best: string | null = null;
  let bestDistance = CAP;
  let ties = 0;
  for (const k of known) {
    const d = k.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, k, CAP);
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
      ties = 0;
    } else if (d === bestDistance && d < CAP) ties++;
  }
  // Two as near: no guess.
  if (ties > 0) return null;
  // A short key two letters off is another word, not a typo ("llm" for "log").
  return best && (bestDistance <= 1 || Math.min(key.length, best.length) > 4) ? best : null;
}

/** Levenshtein distance between `a` and `b`, or `cap` once it is certain to be at least that. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    if (Math.min(...row) >= cap) return cap;
    prev = row;
  }
  return Math.min(prev[b.length]!, cap);
}

/**
 * Overlays `user` on `base`, checking every key against the default's type. Unknown keys are
 * kept (later features read them) but reported, so a typo does not silently do nothing.
 */
function overlay(
  base: Record<string, unknown>,
  user: Record<string, Json>,
  path: string,
  file: string,
  warnings: string[],
  open: Set<string>,
): void {
  for (const [key, value] of Object.entries(user)) {
    const where = path ? `${path}.${key}` : key;
    if (!(key in base)) {
      if (!open.has(path)) {
        const near = nearestKey(key, Object.keys(base));
        const hint = near ? ` (did you mean "${path ? `${path}.${near}` : near}"?)` : '';
        warnings.push(`${file}: unknown setting "${where}" ignored${hint}`);
      }
      base[key] = value;
      continue;
    }
    const def = base[key];
    if (Array.isArray(def)) {
      base[key] = listOfStrings(value, where, file);
    } else if (def !== null && typeof def === 'object') {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(file, `"${where}" must be an object`);
      overlay(def as Record<string, unknown>, value, where, file, warnings, open);
    } else if (typeof def === 'number') {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        throw new ConfigError(file, `"${where}" must be a non-negative number, got ${JSON.stringify(value)}`);
      base[key] = value;
    } else if (typeof def === 'string') {
      if (typeof value !== 'string') throw new ConfigError(file, `"${where}" must be a string, got ${JSON.stringify(value)}`);
      base[key] = value;
    } else if (typeof def === 'boolean') {
      if (typeof value !== 'boolean') throw new ConfigError(file, `"${where}" must be true or false`);
      base[key] = value;
    } else {
      base[key] = value;
    }
  }
}

/**
 * Every list a config holds is a list of strings (markers, patterns, paths, names, levels): a
 * number or null in one would reach code that calls string methods on it. The error names the
 * entry by its place and its kind, never its text (a redaction pattern may be a secret).
 */
function listOfStrings(value: Json, where: string, file: string): string[] {
  if (!Array.isArray(value)) throw new ConfigError(file, `"${where}" must be a list`);
  for (const [i, v] of value.entries())
    if (typeof v !== 'string') throw new ConfigError(file, `"${where}" entry ${i + 1} must be a string, got ${kindOf(v)}`);
  return value as string[];
}

function kindOf(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : typeof v === 'boolean' ? String(v) : `a ${typeof v}`;
}

/** Sections whose keys are free-form (e.g. a plugin's own settings). */
const OPEN_SECTIONS = new Set<string>(['llm.extraBody']);

/** Whether there is a file or a link at `path`: a link to nothing is a broken config, not an absent one. */
export function isPresent(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function readJson(file: string): Record<string, Json> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink())
      throw new ConfigError(file, `is a link to ${readlinkSync(file)}, which does not exist`);
    throw new ConfigError(file, `cannot be read (${code ?? String(err)})`);
  }
  let parsed: unknown;
  const json = text.replace(/^\uFEFF/, '');
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw new ConfigError(file, jsonSyntaxProblem(json, err));
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(file, 'must hold a JSON object');
  return parsed as Record<string, Json>;
}

export function loadConfig(workspace: string): LoadedConfig {
  const config = defaultConfig();
  const warnings: string[] = [];
  const file = join(workspace, CONFIG_FILE);
  const legacy = join(workspace, LEGACY_CONFIG_FILE);
  let source: string | null = null;
  const takenOver: string[] = [];
  if (isPresent(file)) {
    source = file;
    const user = readJson(file);
    if ('timezone' in user && !('timeZone' in user)) {
      user.timeZone = user.timezone as Json;
      delete user.timezone;
    }
    overlay(config as unknown as Record<string, unknown>, user, '', file, warnings, OPEN_SECTIONS);
  } else if (isPresent(legacy)) {
    // A hipocampus workspace: honour the one setting both tools share.
    source = legacy;
    const user = readJson(legacy);
    const compaction = user.compaction as Record<string, Json> | undefined;
    if (compaction && typeof compaction.rootMaxTokens === 'number') {
      config.compaction.rootMaxTokens = compaction.rootMaxTokens;
      takenOver.push('compaction.rootMaxTokens');
    }
  }
  if (config.timeZone === '') config.timeZone = systemTimeZone();
  validate(config, source ?? 'defaults');
  recordWorkspacePatterns(workspace, config.redactPatterns);
  return { config, source, warnings, takenOver };
}

function validate(c: HipoConfig, file: string): void {
  if (!isValidTimeZone(c.timeZone)) throw new ConfigError(file, `"timeZone" is not an IANA time zone: "${c.timeZone}"`);
  if (c.compaction.tokenizer !== 'cl100k_base' && c.compaction.tokenizer !== 'o200k_base')
    throw new ConfigError(file, `"compaction.tokenizer" must be "cl100k_base" or "o200k_base", got "${c.compaction.tokenizer}"`);
  for (const [name, share] of Object.entries(c.compaction.rootShares)) {
    if (!(ROOT_SECTIONS as readonly string[]).includes(name))
      throw new ConfigError(file, `"compaction.rootShares.${name}" is not a ROOT section (${ROOT_SECTIONS.join(', ')})`);
    if (typeof share !== 'number' || !(share >= 0 && share <= 1))
      throw new ConfigError(file, `"compaction.rootShares.${name}" must be a number from 0 to 1`);
  }
  const shareSum = Object.values(c.compaction.rootShares).reduce((a, b) => a + b, 0);
  if (shareSum <= 0) throw new ConfigError(file, '"compaction.rootShares" must give some section a share above 0');
  checkBounds(c, file);
  // A pattern may be a secret written out (a key to keep out of memory): an error names it by its
  // place in the list, never by its text, since errors reach logs, the journal and MCP answers.
  for (const [i, p] of c.redactPatterns.entries()) {
    const entry = `"redactPatterns" entry ${i + 1}`;
    try {
      new RegExp(p, 'g');
    } catch (err) {
      // V8 quotes the pattern ("Invalid regular expression: /…/g: Unterminated group"): its reason only.
      const reason = /^Invalid regular expression: \/[\s\S]*\/[a-z]*: (.*)$/.exec((err as Error).message)?.[1];
      throw new ConfigError(file, `${entry} is not a valid regular expression${reason ? ` (${reason})` : ''}`);
    }
    const risk = backtrackingRisk(p);
    if (risk) throw new ConfigError(file, `${entry} ${risk}`);
  }
  validateLlm(c.llm, file);
  if (c.memoryDir.trim() === '' || resolve('/', c.memoryDir) === '/') throw new ConfigError(file, '"memoryDir" must name a folder');
  validatePostgres(c.search, file);
  const embedders = ['wink', 'use-lite', 'openai', 'none'];
  if (!embedders.includes(c.search.embedder))
    throw new ConfigError(
      file,
      `"search.embedder" must be one of ${embedders.map((e) => `"${e}"`).join(', ')}, got "${c.search.embedder}"`,
    );
  const vw = c.search.hybrid.vectorWeight;
  if (vw !== null && (typeof vw !== 'number' || !Number.isFinite(vw) || vw < 0))
    throw new ConfigError(file, '"search.hybrid.vectorWeight" must be null or a non-negative number');
  if (c.search.include.some((p) => p.trim() === '')) throw new ConfigError(file, '"search.include" must list folder or file paths');
}

/** The largest `maxFileBytes`: what is read of a file becomes one string, and V8's longest is about 512 M characters. */
const MAX_READ_BYTES = 256 * 1024 * 1024;

interface Bound {
  min: number;
  max: number;
  /** Must be a whole number (a count of days, a request's token limit, ...). */
  whole?: boolean;
  /** Why the maximum is what it is, when the number alone does not say. */
  why?: string;
}

const TIMER: Bound = { min: 0, max: MAX_TIMER_MS, why: 'the longest a Node timer waits, about 24.8 days' };
const timer = (min: number): Bound => ({ ...TIMER, min });
const perLevel = (prefix: string, levels: readonly string[], b: Bound): [string, Bound][] => levels.map((l) => [`${prefix}.${l}`, b]);

/**
 * The range of every numeric setting. The upper bounds keep a typo (a zero too many) from
 * hanging a command or overflowing a timer: a day window is walked day by day, a setting in
 * milliseconds is a timer's delay, a byte cap becomes one string. Each is well above any use.
 */
const BOUNDS: ReadonlyMap<string, Bound> = new Map<string, Bound>([
  ...perLevel('compaction.limits', ['daily', 'weekly', 'monthly', 'root'], { min: 1, max: 10_000, whole: true }),
  ...perLevel('compaction.thresholds', ['daily', 'weekly', 'monthly'], { min: 0, max: 1_000_000 }),
  ...perLevel('compaction.thresholdBytes', ['daily', 'weekly', 'monthly'], { min: 0, max: MAX_READ_BYTES }),
  ['compaction.rootMaxTokens', { min: 200, max: 100_000 }],
  ['compaction.graceDays', { min: 0, max: 366, whole: true }],
  ['compaction.activeContextDays', { min: 0, max: 3650, whole: true }],
  ['compaction.referenceStaleDays', { min: 0, max: 36_500 }],
  ['compaction.projectStaleDays', { min: 0, max: 36_500 }],
  ['lockWaitMs', TIMER],
  ['maxFileBytes', { min: 64 * 1024, max: MAX_READ_BYTES, whole: true }],
  ['agents.captureMessageChars', { min: 0, max: 1_000_000 }],
  ['agents.hookBudgetMs', TIMER],
  ['agents.hookTimeoutMs', TIMER],
  ['agents.sessionStartChars', { min: 500, max: 1_000_000 }],
  // `hipo context --budget` takes whole numbers, and this is its default.
  ['agents.contextTokens', { min: 100, max: 1_000_000, whole: true }],
  ['agents.compactAfterCaptureMinutes', { min: 0, max: 43_200 }],
  ['agents.promptRecallHits', { min: 0, max: 20, whole: true }],
  ['agents.promptRecallFacts', { min: 0, max: 20, whole: true }],
  ['agents.promptRecallChars', { min: 200, max: 100_000 }],
  ['daemon.debounceMs', TIMER],
  ['daemon.writeFinishMs', TIMER],
  // 0 would retry a failing run at once, again and again (the delay doubles from it).
  ['daemon.retryMs', timer(100)],
  ['daemon.cacheMB', { min: 0, max: 4096 }],
  ['daemon.releaseAfterMs', TIMER],
  ['daemon.indexCacheMB', { min: 0, max: 4096 }],
  ['llm.timeoutMs', timer(100)],
  // Sent as `max_tokens`, which servers want whole.
  ['llm.maxOutputTokens', { min: 64, max: 1_000_000, whole: true }],
  ['llm.temperature', { min: 0, max: 2 }],
  ['llm.maxRetries', { min: 0, max: 10, whole: true }],
  ['llm.maxRetryWaitMs', TIMER],
  ['llm.maxInputTokens', { min: 500, max: 10_000_000 }],
  ['llm.maxPartsPerNode', { min: 1, max: 64, whole: true }],
  ['llm.maxCallsPerCycle', { min: 0, max: 10_000 }],
  // Doubled up to 64 times: a day's backoff becomes at most 64 days.
  ['llm.backoffMinutes', { min: 0, max: 1440 }],
  ['search.openai.batchSize', { min: 1, max: 2048, whole: true }],
  ['search.openai.timeoutMs', timer(100)],
  ['search.chunkChars', { min: 200, max: 100_000 }],
  ['search.hybrid.k', { min: 0, max: 10_000 }],
  ['search.hybrid.bm25Weight', { min: 0, max: 1000 }],
  ['search.hybrid.vectorWeight', { min: 0, max: 1000 }],
  ['search.minSimilarity', { min: 0, max: 1, why: 'a cosine similarity' }],
  ['search.expand.maxQueries', { min: 1, max: 8, whole: true }],
  ['search.expand.timeoutMs', timer(100)],
]);

function checkBounds(c: HipoConfig, file: string): void {
  for (const [key, b] of BOUNDS) {
    const v = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], c);
    if (typeof v !== 'number') continue; // a null vectorWeight: the embedder's own
    if (b.whole && !Number.isInteger(v)) throw new ConfigError(file, `"${key}" must be a whole number from ${b.min} to ${b.max}`);
    if (v < b.min) throw new ConfigError(file, `"${key}" must be ${b.whole ? 'a whole number of ' : ''}at least ${b.min}`);
    if (v > b.max) throw new ConfigError(file, `"${key}" must be at most ${b.max}${b.why ? ` (${b.why})` : ''}`);
  }
}

const LLM_LEVELS = ['daily', 'weekly', 'monthly', 'root'];

/** A PostgreSQL connection URL, as `search.postgres.url` or HIPO_PG_URL must start. */
export const PG_URL = /^postgres(ql)?:\/\//;

function validatePostgres(s: SearchConfig, file: string): void {
  if (s.store !== 'sqlite' && s.store !== 'postgres')
    throw new ConfigError(file, `"search.store" must be "sqlite" or "postgres", got ${JSON.stringify(s.store)}`);
  const pg = s.postgres;
  if (pg.url && !PG_URL.test(pg.url))
    throw new ConfigError(file, '"search.postgres.url" must start with postgres:// (the password, if any, is never printed)');
  if (pg.workspace && !WORKSPACE_NAME.test(pg.workspace))
    throw new ConfigError(
      file,
      `"search.postgres.workspace" must be letters, digits, ".", "_" or "-", got ${JSON.stringify(pg.workspace)}`,
    );
  for (const w of pg.workspaces)
    if (!WORKSPACE_NAME.test(w))
      throw new ConfigError(file, `"search.postgres.workspaces" lists names of letters, digits, ".", "_" or "-", got ${JSON.stringify(w)}`);
}

function validateLlm(l: LlmConfig, file: string): void {
  if (l.baseUrl && !/^https?:\/\/[^\s/]+/i.test(l.baseUrl))
    throw new ConfigError(file, `"llm.baseUrl" must be an http(s) URL, got "${l.baseUrl}"`);
  for (const lv of l.levels)
    if (!LLM_LEVELS.includes(lv)) throw new ConfigError(file, `"llm.levels" may hold ${LLM_LEVELS.join(', ')}; got "${lv}"`);
}
