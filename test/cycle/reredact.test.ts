// After the redaction rules change (an upgrade of hipo, a pattern added to `redactPatterns`),
// what hipo already wrote is brought up to them on the next compaction and index update: fixed
// nodes, ROOT and the index rows of unchanged files lose what the rules now find; raw logs and
// the nodes that held nothing stay as they were, byte for byte and by mtime.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WinkEmbedder } from '../../src/index/embed/wink.js';
import { indexFile } from '../../src/index/search-index.js';
import { updateIndex } from '../../src/index/update.js';
import { Redactor } from '../../src/redact/redactor.js';
import { builtinRulesKey, rulesDigest } from '../../src/redact/rules-key.js';
import { renderNodeFile } from '../../src/write/node-file.js';
import { splitFrontmatter } from '../../src/tree/frontmatter.js';
import { withHash } from '../../src/cycle/reredact.js';
import { bodyHashOf } from '../../src/tree/body-hash.js';
import { loadTokenCounter } from '../../src/text/tokens.js';
import { formatCompact } from '../../src/cli/format.js';
import { counting, indexOf } from '../helpers/search.js';
import { cycle, node, nodeHashes, rawLog, rawLogHashes } from '../helpers/tree.js';
import { journalRecords, makeWorkspace, type TestWorkspace } from '../helpers/workspace.js';

const wink = new WinkEmbedder({ cacheDirs: [process.env.HIPO_CACHE_DIR!] });
const SECRET = 'ACME-482913';
const PATTERN = 'ACME-[0-9]{6}';

/** Two months of days; only 2026-02-10 holds the badge number. */
function tree(config: Record<string, unknown> = { timeZone: 'UTC' }): TestWorkspace {
  return makeWorkspace(
    {
      'memory/2026-01-06.md': rawLog('2026-01-06', { 'Office [reference]': ['moved the build server to rack 4'] }),
      'memory/2026-01-07.md': rawLog('2026-01-07', { 'Parser [project]': ['rewrote the tokenizer', 'fixed the quoting bug'] }),
      'memory/2026-01-20.md': rawLog('2026-01-20', { 'Parser [project]': ['benchmarked the tokenizer'] }),
      'memory/2026-02-10.md': rawLog('2026-02-10', {
        'Office [reference]': [`door badge ${SECRET} for the lab`, 'planted tomatoes on the balcony'],
      }),
    },
    config,
  );
}

const mtimes = (ws: TestWorkspace, files: string[]): Record<string, number> =>
  Object.fromEntries(files.map((f) => [f, statSync(join(ws.root, f)).mtimeMs]));

/** A node's text with its hash lines left out: what re-redaction may change besides the secret. */
const withoutHashes = (text: string): string => text.replace(/^(?:body|source)-hash: .*$/gm, '');

describe('redaction rules changed after nodes were written', () => {
  it('a pattern added later: fixed nodes, ROOT and index rows lose it; raw logs and other nodes stay', async () => {
    const ws = tree();
    await cycle(ws, '2026-03-20', { catchUp: true });
    const embedder = counting(wink);
    const first = indexOf(ws, { embedder });
    await updateIndex(first);
    // As an older hipo left its index: rows rewritten without secure_delete leave copies in their pages.
    first.db.pragma('secure_delete = OFF');
    first.db.exec('UPDATE chunks SET text = text');
    first.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(indexFile(ws)).toString('latin1').split(SECRET).length).toBeGreaterThan(3);
    first.close();
    // As written and as a topic keyword (`acme-482913`), which the pattern alone does not find.
    const holds = (f: string): boolean => ws.read(f).toLowerCase().includes(SECRET.toLowerCase());
    const holding = Object.keys(nodeHashes(ws)).filter(holds);
    // The day, its week, its month and ROOT, all but ROOT fixed.
    expect(holding).toEqual(['memory/ROOT.md', 'memory/daily/2026-02-10.md', 'memory/monthly/2026-02.md', 'memory/weekly/2026-W07.md']);
    expect(node(ws, 'weekly/2026-W07.md').data.status).toBe('fixed');
    const raw = rawLogHashes(ws);
    const nodesBefore = nodeHashes(ws);
    const textsBefore = Object.fromEntries(holding.map((f) => [f, ws.read(f)]));
    const others = Object.keys(nodesBefore).filter((f) => !holding.includes(f));
    expect(others.length).toBeGreaterThan(3);
    const othersMtime = mtimes(ws, others);

    ws.write('hipo.config.json', JSON.stringify({ timeZone: 'UTC', redactPatterns: [PATTERN] }));
    const r = await cycle(ws, '2026-03-20');

    for (const f of holding) expect(holds(f), f).toBe(false);
    expect(r.reredacted?.redacted.map((f) => `memory/${f}`).sort()).toEqual(holding);
    // Only the secret, the keyword made of it and the hashes that follow changed: nothing was summarized again.
    for (const f of holding.filter((h) => h !== 'memory/ROOT.md')) {
      const expected = textsBefore[f]!.replaceAll(SECRET, '[REDACTED:custom-1]').replace(': acme-482913, badge', ': badge');
      expect(withoutHashes(ws.read(f)), f).toBe(withoutHashes(expected));
    }
    expect(r.applied.map((a) => a.record.node)).toEqual(['memory/ROOT.md']); // its settings name the patterns
    expect(formatCompact(r, ws, { verbose: false, configWarnings: [] })).toContain('redaction rules changed: 4 nodes re-redacted');
    expect(journalRecords(ws).find((j) => j.type === 'reredact')).toMatchObject({
      redacted: expect.arrayContaining(['daily/2026-02-10.md']),
    });
    expect(rawLogHashes(ws)).toEqual(raw);
    expect(mtimes(ws, others)).toEqual(othersMtime);
    for (const f of others) expect(nodeHashes(ws)[f], f).toBe(nodesBefore[f]);
    // Nothing is taken for a hand edit or planned again, and nothing is kept in edits/.
    const next = await cycle(ws, '2026-03-20', { dryRun: true });
    expect(next.plan.actions).toEqual([]);
    expect(next.plan.attention).toEqual([]);
    expect(ws.files('memory').some((f) => f.startsWith('memory/edits/'))).toBe(false);
    // A second run finds the rules recorded and touches nothing.
    const again = mtimes(ws, Object.keys(nodeHashes(ws)));
    expect((await cycle(ws, '2026-03-20')).reredacted).toBeNull();
    expect(mtimes(ws, Object.keys(nodeHashes(ws)))).toEqual(again);

    // The index: rows of the files whose text the pattern now changes are read again, the raw log's
    // too (it did not change); only their changed chunks are embedded.
    embedder.texts.length = 0;
    const index = indexOf(ws, { embedder });
    const u = await updateIndex(index);
    expect(u.changed).toBeGreaterThanOrEqual(5);
    const stored = index.db.prepare('SELECT text FROM chunks').pluck().all() as string[];
    expect(stored.some((t) => t.includes(SECRET))).toBe(false);
    expect(stored.some((t) => t.includes('door badge [REDACTED:custom-1]'))).toBe(true);
    // Only the chunks whose text changed were embedded; the files' other chunks kept their vectors.
    expect(u.chunksAdded).toBeGreaterThan(0);
    expect(u.chunksKept).toBeGreaterThan(0);
    expect(embedder.texts.length).toBe(u.chunksAdded);
    for (const t of embedder.texts) expect(t.toLowerCase()).not.toContain(SECRET.toLowerCase());
    expect((await updateIndex(index)).changed).toBe(0);
    index.db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = readFileSync(indexFile(ws)).toString('latin1');
    expect(bytes).not.toContain(SECRET);
    expect(bytes.toLowerCase()).not.toContain(SECRET.slice(5));
    expect(rawLogHashes(ws)).toEqual(raw);
  });

  it('a node edited by hand is redacted too, stays a hand edit, and no copy of it is kept', async () => {
    const ws = tree();
    await cycle(ws, '2026-03-20', { catchUp: true });
    const rel = 'memory/daily/2026-01-06.md';
    ws.write(rel, `${ws.read(rel)}- my own note: ask facilities about ${SECRET}\n`);
    const recorded = node(ws, 'daily/2026-01-06.md').data['body-hash'];
    ws.write('hipo.config.json', JSON.stringify({ timeZone: 'UTC', redactPatterns: [PATTERN] }));
    const r = await cycle(ws, '2026-03-20');
    expect(ws.read(rel)).not.toContain(SECRET);
    expect(ws.read(rel)).toContain('my own note: ask facilities about [REDACTED:custom-1]');
    expect(node(ws, 'daily/2026-01-06.md').data['body-hash']).toBe(recorded);
    expect(r.reredacted?.redacted).toContain('daily/2026-01-06.md');
    // Its fixed week follows the edit, as always, from the redacted text.
    expect(ws.read('memory/weekly/2026-W02.md')).toContain('about [REDACTED:custom-1]');
    expect(ws.files('memory').some((f) => f.startsWith('memory/edits/'))).toBe(false);
  });

  it('a node an older hipo wrote, holding what the built-in rules now find, is redacted on the next run', async () => {
    // As an upgrade finds it: no rules recorded, and a fixed node written before the rule existed.
    const ws = tree();
    await cycle(ws, '2026-03-20', { catchUp: true });
    const rel = 'daily/2026-01-07.md';
    const before = splitFrontmatter(ws.read(`memory/${rel}`));
    const body = `${before.body}- the wifi password at home is Tr0ub4dor&3\n`;
    const old = renderNodeFile({
      period: { level: 'daily', date: '2026-01-07' },
      status: 'fixed',
      sourceFiles: ['memory/2026-01-07.md'],
      topics: [],
      summarizer: 'copy',
      sourceHash: String(before.data!['source-hash']),
      body: body.replace(/^\n/, ''),
    });
    ws.write(`memory/${rel}`, old.text);
    ws.write('.hipo/redaction.json', JSON.stringify({ nodes: 'rules-of-an-older-hipo' }));
    const r = await cycle(ws, '2026-03-20');
    expect(r.reredacted?.redacted).toContain(rel);
    expect(ws.read(`memory/${rel}`)).toContain('the wifi password at home is [REDACTED:password]');
    expect(JSON.parse(ws.read('.hipo/redaction.json'))).toMatchObject({ nodes: new Redactor().rulesKey });
  });

  it("ROOT redacted by newer built-in rules records its body's token count as redacted", async () => {
    // An upgrade's rules do not change ROOT's settings: it is redacted, not built again, and its
    // `tokens` must count the body it now has (a GitHub token is many tokens, its tag a few).
    const ws = tree();
    await cycle(ws, '2026-03-20', { catchUp: true });
    const count = await loadTokenCounter();
    const before = splitFrontmatter(ws.read('memory/ROOT.md'));
    const text = `${before.body.replace(/^\n/, '')}- deploy with ghp_x7Kq2Lm9Pz4Rt8Vw3Yb6Nc1Df5Gh0Jk2Mn4P\n`;
    const hash = String(before.data!['body-hash']);
    const old = ws
      .read('memory/ROOT.md')
      .replace(before.body, `\n${text}`)
      .replace(/^tokens: \d+$/m, `tokens: ${count(text)}`)
      .replace(hash, bodyHashOf(`\n${text}`));
    ws.write('memory/ROOT.md', old);
    ws.write('.hipo/redaction.json', JSON.stringify({ nodes: 'rules-of-an-older-hipo' }));
    const r = await cycle(ws, '2026-03-20');
    expect(r.reredacted?.redacted).toContain('ROOT.md');
    expect(r.applied).toEqual([]);
    const after = splitFrontmatter(ws.read('memory/ROOT.md'));
    expect(after.body).toContain('- deploy with [REDACTED:');
    expect(count(after.body.replace(/^\n/, ''))).toBeLessThan(count(text));
    expect(after.data!.tokens).toBe(count(after.body.replace(/^\n/, '')));
  });
});

describe('a hash line written again', () => {
  it('is quoted where its new hash reads as a number in YAML, as hipo writes it', () => {
    // A week of a generated 10-year tree was given such a hash, unquoted: read back as a number,
    // it no longer matched its days, and the week was summarized again.
    const head = '---\ntype: weekly\nsource-hash: c0ffee0123456789\nbody-hash: "0a1b2c3d4e5f6a7b"\n---\n';
    const moved = withHash(head, 'source-hash', 'c0ffee0123456789', '9158354825e78068');
    expect(moved).toBe(head.replace('c0ffee0123456789', '"9158354825e78068"'));
    expect(splitFrontmatter(`${moved}\nbody\n`).data!['source-hash']).toBe('9158354825e78068');
    expect(withHash(moved, 'source-hash', '9158354825e78068', 'c0ffee0123456789')).toBe(head);
    expect(() => withHash(head, 'body-hash', 'ffffffffffffffff', '0000000000000001')).toThrow(/body-hash/);
  });
});

describe('the digest of the rules in force', () => {
  it('is made of the built-in rules and the workspace patterns: an upgrade changes it as a pattern does', () => {
    const none = new Redactor();
    const withPattern = new Redactor([PATTERN]);
    expect(none.rulesKey).toBe(rulesDigest(builtinRulesKey(), none.patternsKey));
    expect(withPattern.rulesKey).toBe(rulesDigest(builtinRulesKey(), withPattern.patternsKey));
    expect(withPattern.rulesKey).not.toBe(none.rulesKey);
    expect(rulesDigest('built-in rules of another hipo', none.patternsKey)).not.toBe(none.rulesKey);
  });

  it('is what a compaction records, and what the index records', async () => {
    const ws = tree();
    await cycle(ws, '2026-03-20', { catchUp: true });
    expect(JSON.parse(ws.read('.hipo/redaction.json'))).toEqual({ nodes: new Redactor().rulesKey, state: new Redactor().rulesKey });
    const index = indexOf(ws, { embedder: null });
    await updateIndex(index);
    expect(index.db.prepare("SELECT value FROM meta WHERE key = 'redaction'").pluck().get()).toBe(new Redactor().rulesKey);
  });
});
