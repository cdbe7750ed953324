// The daemon lets go of its search index and caches after a quiet spell (daemon.releaseAfterMs)
// and picks them up again on the next change.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daemonsForTests, FAST_DAEMON } from '../helpers/daemon.js';
import { rawLog } from '../helpers/tree.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

const start = daemonsForTests();

describe('daemon quiet spells', () => {
  it('closes the index once quiet, and reopens it for the next change', async () => {
    const ws = makeWorkspace({}, { ...FAST_DAEMON, daemon: { ...FAST_DAEMON.daemon, releaseAfterMs: 300, cacheMB: 1 } });
    ws.write('memory/2026-06-01.md', rawLog('2026-06-01', { 'kiln firing [project]': ['loaded the kiln'] }));
    const d = start(ws.root, { HIPO_NOW: '2026-06-01' });
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    await d.waitFor((l) => l.event === 'release', 10_000, 'the release after a quiet spell');
    appendFileSync(join(ws.root, 'memory/2026-06-01.md'), '- glaze test for the celadon bowls\n');
    const released = d.logs.filter((l) => l.event === 'release').length;
    await d.waitFor(
      (l) => l.event === 'index' && d.logs.indexOf(l) > d.logs.findIndex((x) => x.event === 'release'),
      20_000,
      'the index update after the change',
    );
    const found = JSON.parse(runCli(['search', 'celadon glaze', '--mode', 'bm25', '--no-update', '--json', '--dir', ws.root]).stdout);
    expect(found.hits.map((h: { path: string }) => h.path)).toContain('memory/2026-06-01.md');
    // Quiet again: released again.
    await d.until(() => d.logs.filter((l) => l.event === 'release').length > released, 10_000, 'a second release');
  });

  it('never releases with daemon.releaseAfterMs 0', async () => {
    const ws = makeWorkspace({}, { ...FAST_DAEMON, daemon: { ...FAST_DAEMON.daemon, releaseAfterMs: 0 } });
    ws.write('memory/2026-06-01.md', rawLog('2026-06-01', { 'x [project]': ['y'] }));
    const d = start(ws.root, { HIPO_NOW: '2026-06-01' });
    await d.waitFor((l) => l.event === 'index', 30_000, 'the first index');
    await new Promise((r) => setTimeout(r, 1000));
    expect(d.logs.some((l) => l.event === 'release')).toBe(false);
  });
});
