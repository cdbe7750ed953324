// `hipo status`: what the tree holds, what the next cycle would do, how the last one went.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HipoConfig } from '../config/config.js';
import type { ActionRecord, CycleRecord } from '../state/journal.js';
import { readJournalTail } from '../state/journal.js';
import { lockHolder, type LockOwner } from '../state/lock.js';
import { planCycle, rootSettingsOf } from '../plan/planner.js';
import { loadTemplates } from '../write/template.js';
import type { CyclePlan } from '../plan/plan.js';
import { resolveClock, type Clock } from '../time/clock.js';
import { splitFrontmatter } from '../tree/frontmatter.js';
import { NODE_LEVELS, type NodeLevel, type Workspace } from '../tree/layout.js';
import { scanTree } from '../tree/scan.js';
import { StampCache } from '../state/stamp-cache.js';
import { isHandEdited, type Problem } from '../tree/snapshot.js';
import { ensureStateDir } from '../state/dir.js';
import { decodeText } from '../tree/text.js';
import { dayParts } from '../tree/raw-day.js';
import { atomicWriteFile } from '../fs/atomic.js';
import { loadTokenCounter, type TokenizerName } from '../text/tokens.js';
import { readDaemonState, servesWorkspace, type DaemonState } from '../state/daemon-record.js';
import { resolveLlmSettings } from '../summarize/llm/settings.js';
import { stateSummary, type BackoffView } from '../state/llm.js';
import { statePath } from '../state/dir.js';
import type { StoreStatus } from '../index/pg/status.js';

interface LevelStatus {
  tentative: number;
  fixed: number;
  /** Nodes without a valid status (placeholders, foreign or broken files). */
  other: number;
  tokens: number;
}

export interface StatusReport {
  workspace: string;
  memoryDir: string;
  memoryName: string;
  clock: Clock;
  raw: { files: number; bytes: number; unusable: number; first: string | null; last: string | null };
  nodes: Record<NodeLevel, LevelStatus>;
  next: CyclePlan;
  lastCycle: CycleRecord | null;
  /** Errors of the most recent cycles, newest first. */
  recentErrors: string[];
  warnings: Problem[];
  /** A process holding the writer lock now (a daemon's cycle, or a compact in progress). */
  writer: LockOwner | null;
  /** Failed agent hooks (they exit 0 and print nothing), newest first. */
  hookErrors: { at: string; event: string; session: string | null; message: string }[];
  /** The latest transcript capture by a hook. */
  lastCapture: {
    at: string;
    event: string;
    session: string;
    turns: number;
    file: string | null;
    compacting?: string;
    byDaemon?: boolean;
  } | null;
  /** The search index file, if there is one: its size (database and write-ahead log) and configured embedder. */
  index: { file: string; bytes: number; embedder: string } | null;
  /** The shared store searches read (`search.store` "postgres"); absent with the local index only. */
  store?: StoreStatus | null;
  /**
   * The daemon for this workspace, running or last seen. `servesHere` false: it was started for
   * another path (`root`; the workspace was moved or renamed under it) and serves nothing here.
   */
  daemon: (DaemonState & { running: boolean; servesHere: boolean }) | null;
  /** The model summaries use, if one is configured (config `llm` or HIPO_LLM_*). */
  llm: { model: string; baseUrl: string; levels: string[]; backoff: BackoffView | null; failedInputs: number } | null;
  /** Whether every search asks the model for extra queries (search.expand.enabled). */
  searchExpand: boolean;
  /** Whether the UserPromptSubmit hook hands the agent memory about a prompt (agents.promptRecallHits > 0). */
  promptRecall: boolean;
  /**
   * Nodes edited by hand: those that are so now (kept as edited), and the latest regenerated
   * ones with where their edited version was saved.
   */
  handEdits: {
    current: { node: string; status: string | null }[];
    /** `removed`: the node went with its period's days, not regenerated; it is no longer there. */
    saved: { at: string; node: string; savedTo: string; removed: boolean }[];
  };
}

export async function gatherStatus(ws: Workspace, config: HipoConfig, now?: string): Promise<StatusReport> {
  const clock = resolveClock(config.timeZone, now);
  const cache = StampCache.load(ws);
  const { snapshot } = scanTree(ws, cache, config.maxFileBytes);
  const next = planCycle(snapshot, clock.today, {
    limits: config.compaction.limits,
    graceDays: config.compaction.graceDays,
    rootSettings: rootSettingsOf(config.compaction, config.redactPatterns, loadTemplates(ws.root).get('root')),
  });

  const count = await loadTokenCounter(config.compaction.tokenizer as TokenizerName);
  const tokenCache = loadTokenCache(ws);
  const fresh: Record<string, { hash: string; tokens: number }> = {};
  const nodes = Object.fromEntries(NODE_LEVELS.map((l) => [l, { tentative: 0, fixed: 0, other: 0, tokens: 0 }])) as Record<
    NodeLevel,
    LevelStatus
  >;
  for (const n of snapshot.nodes.values()) {
    const s = nodes[n.period.level];
    if (n.status === 'tentative') s.tentative++;
    else if (n.status === 'fixed') s.fixed++;
    else s.other++;
    let tokens = tokenCache[n.relPath]?.hash === n.bodyHash ? tokenCache[n.relPath]!.tokens : -1;
    if (tokens < 0) {
      try {
        const d = decodeText(readFileSync(join(ws.memoryDir, n.relPath)));
        tokens = d.ok ? count(splitFrontmatter(d.text).body) : 0;
      } catch {
        tokens = 0;
      }
    }
    fresh[n.relPath] = { hash: n.bodyHash, tokens };
    s.tokens += tokens;
  }
  const days = [...snapshot.raws.values()];
  const dates = days.map((r) => r.date).sort();
  // Files, not days: a day may be written in several (tree/raw-day.ts).
  const raws = days.flatMap((d) => dayParts(d));
  const journal = readJournalTail(ws);
  const cycles = journal.filter((r): r is CycleRecord => r.type === 'cycle');
  const recentErrors = cycles
    .slice(-5)
    .reverse()
    .flatMap((c) => c.errors);
  const hookErrors = journal
    .filter((r) => r.type === 'hook-error')
    .slice(-5)
    .reverse() as unknown as StatusReport['hookErrors'];
  const lastCapture = (journal.filter((r) => r.type === 'capture').pop() ?? null) as unknown as StatusReport['lastCapture'];
  // Caches are refreshed only where hipo already keeps state: status never creates .hipo/.
  if (existsSync(ws.stateDir)) {
    cache.save(ws);
    try {
      ensureStateDir(ws);
      atomicWriteFile(statePath(ws, 'tokens'), JSON.stringify(fresh), { durable: false });
    } catch {
      /* only a cache */
    }
  }
  return {
    workspace: ws.root,
    memoryDir: ws.memoryDir,
    memoryName: ws.memoryName,
    clock,
    raw: {
      files: raws.length,
      bytes: raws.reduce((n, r) => n + r.stamp.size, 0),
      unusable: raws.filter((r) => !r.usable).length,
      first: dates[0] ?? null,
      last: dates[dates.length - 1] ?? null,
    },
    nodes,
    next,
    lastCycle: cycles[cycles.length - 1] ?? null,
    recentErrors,
    warnings: [...snapshot.problems, ...next.attention.map((a) => ({ file: `${ws.memoryName}/${a.relPath}`, message: a.message }))],
    writer: lockHolder(ws),
    hookErrors,
    index: indexStatus(ws, config),
    lastCapture,
    daemon: daemonStatus(ws),
    llm: modelStatus(ws, config),
    searchExpand: config.search.expand.enabled,
    promptRecall: config.agents.promptRecallHits > 0,
    handEdits: {
      current: [...snapshot.nodes.values()].filter(isHandEdited).map((n) => ({ node: `${ws.memoryName}/${n.relPath}`, status: n.status })),
      saved: journal
        .filter((r): r is ActionRecord => r.type === 'action' && typeof (r as ActionRecord).handEdit === 'string')
        .slice(-10)
        .reverse()
        .map((r) => ({ at: r.at, node: r.node, savedTo: r.handEdit!, removed: r.status === 'removed' })),
    },
  };
}

function indexStatus(ws: Workspace, config: HipoConfig): StatusReport['index'] {
  const file = statePath(ws, 'index');
  if (!existsSync(file)) return null;
  let bytes = 0;
  for (const suffix of ['', '-wal']) {
    try {
      bytes += statSync(file + suffix).size;
    } catch {
      /* no write-ahead log right now */
    }
  }
  return { file, bytes, embedder: config.search.embedder };
}

function daemonStatus(ws: Workspace): StatusReport['daemon'] {
  const state = readDaemonState(ws);
  const holder = lockHolder(ws, 'daemonLock');
  if (!state && !holder) return null;
  const base: DaemonState = state ?? {
    pid: holder!.pid,
    host: holder!.host,
    since: holder!.since,
    stoppedAt: null,
    runs: 0,
    lastRun: null,
    lastError: null,
    indexedAt: null,
  };
  return { ...base, running: holder !== null && holder.pid === base.pid, servesHere: servesWorkspace(state, ws) };
}

function modelStatus(ws: Workspace, config: HipoConfig): StatusReport['llm'] {
  const s = resolveLlmSettings(config, process.env).settings;
  return s ? { model: s.model, baseUrl: s.baseUrl, levels: [...s.levels], ...stateSummary(ws, s.baseUrl) } : null;
}

function loadTokenCache(ws: Workspace): Record<string, { hash: string; tokens: number }> {
  try {
    return JSON.parse(readFileSync(statePath(ws, 'tokens'), 'utf8')) as Record<string, { hash: string; tokens: number }>;
  } catch {
    return {};
  }
}
