// The redaction rules hipo last brought the workspace's nodes up to (`.hipo/redaction.json`,
// Redactor.rulesKey). Missing (a workspace an older hipo wrote, or the file deleted): every node
// is looked at once more, which finds nothing to change in nodes already redacted as now.
import { readFileSync } from 'node:fs';
import type { Workspace } from '../tree/layout.js';
import { atomicWriteFile } from '../fs/atomic.js';
import { ensureStateDir, statePath } from './dir.js';

interface RedactionFile {
  nodes: string;
}

/** The rules the nodes were brought up to, or null when unknown. */
export function nodesRedactedWith(ws: Workspace): string | null {
  try {
    const parsed = JSON.parse(readFileSync(statePath(ws, 'redaction'), 'utf8')) as Partial<RedactionFile>;
    return typeof parsed.nodes === 'string' ? parsed.nodes : null;
  } catch {
    return null;
  }
}

/** Records that every node is redacted under `rulesKey`. A failure costs one more look next run. */
export function recordNodesRedactedWith(ws: Workspace, rulesKey: string): void {
  try {
    ensureStateDir(ws);
    const file: RedactionFile = { nodes: rulesKey };
    atomicWriteFile(statePath(ws, 'redaction'), `${JSON.stringify(file)}\n`, { durable: false });
  } catch {
    /* a read-only state folder: the nodes are looked at again next run */
  }
}
