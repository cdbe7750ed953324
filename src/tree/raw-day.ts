// A day's raw log may be written in several files: `2026-11-20.md`, and beside it dated notes
// named `2026-11-20-<anything>.md` (OpenClaw's session-memory hook writes one per `/new`, as
// `2026-11-20-vendor-pitch.md`; people keep `2026-11-20-standup.md`). They are one day: one
// daily node is made from all of them, the main log first, then the others by name. A day of
// one file has that file's record as it always had, so its nodes' source hashes do not move.
import { posix } from 'node:path';
import type { LocalDate } from '../time/calendar.js';
import { hashParts } from './hash.js';
import { rawRelPath } from './layout.js';
import type { RawLogInfo } from './snapshot.js';

/** The files of a day's record, in the order its daily node reads them. */
export function dayParts(day: RawLogInfo): readonly RawLogInfo[] {
  return day.parts ?? [day];
}

/** The names of a day's files (memory-relative), the main log first. */
export function dayFiles(day: RawLogInfo): string[] {
  return dayParts(day).map((p) => p.relPath);
}

/** The main log first, then the others by name. */
function partOrder(date: LocalDate): (a: RawLogInfo, b: RawLogInfo) => number {
  const main = rawRelPath(date);
  return (a, b) => (a.relPath === main ? -1 : b.relPath === main ? 1 : a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
}

/** The record of a day made of `parts` (sorted); undefined for none. */
function dayOf(parts: RawLogInfo[]): RawLogInfo | undefined {
  if (parts.length <= 1) return parts[0];
  const first = parts[0]!;
  return {
    date: first.date,
    relPath: first.relPath,
    stamp: first.stamp,
    hash: combinedHash(parts),
    lines: parts.reduce((n, p) => n + (p.usable ? p.lines : 0), 0),
    usable: parts.some((p) => p.usable),
    // Each file's own note is reported with the file.
    note: null,
    parts,
  };
}

/** What a daily node made from these files records as its source hash (one file: its own hash). */
export function combinedHash(parts: readonly Pick<RawLogInfo, 'relPath' | 'hash'>[]): string {
  return parts.length === 1 ? parts[0]!.hash : hashParts(parts.map((p) => `${p.relPath}:${p.hash}`));
}

/** The day's record with `part` added, or put in place of that file's earlier record. */
export function withPart(day: RawLogInfo | undefined, part: RawLogInfo): RawLogInfo {
  const parts = (day ? dayParts(day) : []).filter((p) => p.relPath !== part.relPath);
  parts.push(part);
  return dayOf(parts.sort(partOrder(part.date)))!;
}

/** The day's record without the file `relPath`; undefined when nothing of the day is left. */
export function withoutPart(day: RawLogInfo | undefined, relPath: string): RawLogInfo | undefined {
  if (!day) return undefined;
  return dayOf(dayParts(day).filter((p) => p.relPath !== relPath));
}

/**
 * Whether a daily node names a file its day no longer has (`recorded`: its `source-files`;
 * `files`: the day's files now). A raw log renamed, `2026-11-20.md` to `2026-11-20-bank.md`,
 * keeps a one-file day's hash, which is its content's: the node would keep the old name and a
 * link to nothing. Compared by file name, whatever the memory folder is called.
 */
export function namesGone(recorded: readonly string[] | undefined, files: readonly string[]): boolean {
  if (!recorded?.length) return false;
  const now = new Set(files.map((f) => posix.basename(f)));
  return recorded.some((f) => !now.has(posix.basename(f)));
}
