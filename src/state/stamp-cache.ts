// The stamp cache (`.hipo/tree-cache.json`): each file's record by size and mtime, so a cycle
// on an unchanged tree stats files instead of reading them. Records are stored as flat tuples
// (a 10-year tree has ~7,000 files; objects per record made loading it dominate a no-op run).
// It is only a cache: a missing or corrupt one means a full read, never a wrong answer.
import { readFileSync } from 'node:fs';
import type { LocalDate } from '../time/calendar.js';
import type { MemoryType, NodeStatus, Period, Workspace } from '../tree/layout.js';
import type { Cached, FileStamp, ScanCache } from '../tree/snapshot.js';
import type { TopicInfo } from '../tree/topic.js';
import type { FactCategory, FactInfo } from '../tree/fact.js';
import { atomicWriteFile } from '../fs/atomic.js';
import { ensureStateDir, statePath } from './dir.js';
import { redactValue } from '../redact/lines.js';
import { workspaceRedactor } from '../redact/workspace.js';

/**
 * Raised whenever a file reads differently (9: UTF-16 raw logs; a monthly node's facts, day by day;
 * 10: a node's body hash, blind to line endings and spaces at line ends; 11: a daily node's source files).
 */
const CACHE_VERSION = 11;
/**
 * A record is trusted when the file's mtime is older than the moment the record was taken: any
 * later change moves the mtime past it. On a file system with whole-second mtimes a change within
 * the same second would not, so there the margin is two seconds.
 */
const COARSE_MARGIN_MS = 2000;

type TopicTuple = [name: string, type: MemoryType, lastSeen: string, days: number, keywords: string[]];
type FactTuple = [
  type: 'user' | 'feedback',
  category: FactCategory | null,
  text: string,
  salience: number,
  key: string,
  slot: string | null,
  lastSeen: string,
  days: number,
];
type RawTuple = ['r', size: number, mtimeMs: number, seen: number, hash: string, lines: number, usable: 0 | 1, note: string | null];
type NodeTuple = [
  'n',
  size: number,
  mtimeMs: number,
  seen: number,
  status: NodeStatus | null,
  sourceHash: string | null,
  recordedBodyHash: string | null,
  bodyHash: string,
  bodyLines: number,
  summarizer: string | null,
  problem: string | null,
  topics: TopicTuple[] | null,
  facts?: FactTuple[] | null,
  sourceFiles?: string[] | null,
];
type Rec = RawTuple | NodeTuple;

interface CacheFile {
  version: number;
  /** The rules its entries were redacted with (Redactor.rulesKey: built-in ones and the workspace's patterns). */
  redaction?: string;
  entries: Record<string, Rec>;
}

export class StampCache implements ScanCache {
  private dirty = false;
  /**
   * Entries set since the last save: only they are redacted when it is written (the others were
   * when they were written last, and a redacted text redacts to itself).
   */
  private readonly fresh = new Set<string>();

  private constructor(
    private readonly entries: Map<string, Rec>,
    private loaded: boolean,
    /** The rules the entries not in `fresh` were redacted with; null: unknown. */
    private redaction: string | null,
  ) {}

  static empty(): StampCache {
    return new StampCache(new Map(), false, null);
  }

  static load(ws: Workspace): StampCache {
    try {
      const parsed = JSON.parse(readFileSync(statePath(ws, 'stamps'), 'utf8')) as CacheFile;
      if (parsed.version !== CACHE_VERSION || typeof parsed.entries !== 'object') return StampCache.empty();
      const entries = new Map(Object.entries(parsed.entries));
      // Written under other rules (another hipo, other patterns): the records are redacted again
      // before anything reads them (ROOT's profile is built from the monthly facts kept here), and
      // again whole when saved.
      const redactor = workspaceRedactor(ws);
      if ((parsed.redaction ?? null) !== redactor.rulesKey) for (const [k, r] of entries) entries.set(k, redactValue(redactor, r));
      return new StampCache(entries, true, parsed.redaction ?? null);
    } catch {
      return StampCache.empty();
    }
  }

  /** The record of `relPath` if it was taken from this exact file version, rebuilt for `what`. */
  get(relPath: string, stamp: FileStamp, what: { date: LocalDate } | { period: Period }): Cached | undefined {
    const r = this.entries.get(relPath);
    if (!r || r[1] !== stamp.size || r[2] !== stamp.mtimeMs) return undefined;
    const margin = Number.isInteger(stamp.mtimeMs / 1000) ? COARSE_MARGIN_MS : 0;
    if (stamp.mtimeMs >= r[3] - margin) return undefined;
    if (r[0] === 'r') {
      if (!('date' in what)) return undefined;
      return { kind: 'raw', info: { date: what.date, relPath, stamp, hash: r[4], lines: r[5], usable: r[6] === 1, note: r[7] } };
    }
    if (!('period' in what)) return undefined;
    const topics = r[11]
      ? r[11].map(([name, type, lastSeen, days, keywords]) => ({ name, type, lastSeen: lastSeen as LocalDate, days, keywords }))
      : null;
    const facts = r[12]
      ? r[12].map(
          ([type, category, text, salience, key, slot, lastSeen, days]): FactInfo => ({
            type,
            category,
            text,
            salience,
            key,
            slot,
            lastSeen: lastSeen as LocalDate,
            days,
          }),
        )
      : undefined;
    return {
      kind: 'node',
      info: {
        period: what.period,
        relPath,
        stamp,
        status: r[4],
        sourceHash: r[5],
        recordedBodyHash: r[6],
        bodyHash: r[7],
        bodyLines: r[8],
        summarizer: r[9],
        problem: r[10],
        topics,
        ...(facts ? { facts } : {}),
        ...(r[13] ? { sourceFiles: r[13] } : {}),
      },
    };
  }

  /** True when the record for `relPath` was taken from a file with exactly this stamp. */
  knows(relPath: string, stamp: FileStamp): boolean {
    const r = this.entries.get(relPath);
    return r !== undefined && r[1] === stamp.size && r[2] === stamp.mtimeMs;
  }

  set(relPath: string, value: Cached): void {
    const seen = Date.now();
    const s = value.info.stamp;
    if (value.kind === 'raw') {
      const i = value.info;
      this.entries.set(relPath, ['r', s.size, s.mtimeMs, seen, i.hash, i.lines, i.usable ? 1 : 0, i.note]);
    } else {
      const i = value.info;
      // Only monthly topics are needed without reading the file (ROOT is built from them);
      // daily and weekly topics are many, and their parents read those files anyway.
      const topics =
        i.period.level === 'monthly' && i.topics
          ? i.topics.map((t: TopicInfo): TopicTuple => [t.name, t.type, t.lastSeen, t.days, t.keywords])
          : null;
      const facts =
        i.period.level === 'monthly' && i.facts
          ? i.facts.map((f): FactTuple => [f.type, f.category, f.text, f.salience, f.key, f.slot, f.lastSeen, f.days])
          : null;
      this.entries.set(relPath, [
        'n',
        s.size,
        s.mtimeMs,
        seen,
        i.status,
        i.sourceHash,
        i.recordedBodyHash,
        i.bodyHash,
        i.bodyLines,
        i.summarizer,
        i.problem,
        topics,
        facts,
        // A daily node's names: a raw log renamed is seen without reading the node (raw-day.ts).
        i.sourceFiles ? [...i.sourceFiles] : null,
      ]);
    }
    this.fresh.add(relPath);
    this.dirty = true;
  }

  /** Drops entries for files that no longer exist. */
  retain(live: ReadonlySet<string>): void {
    for (const k of this.entries.keys()) {
      if (!live.has(k)) {
        this.entries.delete(k);
        this.dirty = true;
      }
    }
  }

  /** Writes the cache if anything changed. Failure is harmless: the next scan reads more. */
  save(ws: Workspace): void {
    // Problems quote what they failed on (a YAML error shows the line), facts what the user said:
    // redacted, and all of it again when the rules changed since the last save (an upgrade, the patterns).
    const redactor = workspaceRedactor(ws);
    const all = this.redaction !== redactor.rulesKey;
    if (!this.dirty && this.loaded && !all) return;
    try {
      ensureStateDir(ws);
      const entries: Record<string, Rec> = {};
      for (const [k, r] of this.entries) {
        if (!all && !this.fresh.has(k)) entries[k] = r;
        else {
          const clean = redactValue(redactor, r);
          this.entries.set(k, clean);
          entries[redactor.redact(k).text] = clean;
        }
      }
      const file: CacheFile = { version: CACHE_VERSION, redaction: redactor.rulesKey, entries };
      atomicWriteFile(statePath(ws, 'stamps'), JSON.stringify(file), { durable: false });
      this.redaction = redactor.rulesKey;
      this.fresh.clear();
      this.dirty = false;
      this.loaded = true;
    } catch {
      /* a read-only state folder only costs speed */
    }
  }
}
