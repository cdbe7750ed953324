// The stamp cache (.hipo/tree-cache.json) keeps monthly facts and problems, which quote what the
// user wrote: redacted when written, and again whole when the workspace's patterns change, even
// if no file did.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

describe('the stamp cache', () => {
  it('is redacted with the patterns in force, also when only the patterns changed', () => {
    const ws = makeWorkspace({
      'memory/2026-05-04.md': rawLog('2026-05-04', { 'About me [user]': ['my badge code is ZEBRAFALCON-77, I work at the Lisbon office'] }),
      'memory/2026-05-05.md': rawLog('2026-05-05', { 'Release [project]': ['shipped the importer'] }),
    });
    const cache = () => readFileSync(join(ws.stateDir, 'tree-cache.json'), 'utf8');
    expect(runCli(['compact', '--catch-up', '--now', '2026-06-10', '--dir', ws.root]).code).toBe(0);
    // The monthly node's user fact is kept in the cache: ROOT's profile is built from it.
    expect(cache()).toContain('ZEBRAFALCON-77');
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC', redactPatterns: ['ZEBRAFALCON-\\d+'] }));
    const again = runCli(['compact', '--now', '2026-06-10', '--dir', ws.root]);
    expect(again.code).toBe(0);
    // ROOT is built with the patterns (a setting of ROOT's): it alone is written again, without the value.
    expect(again.stdout).toMatch(/regenerate ROOT\.md[^\n]*ROOT settings changed\n\s+1 file written/);
    expect(ws.read('memory/ROOT.md')).not.toContain('ZEBRAFALCON');
    expect(cache()).not.toContain('ZEBRAFALCON');
    expect(cache()).toContain('Lisbon office');
  });

  it('is not trusted when written by a hipo that read files another way', () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(rawLog('2026-05-04', { 'garden [project]': ['new shed'] }), 'utf16le'),
    ]);
    const ws = makeWorkspace({ 'memory/2026-05-04.md': utf16 });
    const path = join(ws.stateDir, 'tree-cache.json');
    expect(runCli(['compact', '--now', '2026-05-05', '--dir', ws.root]).code).toBe(0);
    // As version 8 recorded the log, which read UTF-16 as binary: the record must not stand.
    const cache = JSON.parse(readFileSync(path, 'utf8')) as { version: number; entries: Record<string, unknown[]> };
    const rec = cache.entries['2026-05-04.md']!;
    rec.splice(6, 2, 0, 'binary data (NUL bytes), not a text file');
    writeFileSync(path, JSON.stringify({ ...cache, version: 8 }));
    const again = runCli(['compact', '--now', '2026-05-05', '--dir', ws.root]);
    expect(again.stderr + again.stdout).not.toContain('binary data');
    expect(again.code).toBe(0);
  });
});
