// hipo as a library (src/api/hipo.ts): the bundled example memory, opened from a folder below the
// workspace, compacted, indexed and searched through the package's own entry point, as an
// embedding program would.
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Hipo, HipoError } from '../../src/api/hipo.js';
import { makeWorkspace, REPO } from '../helpers/workspace.js';

function example() {
  const ws = makeWorkspace({}, { timeZone: 'Europe/Berlin' });
  cpSync(join(REPO, 'memory'), ws.memoryDir, { recursive: true });
  return ws;
}

describe('the library API', () => {
  it('is the package entry point', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(pkg.exports['.'].default).toBe('./dist/api/hipo.js');
    expect(pkg.types).toBe('./dist/api/hipo.d.ts');
  });

  it('opens a workspace from a folder below it, compacts, searches, recalls, packs, logs and reports', async () => {
    const ws = example();
    const below = join(ws.memoryDir, 'notes');
    mkdirSync(below);
    const hipo = Hipo.open(below, { now: '2026-11-23' });
    expect(hipo.workspace.root).toBe(ws.root);

    const c = await hipo.compact({ catchUp: true });
    expect(c.errors).toEqual([]);
    expect(ws.exists('memory/ROOT.md')).toBe(true);

    const s = await hipo.search('German stemming for the catalog', { mode: 'bm25', limit: 3 });
    expect(s.hits[0]!.path).toBe('memory/2026-11-04.md');
    expect(s.hits[0]!.alsoIn.length).toBeGreaterThan(0);

    const r = await hipo.recall('why did we move search to postgres');
    expect(r.passages.length).toBeGreaterThan(0);

    const pack = await hipo.context({ budget: 2000 });
    expect(pack.text).toContain('Mina');
    expect(pack.total).toBeLessThanOrEqual(2000);

    const logged = await hipo.log('my token is ghp_Zx81Kq0LmW3vNa7Pt5Rb2Yc9Hd4Fg6Js1Ue8, rotate it', { type: 'project', topic: 'tokens' });
    expect(logged.redacted).toBe(1);
    expect(ws.read(`memory/${logged.rel}`)).toContain('[REDACTED:github-token]');

    const status = await hipo.status();
    expect(status.memoryDir).toBe(ws.memoryDir);
  }, 120_000);

  it('says which folder has no workspace, and refuses empty queries', async () => {
    const ws = makeWorkspace({}, null as never);
    expect(() => Hipo.open(ws.root)).toThrow(HipoError);
    expect(() => Hipo.open(join(ws.root, 'nope'))).toThrow(/not a folder/);
    const hipo = Hipo.open(example().root);
    await expect(hipo.search('  ')).rejects.toThrow(/query is empty/);
  });
});
