// Hand edits are never lost. A node whose body no longer matches the `body-hash` hipo recorded
// was edited by hand: a fixed one is never rewritten (the planner flags it), and a tentative
// node or ROOT.md that its sources make hipo regenerate (or remove, once its period has no day
// left) is first copied, byte for byte, to `memory/edits/` beside the tree
// (`edits/daily/2026-03-15.edited-2026-03-16T10-15-00Z.md`), and the copy is named in the
// cycle's output, the journal and `hipo status`.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Period } from '../tree/layout.js';
import { readNode } from '../tree/read.js';
import { isHandEdited } from '../tree/snapshot.js';
import { atomicWriteFile } from '../fs/atomic.js';
import type { TreeState } from './tree-state.js';

const EDITS_DIR = 'edits';

/**
 * Saves the node about to be replaced if it holds a hand edit the new version would drop.
 * Returns the copy's memory-relative path, or null when there is nothing to keep (no hand edit,
 * or the new version keeps the body as it is). Throws when the copy cannot be written: the node
 * is then not replaced.
 */
export function saveHandEdit(tree: TreeState, period: Period, relPath: string, old: Buffer, newBodyHash: string, at: Date): string | null {
  // The cycle's record of the node is current when the file's stamp is the one it was read at
  // (or written with); otherwise the bytes are read again, which a busy catch-up rarely needs.
  const st = statSync(tree.abs(relPath));
  const known = tree.node(period);
  const info =
    known && known.stamp.size === st.size && known.stamp.mtimeMs === st.mtimeMs && st.size === old.length
      ? known
      : readNode(period, relPath, old, { size: st.size, mtimeMs: st.mtimeMs });
  if (!isHandEdited(info) || info.bodyHash === newBodyHash) return null;
  const stamp = `${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z`;
  const base = `${EDITS_DIR}/${relPath.replace(/\.md$/, '')}.edited-${stamp}`;
  let target = `${base}.md`;
  for (let n = 2; existsSync(tree.abs(target)); n++) target = `${base}-${n}.md`;
  tree.writableInside(target);
  mkdirSync(dirname(tree.abs(target)), { recursive: true });
  atomicWriteFile(tree.abs(target), old);
  return target;
}
