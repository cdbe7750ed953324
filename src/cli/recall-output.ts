// What `hipo recall` prints, done by the command or asked of a running daemon (daemon-first.ts).
import type { RecallAnswer } from '../context/recall-run.js';
import { renderRecall } from '../context/recall.js';
import type { Io } from './io.js';

/** The passages (or JSON, with paths from the workspace), then the warnings, the configuration's first. */
export function printRecall(a: RecallAnswer, memoryName: string, io: Io, opts: { json: boolean; configWarnings: string[] }): void {
  const { warnings: own, ...r } = a;
  const warnings = [...opts.configWarnings, ...own];
  if (opts.json)
    io.out(JSON.stringify({ ...r, passages: r.passages.map((p) => ({ ...p, path: `${memoryName}/${p.path}` })), warnings }, null, 2));
  else {
    io.out(renderRecall(r, memoryName));
    for (const w of warnings) io.err(`hipo: warning: ${w}`);
  }
}
