// The executor: applies a cycle's plan, in order (daily, weekly, monthly, root), one node at a
// time. Every write is atomic; a node that fails is reported and the cycle goes on.
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { HipoConfig } from '../config/config.js';
import type { Clock } from '../time/clock.js';
import { addDays, isoWeekOf, type LocalDate } from '../time/calendar.js';
import { nodeKey, nodeRelPath, periodId, type NodeKey, type NodeStatus, type Period } from '../tree/layout.js';
import { decodeText } from '../tree/text.js';
import { dayFiles, namesGone } from '../tree/raw-day.js';
import { isHandEdited } from '../tree/snapshot.js';
import type { ExclusionRules } from '../summarize/exclusion.js';
import type { Redactor } from '../redact/redactor.js';
import type { Summarizer } from '../summarize/summarizer.js';
import type { LlmRuntime } from '../summarize/select.js';
import type { NodeAction, CyclePlan } from '../plan/plan.js';
import { rootSettingsOf, rootSourceHash } from '../plan/planner.js';
import { ROOT_PERIOD } from '../plan/verdict.js';
import { llmSummarizerId } from '../summarize/llm/settings.js';
import { atomicWriteFile, removeIfUnchanged, replaceIfUnchanged } from '../fs/atomic.js';
import { composeBody, type Composed } from '../compose/body.js';
import { nodeLinksLine, withNodeLinks } from '../compose/links.js';
import { renderNodeFile, withPersonsKeys, withStatus, type NodeFile } from '../write/node-file.js';
import { buildRoot, type RootBuild } from '../compose/root.js';
import type { TopicInfo } from '../tree/topic.js';
import type { TemplateSet } from '../write/template.js';
import { loadTokenCounter, type CountTokens, type TokenizerName } from '../text/tokens.js';
import { nodeNow, saveForeign, saveHandEdit } from './hand-edits.js';
import { modelRoot } from './root-llm.js';
import {
  dailyInputsFrom,
  dayLink,
  monthlyFacts,
  parentInputs,
  readRawDay,
  readSources,
  recentDailyPeriods,
  topicPointer,
  type NodeInputs,
} from './inputs.js';
import type { ActionRecord } from '../state/journal.js';
import type { TreeState } from './tree-state.js';
import type { DailyPrefetch } from './prefetch.js';
import type { SummaryMemo } from '../summarize/memo.js';

/** Never write a node shorter than this (spec guard). */
const MIN_NODE_BYTES = 50;

/** What the executor works with for one cycle: settings, clock, summarizers, redaction. */
export interface ExecEnv {
  config: HipoConfig;
  clock: Clock;
  summarizer: Summarizer;
  templates: TemplateSet;
  redactor: Redactor;
  rules: ExclusionRules;
  /** A resident owner's memo of sources and lines (summarize/memo.ts), or null. */
  memo?: SummaryMemo | null;
  cycleId: string;
  /** The model's side (ROOT recompaction), when an endpoint is configured. */
  llm?: LlmRuntime | null;
  /** Daily nodes built ahead on a worker thread (catch-up with the extractive summarizer). */
  prefetch?: DailyPrefetch | null;
  /** Told before each action (progress display). */
  onAction?: (relPath: string, index: number) => void;
  /**
   * Told when a node's current version has been read (and a hand edit in it saved), right before
   * the new one replaces it or it is removed: where a test saves an edit that lands mid-write.
   */
  beforeReplace?: (relPath: string) => void;
  /** Nodes that could not be written in an earlier cycle of this run: their parents wait for them. */
  failedEarlier?: ReadonlySet<NodeKey>;
}

export interface Applied {
  record: ActionRecord;
  /** Memory-relative path written (or removed), if the file changed. */
  written: string | null;
  error: string | null;
  warning: string | null;
}

class NodeWriteError extends Error {}

export async function executePlan(plan: CyclePlan, tree: TreeState, ctx: ExecEnv): Promise<Applied[]> {
  const failed = new Set<NodeKey>(ctx.failedEarlier);
  const out: Applied[] = [];
  for (const [i, action] of plan.actions.entries()) {
    ctx.onAction?.(action.relPath, i);
    const started = performance.now();
    const base = {
      type: 'action' as const,
      cycle: ctx.cycleId,
      at: new Date().toISOString(),
      node: tree.shown(action.relPath),
      action: action.kind,
      reason: action.reason,
    };
    // A parent is not made, amended or fixed from a child that could not be written: it keeps what
    // it has and is planned again next time; its own parents wait for it in turn. ROOT, never
    // fixed, is built from the months as they are (it follows them once they are written).
    const waitsFor = action.children.filter((c) => failed.has(nodeKey(c)));
    if (waitsFor.length && action.period.level !== 'root') {
      failed.add(nodeKey(action.period));
      const r = waiting(action, tree, waitsFor);
      out.push({ ...r, record: { ...base, ...r.record, ms: 0 } });
      continue;
    }
    try {
      const r =
        action.kind === 'fix'
          ? applyFix(action, tree, failed, ctx)
          : action.kind === 'remove'
            ? applyRemove(action, tree, ctx)
            : await applyGenerating(action, tree, ctx, failed);
      out.push({ ...r, record: { ...base, ...r.record, ms: Math.round(performance.now() - started) } });
    } catch (err) {
      failed.add(nodeKey(action.period));
      const message = err instanceof Error ? err.message : String(err);
      out.push({
        record: { ...base, status: action.status, wrote: false, ms: Math.round(performance.now() - started), error: message },
        written: null,
        error: `${tree.shown(action.relPath)}: ${message}`,
        warning: null,
      });
    }
  }
  return out;
}

/** What applying one action did, before the executor stamps its record with the cycle, time and node. */
type ActionOutcome = Omit<Applied, 'record'> & {
  record: Omit<ActionRecord, 'type' | 'cycle' | 'at' | 'node' | 'action' | 'reason' | 'ms'> & { action?: string };
};

/** A parent left as it is because a child of it could not be written this cycle: said, not an error of its own. */
function waiting(action: NodeAction, tree: TreeState, children: readonly Period[]): ActionOutcome {
  const names = children.map((c) => tree.shown(nodeRelPath(c))).join(', ');
  return {
    record: { status: tree.node(action.period)?.status ?? 'none', wrote: false, mode: 'waiting' },
    written: null,
    error: null,
    warning: `${tree.shown(action.relPath)}: not written: it waits for ${names}, which could not be written; tried again next run`,
  };
}

/** A parent may be fixed only when every child is fixed and none failed in this cycle. */
function childrenSettled(children: readonly Period[], tree: TreeState, failed: ReadonlySet<NodeKey>): boolean {
  return children.every((c) => {
    if (failed.has(nodeKey(c))) return false;
    const n = tree.node(c);
    if (n?.status !== 'fixed') return false;
    if (c.level === 'daily') {
      // Current with its raw log, or left as it is on purpose (hand-edited, foreign).
      const raw = tree.raws.get(c.date);
      if (!raw?.usable || n.sourceHash === null || isHandEdited(n)) return true;
      return n.sourceHash === raw.hash && !namesGone(n.sourceFiles, dayFiles(raw));
    }
    return true;
  });
}

interface Written {
  wrote: boolean;
  /** Where a hand edit of the replaced node was saved (memory-relative), if it held one. */
  savedEdit: string | null;
  /** The saved version was not hipo's node at all (no `body-hash`), but a file of the user's. */
  foreign: boolean;
}

/** Tries at a node that keeps changing while hipo writes it, before leaving it to the next run. */
const WRITE_TRIES = 3;

/**
 * An editor saving in place empties the file, then writes it: replaced or removed in between, the
 * node would take the edit with it. A node found empty that changed this recently is taken for
 * one being saved and left to the next run; one empty for longer is rebuilt, as a placeholder is.
 */
const SAVING_MS = 2000;
const BEING_SAVED = 'empty, as a file is while an editor saves it: not written; looked at again next run';

function beingSaved(tree: TreeState, relPath: string, old: Buffer): boolean {
  if (old.length > 0) return false;
  try {
    return Math.abs(Date.now() - statSync(tree.abs(relPath)).mtimeMs) < SAVING_MS;
  } catch {
    return false;
  }
}

/**
 * Writes a node, `render`ed from the version it replaces (null: none, or a link leading out of
 * the memory folder, which is not read). `bodyHash`: of the new body, or null when the body is kept
 * as it is (a status change). A version saved while hipo writes (a person's edit between the read
 * and the rename) is not replaced unseen: it is read again and kept as any hand edit is.
 */
function writeNode(
  tree: TreeState,
  action: NodeAction,
  render: (old: Buffer | null) => string,
  bodyHash: string | null,
  ctx: Pick<ExecEnv, 'clock' | 'beforeReplace'>,
): Written {
  const abs = tree.abs(action.relPath);
  let savedEdit: string | null = null;
  let foreign = false;
  for (let attempt = 1; ; attempt++) {
    const inside = tree.writableInside(action.relPath);
    const old = inside && existsSync(abs) ? tree.readBytes(action.relPath) : null;
    if (old && beingSaved(tree, action.relPath, old)) throw new NodeWriteError(BEING_SAVED);
    const bytes = Buffer.from(render(old), 'utf8');
    if (bytes.length < MIN_NODE_BYTES)
      throw new NodeWriteError(`refusing to write a node of ${bytes.length} bytes (minimum ${MIN_NODE_BYTES})`);
    if (old?.equals(bytes)) return { wrote: false, savedEdit, foreign };
    // A status change (bodyHash null) keeps the body: nothing to save.
    if (old && bodyHash !== null) {
      const now = nodeNow(tree, action.period, action.relPath, old);
      // A node hipo did not write (a person, hipocampus): kept as a hand edit is.
      if (now.recordedBodyHash === null) {
        const saved = saveForeign(tree, action.relPath, old, ctx.clock.instant);
        if (saved) [savedEdit, foreign] = [saved, true];
      } else {
        const saved = saveHandEdit(tree, now, old, bodyHash, ctx.clock.instant);
        if (saved) [savedEdit, foreign] = [saved, false];
      }
    }
    mkdirSync(dirname(abs), { recursive: true });
    ctx.beforeReplace?.(action.relPath);
    // A link leading out of the memory folder is replaced by the node, never read.
    const stamp = inside ? replaceIfUnchanged(abs, bytes, old, { durable: false }) : atomicWriteFile(abs, bytes, { durable: false });
    if (stamp) {
      if (stamp.size !== bytes.length) throw new NodeWriteError(`wrote ${bytes.length} bytes but the file has ${stamp.size}`);
      tree.noteNode(action.period, action.relPath, bytes, stamp);
      return { wrote: true, savedEdit, foreign };
    }
    if (attempt === WRITE_TRIES) throw new NodeWriteError(`changed ${WRITE_TRIES} times while being written; tried again next run`);
  }
}

/** A node's bytes as text, or null when there are none or they are not text. */
function textOf(bytes: Buffer | null): string | null {
  const decoded = bytes ? decodeText(bytes) : null;
  return decoded?.ok ? decoded.text : null;
}

/** The record and warning of a node whose hand edit was saved before it was regenerated. */
function editKept(tree: TreeState, action: NodeAction, w: Written): { record: { handEdit?: string }; warning: string | null } {
  if (!w.savedEdit) return { record: {}, warning: null };
  const saved = tree.shown(w.savedEdit);
  return {
    record: { handEdit: saved },
    warning: w.foreign
      ? `${tree.shown(action.relPath)}: not written by hipo; replaced by a node made from its sources, the file as it was kept as ${saved}`
      : `${tree.shown(action.relPath)}: edited by hand; regenerated from its sources, the edited version kept as ${saved}`,
  };
}

/**
 * Deletes a weekly or monthly node none of whose days is left (plan.ts, `remove`). A hand edit,
 * or a file hipo did not write, is copied to `edits/` first, as before a rewrite: the planner
 * leaves those alone, but one may have been edited since the scan.
 */
function applyRemove(action: NodeAction, tree: TreeState, ctx: Pick<ExecEnv, 'clock' | 'beforeReplace'>): ActionOutcome {
  const rel = action.relPath;
  let savedEdit: string | null = null;
  // A link leading out of the memory folder is removed without being read.
  if (tree.writableInside(rel)) {
    for (let attempt = 1; existsSync(tree.abs(rel)); attempt++) {
      const old = tree.readBytes(rel);
      if (beingSaved(tree, rel, old)) throw new NodeWriteError(BEING_SAVED);
      const now = nodeNow(tree, action.period, rel, old);
      if (now.recordedBodyHash === null) savedEdit = saveForeign(tree, rel, old, ctx.clock.instant) ?? savedEdit;
      else savedEdit = saveHandEdit(tree, now, old, '', ctx.clock.instant) ?? savedEdit;
      ctx.beforeReplace?.(rel);
      if (removeIfUnchanged(tree.abs(rel), old)) break;
      if (attempt === WRITE_TRIES) throw new NodeWriteError(`changed ${WRITE_TRIES} times while being removed; tried again next run`);
    }
  }
  // Not recursive: a folder in a node's place is an error, never emptied.
  rmSync(tree.abs(rel), { force: true });
  tree.forgetNode(action.period);
  const saved = savedEdit ? tree.shown(savedEdit) : null;
  return {
    record: { status: 'removed', wrote: true, mode: 'removed', ...(saved ? { handEdit: saved } : {}) },
    written: rel,
    error: null,
    warning: saved ? `${tree.shown(rel)}: edited by hand; removed with its period's days, the edited version kept as ${saved}` : null,
  };
}

function applyFix(
  action: NodeAction,
  tree: TreeState,
  failed: ReadonlySet<NodeKey>,
  ctx: Pick<ExecEnv, 'clock' | 'beforeReplace'>,
): ActionOutcome {
  if (!childrenSettled(action.children, tree, failed)) {
    return {
      record: { status: 'tentative', wrote: false, mode: 'status' },
      written: null,
      error: null,
      warning: `${tree.shown(action.relPath)}: not fixed yet: a part of its period is not settled`,
    };
  }
  // The body is kept byte for byte, an edit saved while the status changes too.
  const fixed = (old: Buffer | null): string => {
    const decoded = decodeText(old ?? tree.readBytes(action.relPath));
    const text = decoded.ok ? withStatus(decoded.text, 'fixed') : null;
    if (text === null) throw new NodeWriteError('frontmatter cannot be read, so the status cannot be changed');
    return text;
  };
  const { wrote } = writeNode(tree, action, fixed, null, ctx);
  return { record: { status: 'fixed', wrote, mode: 'status' }, written: wrote ? action.relPath : null, error: null, warning: null };
}

async function applyGenerating(action: NodeAction, tree: TreeState, ctx: ExecEnv, failed: ReadonlySet<NodeKey>): Promise<ActionOutcome> {
  const { period } = action;
  const existing = tree.node(period);
  const today = ctx.clock.today;
  if (period.level === 'root') return applyRoot(action, tree, ctx);

  let inputs: NodeInputs;
  let prebuilt: Composed | null = null;
  if (period.level === 'daily') {
    const { parts, hash } = readRawDay(period.date, tree);
    const pre = ctx.prefetch ? await ctx.prefetch.take(period.date, hash) : null;
    // Built before a file of the day was renamed: the same content under names that are gone.
    const files = parts.map((p) => p.shownPath);
    if (pre && !namesGone(pre.inputs.sourceFiles, files)) {
      inputs = pre.inputs;
      prebuilt = pre.composed;
    } else inputs = dailyInputsFrom(period.date, parts, hash, ctx.redactor, ctx.rules, ctx.memo);
  } else inputs = parentInputs(action.children, tree, ctx.redactor);
  if (action.status === 'removed') throw new NodeWriteError('a node planned for removal is not generated');
  let status: NodeStatus = action.status;
  // A fixed node being amended stays fixed; a node becoming fixed needs every child settled, the
  // ones that have no node (yet) too.
  if (status === 'fixed' && action.kind !== 'amend' && period.level !== 'daily' && !childrenSettled(action.children, tree, failed))
    status = 'tentative';

  // The children were rewritten to the same content: nothing to regenerate.
  if (
    existing &&
    existing.status !== null &&
    action.kind !== 'create' &&
    action.kind !== 'resummarize' &&
    existing.sourceHash === inputs.sourceHash &&
    !namesGone(existing.sourceFiles, inputs.sourceFiles) &&
    !existing.problem
  ) {
    if (existing.status === status || existing.status === 'fixed')
      return {
        record: { status: existing.status, wrote: false, inputHash: inputs.sourceHash, mode: 'unchanged' },
        written: null,
        error: null,
        warning: null,
      };
    const r = applyFix({ ...action, kind: 'fix', status: 'fixed' }, tree, failed, ctx);
    return { ...r, record: { ...r.record, action: 'fix' } };
  }

  const threshold = ctx.config.compaction.thresholds[period.level];
  const thresholdBytes = ctx.config.compaction.thresholdBytes[period.level];
  const composed: Composed =
    prebuilt ??
    (await composeBody(
      {
        period,
        lines: inputs.lines,
        threshold,
        bytes: inputs.bytes,
        thresholdBytes,
        sources: inputs.sources,
        topics: inputs.topics,
        today,
        sourceHash: inputs.sourceHash,
      },
      ctx.summarizer,
    ));
  const file = renderNodeFile({
    period,
    status,
    sourceFiles: inputs.sourceFiles,
    topics: inputs.topics,
    summarizer: composed.summarizer,
    sourceHash: inputs.sourceHash,
    body: withNodeLinks(composed.body, nodeLinksLine(period, inputs.sourceFiles, tree.ws.memoryName)),
    ...(period.level === 'monthly' ? { weeks: weeksOf(inputs.children) } : {}),
  });
  const w = writeNode(tree, action, (old) => withPersonsKeys(textOf(old), file.text), file.bodyHash, ctx);
  const wrote = w.wrote;
  const kept = editKept(tree, action, w);
  return {
    record: {
      status,
      wrote,
      ...kept.record,
      mode: composed.mode,
      summarizer: composed.summarizer,
      inputHash: inputs.sourceHash,
      outputHash: file.bodyHash,
      bytes: Buffer.byteLength(file.text),
      ...usageRecord(composed),
    },
    written: wrote ? action.relPath : null,
    error: null,
    warning:
      [kept.warning, composed.fallbackReason ? `${tree.shown(action.relPath)}: ${composed.fallbackReason}` : null]
        .filter(Boolean)
        .join('; ') || null,
  };
}

function usageRecord(r: {
  usage?: Composed['usage'];
  fallbackReason?: string;
}): Pick<ActionRecord, 'model' | 'tokensIn' | 'tokensOut' | 'latencyMs' | 'cached' | 'fallback'> {
  return {
    ...(r.usage
      ? {
          model: r.usage.model,
          tokensIn: r.usage.tokensIn,
          tokensOut: r.usage.tokensOut,
          latencyMs: r.usage.latencyMs,
          ...(r.usage.cached ? { cached: true } : {}),
        }
      : {}),
    ...(r.fallbackReason ? { fallback: r.fallbackReason } : {}),
  };
}

function weeksOf(children: readonly Period[]): string[] {
  const weeks = new Set<string>();
  for (const c of children) {
    if (c.level === 'weekly') weeks.add(c.week);
    else if (c.level === 'daily') weeks.add(isoWeekOf(c.date));
  }
  return [...weeks].sort();
}

/** The monthly nodes ROOT reads whole (for Recent Patterns), the latest ones: its `source-files`. */
const ROOT_READ_MONTHS = 2;

/** Tokens one 16-hex-digit hash can take beyond another (o200k: 10 to 20 for `body-hash: …`). */
const HASH_SPREAD = 10;

interface RootMade {
  body: string;
  tokens: number;
  summarizer: string;
}

/**
 * ROOT.md around a body, and the tokens of its frontmatter. ROOT.md is loaded whole (the session
 * start, `hipo://memory/ROOT.md`, an `@memory/ROOT.md` import), so `rootMaxTokens` caps the file:
 * the body gets what the frontmatter leaves. That is counted before the body is made, with the
 * longest `tokens` and summarizer it can have and room for the body's hash.
 */
export function rootLayout(
  months: readonly Period[],
  tree: TreeState,
  ctx: Pick<ExecEnv, 'config' | 'clock'>,
  sourceHash: string,
  countTokens: CountTokens,
  model: string | null,
): { frontmatterTokens: number; file: (made: RootMade) => NodeFile } {
  const file = (made: RootMade): NodeFile =>
    renderNodeFile({
      period: ROOT_PERIOD,
      status: 'tentative',
      sourceFiles: months.slice(-ROOT_READ_MONTHS).map((m) => tree.shown(nodeRelPath(m))),
      topics: [],
      summarizer: made.summarizer,
      sourceHash,
      body: made.body,
      lastUpdated: ctx.clock.today,
      monthsCovered: months.map(periodId),
      tokens: made.tokens,
    });
  const summarizer = model && llmSummarizerId(model).length > 'extractive'.length ? llmSummarizerId(model) : 'extractive';
  const frontmatterTokens = countTokens(file({ body: '', tokens: ctx.config.compaction.rootMaxTokens, summarizer }).text) + HASH_SPREAD;
  return { frontmatterTokens, file };
}

/** ROOT as the extractive builder makes it (and the Topics Index a model-written ROOT keeps). */
export function extractiveRoot(
  months: readonly Period[],
  tree: TreeState,
  ctx: Pick<ExecEnv, 'config' | 'clock' | 'redactor' | 'rules' | 'templates' | 'memo'>,
  countTokens: CountTokens,
  frontmatterTokens = 0,
): RootBuild {
  const today = ctx.clock.today;
  const cfg = ctx.config.compaction;
  const recent = recentDailyPeriods(tree, today, cfg.activeContextDays);
  // The last 30 days looked up by date, not found among every node of the tree.
  const recentDayTopics: { date: LocalDate; topics: readonly TopicInfo[] }[] = [];
  for (let i = 29; i >= 0; i--) {
    const date = addDays(today, -i);
    const n = tree.node({ level: 'daily', date });
    if (n) recentDayTopics.push({ date, topics: tree.topicsOf(n.period) });
  }
  return buildRoot({
    today,
    months: months.map((m) => ({
      month: periodId(m),
      topics: tree.topicsOf(m),
      facts:
        m.level === 'monthly'
          ? tree.factsOf(m, (body, firstLine) => monthlyFacts(m.month, body, firstLine, ctx.redactor, ctx.rules, ctx.memo))
          : [],
    })),
    recentDailies: readSources(recent, tree, ctx.redactor),
    recentDayTopics,
    latestMonthlies: readSources(months.slice(-ROOT_READ_MONTHS), tree, ctx.redactor),
    pointerFor: (t) => topicPointer(tree, t),
    linkFor: (d) => dayLink(tree, d),
    config: cfg,
    template: ctx.templates.get('root'),
    rules: ctx.rules,
    memo: ctx.memo,
    countTokens,
    settledMonths: tree.settledMonths,
    frontmatterTokens,
  });
}

/** The settings ROOT is built with, as the planner is told them (compaction.ts). */
export function rootSettings(ctx: Pick<ExecEnv, 'config' | 'templates'>): string {
  return rootSettingsOf(ctx.config.compaction, ctx.config.redactPatterns, ctx.templates.get('root'));
}

async function applyRoot(action: NodeAction, tree: TreeState, ctx: ExecEnv): Promise<ActionOutcome> {
  const today = ctx.clock.today;
  const cfg = ctx.config.compaction;
  const months = action.children.filter((m) => tree.node(m));
  const sourceHash = rootSourceHash(today, months, tree.nodes, rootSettings(ctx));
  const existing = tree.node(action.period);
  if (
    existing &&
    existing.status !== null &&
    existing.sourceHash === sourceHash &&
    action.kind !== 'create' &&
    action.kind !== 'resummarize'
  ) {
    return {
      record: { status: 'tentative', wrote: false, inputHash: sourceHash, mode: 'unchanged' },
      written: null,
      error: null,
      warning: null,
    };
  }
  const countTokens = await loadTokenCounter(cfg.tokenizer as TokenizerName);
  const layout = rootLayout(months, tree, ctx, sourceHash, countTokens, ctx.llm?.root ? ctx.llm.session.settings.model : null);
  const built = extractiveRoot(months, tree, ctx, countTokens, layout.frontmatterTokens);
  // With a model: it rewrites the narrative sections, hipo keeps the Topics Index (root-llm.ts).
  const root = ctx.llm?.root
    ? await modelRoot(ctx.llm.root, {
        tree,
        months,
        today,
        sourceHash,
        built,
        template: ctx.templates.get('root'),
        config: cfg,
        redactor: ctx.redactor,
        countTokens,
        frontmatterTokens: layout.frontmatterTokens,
      })
    : null;
  const made = root?.ok ? root : { body: built.body, tokens: built.tokens, summarizer: 'extractive' };
  const file = layout.file(made);
  const w = writeNode(tree, action, (old) => withPersonsKeys(textOf(old), file.text), file.bodyHash, ctx);
  const wrote = w.wrote;
  const kept = editKept(tree, action, w);
  const fallback = root && !root.ok ? root.reason : undefined;
  const warnings = [built.overCap, fallback].filter(Boolean).join('; ');
  return {
    record: {
      status: 'tentative',
      wrote,
      mode: 'root',
      ...kept.record,
      summarizer: made.summarizer,
      inputHash: sourceHash,
      outputHash: file.bodyHash,
      bytes: Buffer.byteLength(file.text),
      ...usageRecord({ ...(root?.usage ? { usage: root.usage } : {}), ...(fallback ? { fallbackReason: fallback } : {}) }),
    },
    written: wrote ? action.relPath : null,
    error: null,
    warning: [kept.warning, warnings ? `${tree.shown(action.relPath)}: ${warnings}` : null].filter(Boolean).join('; ') || null,
  };
}
