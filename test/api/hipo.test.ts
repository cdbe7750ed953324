// hipo as a library (src/api/hipo.ts): the bundled example memory, opened from a folder below the
// workspace, compacted, indexed and searched through the package's own entry point, as an
// embedding program would.
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
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

  it("takes the commands' options: the index as it is, recall without search, index totals", async () => {
    const ws = makeWorkspace();
    ws.write('memory/2026-03-09.md', '# 2026-03-09\n\n## Kiln [project]\n- loaded the kiln with celadon bowls\n');
    const hipo = Hipo.open(ws.root, { now: '2026-03-10' });
    const built = await hipo.index();
    expect(built.report.added).toBe(1);
    expect(built.totals.files).toBe(1);
    expect(built.totals.file).toBe(join(ws.root, '.hipo', 'index.db'));

    ws.write('memory/2026-03-10.md', '# 2026-03-10\n\n## Glaze [project]\n- tried a tenmoku glaze\n');
    expect((await hipo.search('tenmoku', { mode: 'bm25', update: false })).hits).toEqual([]);
    const fresh = await hipo.search('tenmoku', { mode: 'bm25' });
    expect(fresh.hits.map((h) => h.path)).toEqual(['memory/2026-03-10.md']);
    expect(fresh.expansion).toBeNull();

    const offline = await hipo.recall('what glaze did I try', { search: false });
    expect(offline.warnings).toEqual([]);
    expect(offline.passages.map((p) => p.path)).toContain('2026-03-10.md');
    // An index that cannot be opened at all (a folder where the file should be): recall still
    // answers from the topics and days, and says why.
    rmSync(join(ws.root, '.hipo', 'index.db'), { force: true });
    mkdirSync(join(ws.root, '.hipo', 'index.db'));
    const unusable = await hipo.recall('what glaze did I try');
    expect(unusable.passages.map((p) => p.path)).toContain('2026-03-10.md');
    expect(unusable.warnings).toEqual([expect.stringMatching(/^search index not used: /)]);
  }, 60_000);

  it('says which folder has no workspace, and refuses empty queries', async () => {
    const ws = makeWorkspace({}, null as never);
    expect(() => Hipo.open(ws.root)).toThrow(HipoError);
    expect(() => Hipo.open(join(ws.root, 'nope'))).toThrow(/not a folder/);
    const hipo = Hipo.open(example().root);
    await expect(hipo.search('  ')).rejects.toThrow(/query is empty/);
  });
});
