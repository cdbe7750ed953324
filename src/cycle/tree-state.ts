// The executor's live view of the tree: the scanned snapshot, updated after every write so that
// parents are built from what their children are now, and the stamp cache kept in step.
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalDate } from '../time/calendar.js';
import { nodeKey, type NodeKey, type Period, type Workspace } from '../tree/layout.js';
import { cappedNote, DEFAULT_MAX_FILE_BYTES, readCapped, type CappedRead } from '../tree/capped.js';
import { fileInTheWay, realInside, requireInside } from '../tree/inside.js';
import { readNode, readRawLog } from '../tree/read.js';
import { withPart } from '../tree/raw-day.js';
import type { StampCache } from '../state/stamp-cache.js';
import type { FileStamp, NodeInfo, Problem, RawLogInfo, TreeSnapshot } from '../tree/snapshot.js';
import type { TopicInfo } from '../tree/topic.js';
import type { FactInfo } from '../tree/fact.js';
import { documentBody } from '../tree/frontmatter.js';
import type { TreeChanges } from '../plan/planner.js';
import { decodeText } from '../tree/text.js';
import { SettledMonths } from '../compose/root.js';

export class TreeState implements TreeSnapshot {
  readonly raws: Map<LocalDate, RawLogInfo>;
  readonly nodes: Map<NodeKey, NodeInfo>;
  readonly problems: Problem[];
  /** Node folders found to be inside the memory folder, this run. */
  private readonly insideDirs = new Set<string>();
  /** Records replaced since the planner last asked (takeChanges). */
  private changedRaws = new Set<LocalDate>();
  private changedNodes = new Set<NodeKey>();

  constructor(
    snapshot: TreeSnapshot,
    readonly ws: Workspace,
    private readonly cache: StampCache,
    /** Raw logs are read up to this many bytes (the `maxFileBytes` setting). */
    readonly maxFileBytes = DEFAULT_MAX_FILE_BYTES,
    /** ROOT's merge of the older months' topics (compose/root.ts): the caller's, or this run's own. */
    readonly settledMonths: SettledMonths = new SettledMonths(),
  ) {
    this.raws = new Map(snapshot.raws);
    this.nodes = new Map(snapshot.nodes);
    this.problems = [...snapshot.problems];
  }

  abs(relPath: string): string {
    return join(this.ws.memoryDir, relPath);
  }

  /** Workspace-relative path, as nodes list their sources: `memory/daily/2026-03-15.md`. */
  shown(relPath: string): string {
    return `${this.ws.memoryName}/${relPath}`;
  }

  /**
   * Records a node just written (or re-read) from its bytes and the stamp the file had before they
   * were read or renamed into place: a change landing after them gives the file another stamp, so
   * the next scan reads it again instead of taking it for these bytes.
   */
  noteNode(period: Period, relPath: string, bytes: Uint8Array, stamp: FileStamp): NodeInfo {
    const info = readNode(period, relPath, bytes, stamp);
    this.setNode(info);
    this.cache.set(relPath, { kind: 'node', info });
    return info;
  }

  /** Forgets a node just removed. */
  forgetNode(period: Period): void {
    const key = nodeKey(period);
    this.nodes.delete(key);
    this.changedNodes.add(key);
  }

  /** A raw log as a cycle reads it: its first maxFileBytes at most, and the whole file's hash. */
  readRaw(relPath: string): CappedRead {
    return readCapped(this.abs(relPath), this.maxFileBytes);
  }

  /** Re-reads a raw log that changed since the scan (a log growing while the cycle runs). */
  noteRaw(date: LocalDate, relPath: string, read: CappedRead): RawLogInfo {
    const st = statSync(this.abs(relPath));
    const info = readRawLog(
      date,
      relPath,
      read.bytes,
      { size: st.size, mtimeMs: st.mtimeMs },
      { hash: read.hash, note: read.truncated ? cappedNote(read, this.maxFileBytes) : null },
    );
    this.raws.set(date, withPart(this.raws.get(date), info));
    this.changedRaws.add(date);
    this.cache.set(relPath, { kind: 'raw', info });
    return info;
  }

  private setNode(info: NodeInfo): void {
    const key = nodeKey(info.period);
    this.nodes.set(key, info);
    this.changedNodes.add(key);
  }

  /** The records replaced since the last call: what the planner must look at again. */
  takeChanges(): TreeChanges {
    const changes = { raws: this.changedRaws, nodes: this.changedNodes };
    this.changedRaws = new Set();
    this.changedNodes = new Set();
    return changes;
  }

  /**
   * Before a node is written: throws when its folder is a link leading out of the memory folder,
   * or a file stands in its place; false when the node file itself is such a link (it is
   * replaced, never written through or read).
   */
  writableInside(relPath: string): boolean {
    const slash = relPath.lastIndexOf('/');
    const dir = slash < 0 ? '.' : relPath.slice(0, slash);
    if (!this.insideDirs.has(dir)) {
      const file = fileInTheWay(this.ws.memoryDir, dir);
      if (file !== null) throw new Error(`${this.shown(file)}: a file, where hipo needs a folder; nothing is written in it`);
      requireInside(this.ws.memoryDir, dir, this.shown(dir === '.' ? '' : dir).replace(/\/$/, ''));
      this.insideDirs.add(dir);
    }
    try {
      if (!lstatSync(this.abs(relPath)).isSymbolicLink()) return true;
    } catch {
      return true; // not there yet
    }
    return realInside(this.ws.memoryDir, relPath) !== null;
  }

  readBytes(relPath: string): Buffer {
    return readFileSync(this.abs(relPath));
  }

  /** A node's bytes and its stamp, taken first (noteNode). */
  readStamped(relPath: string): { bytes: Buffer; stamp: FileStamp } {
    const st = statSync(this.abs(relPath));
    return { bytes: this.readBytes(relPath), stamp: { size: st.size, mtimeMs: st.mtimeMs } };
  }

  node(p: Period): NodeInfo | undefined {
    return this.nodes.get(nodeKey(p));
  }

  /**
   * A monthly node's user and feedback facts: found once from its body by `find` (summarize/
   * facts) and then kept with its record, so later cycles and the stamp cache need no re-read.
   */
  factsOf(p: Period, find: (body: string, firstLine: number) => FactInfo[]): readonly FactInfo[] {
    const info = this.node(p);
    if (!info) return [];
    if (info.facts) return info.facts;
    let facts: FactInfo[] = [];
    try {
      const decoded = decodeText(this.readBytes(info.relPath));
      if (decoded.ok) {
        const doc = documentBody(decoded.text);
        facts = find(doc.body, doc.bodyLineOffset + 1);
      }
    } catch {
      return [];
    }
    const withFacts: NodeInfo = { ...info, facts };
    this.setNode(withFacts);
    this.cache.set(info.relPath, { kind: 'node', info: withFacts });
    return facts;
  }

  /** A node's topics, reading the file when the cached record left them out. */
  topicsOf(p: Period): readonly TopicInfo[] {
    const info = this.node(p);
    if (!info) return [];
    if (info.topics) return info.topics;
    try {
      const read = this.readStamped(info.relPath);
      return this.noteNode(p, info.relPath, read.bytes, read.stamp).topics ?? [];
    } catch {
      return [];
    }
  }
}
