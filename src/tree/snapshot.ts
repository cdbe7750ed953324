// What a cycle knows about the tree: one record per raw log and node, from their stamps and
// (when those changed) their contents. Plain data, so the planner can be a pure function of it.
import type { LocalDate } from '../time/calendar.js';
import type { NodeKey, NodeStatus, Period } from './layout.js';
import type { TopicInfo } from './topic.js';
import type { FactInfo } from './fact.js';

export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

export interface RawLogInfo {
  readonly date: LocalDate;
  /** Relative to the memory folder. */
  readonly relPath: string;
  readonly stamp: FileStamp;
  /** Hash of the file's bytes. */
  readonly hash: string;
  /** Lines of the log's text (frontmatter excluded). */
  readonly lines: number;
  /** False when there is nothing to compact: empty, binary, unreadable. */
  readonly usable: boolean;
  /** Why it is unusable, or a note on how it was read (e.g. Latin-1). */
  readonly note: string | null;
  /**
   * A day written in several files (tree/raw-day.ts): each file's record, the main log first.
   * The day's own fields then describe them together (its hash what the daily node records).
   */
  readonly parts?: readonly RawLogInfo[];
}

export interface NodeInfo {
  readonly period: Period;
  readonly relPath: string;
  readonly stamp: FileStamp;
  /** null when the status field is missing or not one of ours (e.g. a placeholder). */
  readonly status: NodeStatus | null;
  /** Hash of the sources the node was written from, as recorded in its frontmatter. */
  readonly sourceHash: string | null;
  /** Hash of the body hipo wrote, as recorded; differs from bodyHash after a hand edit. */
  readonly recordedBodyHash: string | null;
  /** Hash of the body as it is on disk now. */
  readonly bodyHash: string;
  readonly bodyLines: number;
  /** How the body was made: copy, concat, extractive, llm:<model>… */
  readonly summarizer: string | null;
  /** null when not loaded: the stamp cache leaves daily topics out to stay small. */
  readonly topics: readonly TopicInfo[] | null;
  /**
   * A daily node's `source-files`, as recorded: the raw-log files it was made from (raw-day.ts,
   * namesGone). Other levels leave it out.
   */
  readonly sourceFiles?: readonly string[];
  /** A monthly node's user and feedback facts, once found (ROOT's Profile is built from them). */
  readonly facts?: readonly FactInfo[];
  /** Set when the file could not be read or its frontmatter not parsed. */
  readonly problem: string | null;
}

export function isHandEdited(n: NodeInfo): boolean {
  return n.recordedBodyHash !== null && n.recordedBodyHash !== n.bodyHash;
}

export interface Problem {
  /** Path relative to the workspace, e.g. `memory/2026-02-30.md`. */
  readonly file: string;
  readonly message: string;
}

export interface TreeSnapshot {
  readonly raws: ReadonlyMap<LocalDate, RawLogInfo>;
  readonly nodes: ReadonlyMap<NodeKey, NodeInfo>;
  /** Files that were skipped or read with a caveat, each naming the file. */
  readonly problems: readonly Problem[];
}

/** One file's record as a scan reads it. */
export type Cached = { kind: 'raw'; info: RawLogInfo } | { kind: 'node'; info: NodeInfo };

/**
 * What a scan asks of the records it keeps between runs (state/stamp-cache.ts keeps them in
 * `.hipo/`; a test can pass an empty one): the record of a file version, and new ones.
 */
export interface ScanCache {
  /** The record of `relPath` if it was taken from this exact file version, rebuilt for `what`. */
  get(relPath: string, stamp: FileStamp, what: { date: LocalDate } | { period: Period }): Cached | undefined;
  set(relPath: string, value: Cached): void;
  /** Drops records of files that no longer exist. */
  retain(live: ReadonlySet<string>): void;
}
