// What `hipo search` prints, done by the command or asked of a running daemon (daemon-first.ts).
import type { SearchAnswer } from '../search/answer.js';
import { formatSearch } from '../search/format.js';
import type { Io } from './io.js';

/** What `hipo search` prints: the hits (or JSON), then the warnings, the configuration's first. */
export function printSearch(a: SearchAnswer, io: Io, opts: { json: boolean; configWarnings: string[] }): void {
  const warnings = [...opts.configWarnings, ...a.warnings];
  if (opts.json) {
    const json = {
      query: a.query,
      also: a.also,
      mode: a.mode,
      ms: Math.round(a.ms * 10) / 10,
      hits: a.hits,
      warnings,
      expansion: a.expansion,
    };
    io.out(JSON.stringify(json, null, 2));
  } else {
    io.out(formatSearch(a));
    for (const w of warnings) io.err(`hipo: warning: ${w}`);
  }
}
