// Hand edits are never lost. A node whose body no longer matches the `body-hash` hipo recorded
// was edited by hand: a fixed one is never rewritten (the planner flags it), and a tentative
// node or ROOT.md that its sources make hipo regenerate (or remove, once its period has no day
// left) is first copied, byte for byte, to `memory/edits/` beside the tree
// (`edits/daily/2026-03-15.edited-2026-03-16T10-15-00Z.md`), and the copy is named in the
// cycle's output, the journal and `hipo status`. So is a node hipo did not write (no
// `body-hash`: a file written by hand where a node goes, or a node overwritten with text of one's
// own): it holds the user's text too.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Period } from '../tree/layout.js';
import { fmString, splitFrontmatter } from '../tree/frontmatter.js';
import { readNode } from '../tree/read.js';
import { isHandEdited, type NodeInfo } from '../tree/snapshot.js';
import { decodeText } from '../tree/text.js';
import { atomicWriteFile } from '../fs/atomic.js';
import { statePath } from '../state/dir.js';
import type { TreeState } from './tree-state.js';

const EDITS_DIR = 'edits';

/**
 * What a node holds now, from `old`, its bytes just read: the cycle's record when the file's stamp
 * is the one it was read at (or written with), else read from the bytes, which a busy catch-up
 * rarely needs. Not the record alone: the scan may have read the file mid-save (empty, so no
 * node of hipo's), or before an edit.
 */
export function nodeNow(tree: TreeState, period: Period, relPath: string, old: Buffer): NodeInfo {
  const st = statSync(tree.abs(relPath));
  const known = tree.node(period);
  return known && known.stamp.size === st.size && known.stamp.mtimeMs === st.mtimeMs && st.size === old.length
    ? known
    : readNode(period, relPath, old, { size: st.size, mtimeMs: st.mtimeMs });
}

/**
 * Saves the node about to be replaced if it holds a hand edit the new version would drop. `info`:
 * what `old` is (nodeNow). Returns the copy's memory-relative path, or null when there is nothing
 * to keep (no hand edit, or the new version keeps the body as it is). Throws when the copy cannot
 * be written: the node is then not replaced.
 */
export function saveHandEdit(tree: TreeState, info: NodeInfo, old: Buffer, newBodyHash: string, at: Date): string | null {
  if (!isHandEdited(info) || info.bodyHash === newBodyHash) return null;
  return keepCopy(tree, info.relPath, old, at);
}

/**
 * Saves a node hipo did not write before it is replaced or removed, as a hand edit is saved.
 * Returns the copy's memory-relative path, or null when the file holds no text of the user's:
 * blank, or a hipocampus `needs-summarization` placeholder, which is backed up to `.hipo/backup/`
 * instead (it says only that a summary is missing). Throws when the copy cannot be written.
 */
export function saveForeign(tree: TreeState, relPath: string, old: Buffer, at: Date): string | null {
  const decoded = decodeText(old);
  if (decoded.ok && decoded.text.trim() === '') return null;
  if (decoded.ok && fmString(splitFrontmatter(decoded.text).data, 'status') === 'needs-summarization') {
    // Never over an earlier backup: older versions kept any file they replaced there.
    const target = join(statePath(tree.ws, 'backup'), relPath);
    if (existsSync(target)) return null;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, old);
    return null;
  }
  return keepCopy(tree, relPath, old, at);
}

/** `old` copied byte for byte to `edits/<node>.edited-<instant>.md`, under a name no other copy has. */
function keepCopy(tree: TreeState, relPath: string, old: Buffer, at: Date): string {
  const stamp = `${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z`;
  const base = `${EDITS_DIR}/${relPath.replace(/\.md$/, '')}.edited-${stamp}`;
  let target = `${base}.md`;
  for (let n = 2; existsSync(tree.abs(target)); n++) target = `${base}-${n}.md`;
  tree.writableInside(target);
  mkdirSync(dirname(tree.abs(target)), { recursive: true });
  atomicWriteFile(tree.abs(target), old);
  return target;
}
