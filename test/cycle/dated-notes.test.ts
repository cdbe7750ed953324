// A day's raw log may be several files: `2026-06-02.md` and dated notes beside it, as OpenClaw's
// session-memory hook writes on `/new` (`2026-06-02-vendor-pitch.md`). One daily node holds them.
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StampCache } from '../../src/state/stamp-cache.js';
import { dayParts } from '../../src/tree/raw-day.js';
import { rescanTree, scanTree } from '../../src/tree/scan.js';
import { listIndexableFiles } from '../../src/index/files.js';
import { cycle, node, rawLog, rawLogHashes, sessionPack } from '../helpers/tree.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

// The shape OpenClaw's bundled session-memory hook writes.
const openclawNote = [
  '# Session: 2026-06-02 14:30:00 UTC',
  '',
  '- **Session Key**: agent:main:main',
  '- **Session ID**: abc123def456',
  '- **Source**: telegram',
  '',
  '## Conversation Summary',
  '',
  'user: the vendor Acme quoted 40k for the search migration',
  'assistant: that is under the budget Carol set',
  '',
].join('\n');

describe('dated notes beside a raw log', () => {
  it('are part of their day: its daily node, week, month and ROOT hold them', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-02.md': rawLog('2026-06-02', { 'billing cron [project]': ['moved to 03:00'] }),
      'memory/2026-06-02-vendor-pitch.md': openclawNote,
    });
    const before = rawLogHashes(ws);
    expect(Object.keys(before)).toEqual(['memory/2026-06-02-vendor-pitch.md', 'memory/2026-06-02.md']);
    await cycle(ws, '2026-06-03', { catchUp: true });
    const daily = node(ws, 'daily/2026-06-02.md');
    expect(daily.data['source-files']).toEqual(['memory/2026-06-02.md', 'memory/2026-06-02-vendor-pitch.md']);
    // The main log first, then the note under its file name, its headings below that.
    expect(daily.body.indexOf('- moved to 03:00')).toBeLessThan(daily.body.indexOf('## 2026-06-02-vendor-pitch.md'));
    expect(daily.body).toContain('### Session: 2026-06-02 14:30:00 UTC');
    expect(daily.body).toContain('[raw log](../2026-06-02.md) · [2026-06-02-vendor-pitch](../2026-06-02-vendor-pitch.md)');
    expect(node(ws, 'weekly/2026-W23.md').body).toContain('the vendor Acme quoted 40k for the search migration');
    expect(ws.read('memory/ROOT.md')).toMatch(/vendor|acme/i);
    expect(rawLogHashes(ws)).toEqual(before);
  });

  it('are named by what was said, and read well in the SessionStart pack', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-02-1430.md': openclawNote });
    await cycle(ws, '2026-06-02', { catchUp: true });
    // Neither the note's kind of text nor a heading is a topic or a line of Active Context.
    const topics = node(ws, 'daily/2026-06-02.md').data.topics as string[];
    expect(topics.join('\n')).not.toMatch(/conversation|summary|session|key|telegram/i);
    expect(topics.join('\n')).toMatch(/vendor|acme|migration/i);
    expect(ws.read('memory/ROOT.md')).not.toContain('Conversation Summary');
    const pack = sessionPack(ws, '2026-06-02');
    // A daily copy without a title of its own: named by its day, its links line left out.
    expect(pack.text).toContain('## 2026-06-02 · daily/2026-06-02.md');
    expect(pack.text).not.toContain('Sources: [');
    expect(pack.text).toContain('user: the vendor Acme quoted 40k for the search migration');
  });

  it('reach the SessionStart pack on their own day, beside the latest entries of the main log', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-02.md': rawLog('2026-06-02', { 'billing cron [project]': ['moved to 03:00'] }),
      'memory/2026-06-02-vendor-pitch.md': openclawNote,
    });
    await cycle(ws, '2026-06-02', { catchUp: true });
    const pack = sessionPack(ws, '2026-06-02');
    expect(pack.text).toContain('## Latest entries · 2026-06-02.md');
    // The latest entries are the main log's; the day's node, which holds the note, comes too.
    const daily = pack.parts.find((p) => p.path === 'daily/2026-06-02.md');
    expect(daily?.text).toContain('the vendor Acme quoted 40k for the search migration');
  });

  it('make a day of their own when the day has no main log', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-02-1430.md': openclawNote });
    await cycle(ws, '2026-06-03', { catchUp: true });
    expect(node(ws, 'daily/2026-06-02.md').data['source-files']).toEqual(['memory/2026-06-02-1430.md']);
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('the vendor Acme quoted 40k');
  });

  it('a note added, changed or deleted later rebuilds the day; a day of one file keeps its hash', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-02.md': rawLog('2026-06-02', { 'billing cron [project]': ['moved to 03:00'] }) });
    await cycle(ws, '2026-06-02', { catchUp: true });
    const alone = node(ws, 'daily/2026-06-02.md').data['source-hash'];
    ws.write('memory/2026-06-02-standup.md', '# Standup\n\n- Carol presents the latency win on Monday\n');
    let r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(r.written).toContain('daily/2026-06-02.md');
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('Carol presents the latency win');
    ws.write('memory/2026-06-02-standup.md', '# Standup\n\n- Dave presents instead\n');
    r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('Dave presents instead');
    rmSync(join(ws.root, 'memory/2026-06-02-standup.md'));
    r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(r.written).toContain('daily/2026-06-02.md');
    expect(node(ws, 'daily/2026-06-02.md').body).not.toContain('presents');
    expect(node(ws, 'daily/2026-06-02.md').data['source-hash']).toBe(alone);
  });

  it('a note added to a fixed day edited by hand is named with the day’s files, not as a change to the main log', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-02.md': rawLog('2026-06-02', { 'billing cron [project]': ['moved to 03:00'] }) });
    await cycle(ws, '2026-06-04', { catchUp: true });
    ws.write('memory/daily/2026-06-02.md', `${ws.read('memory/daily/2026-06-02.md')}\n- my own note\n`);
    ws.write('memory/2026-06-02-standup.md', '# Standup\n\n- Carol presents the latency win on Monday\n');
    const r = await cycle(ws, '2026-06-04', { catchUp: true });
    expect(r.remaining.attention).toEqual([
      {
        relPath: 'daily/2026-06-02.md',
        message:
          'the raw logs of its day (2026-06-02.md, 2026-06-02-standup.md) changed after this fixed node was edited by hand; ' +
          'not rewritten (delete the node to rebuild it)',
      },
    ]);
  });

  it('a raw log renamed is followed: its daily node names and links the file as it is now', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-02.md': rawLog('2026-06-02', { 'billing cron [project]': ['moved to 03:00'] }),
      'memory/2026-06-10.md': rawLog('2026-06-10', { 'standup [project]': ['Carol presents on Monday'] }),
    });
    await cycle(ws, '2026-06-10', { catchUp: true });
    const hash = node(ws, 'daily/2026-06-02.md').data['source-hash'];
    const contents = Object.values(rawLogHashes(ws)).sort();
    const renamed = async (from: string, to: string) => {
      renameSync(join(ws.memoryDir, from), join(ws.memoryDir, to));
      const r = await cycle(ws, '2026-06-10', { catchUp: true });
      expect(r.warnings).toEqual([]);
      return r;
    };
    const r = await renamed('2026-06-02.md', '2026-06-02-bank.md');
    await renamed('2026-06-10.md', '2026-06-10-standup.md');
    expect(r.written).toContain('daily/2026-06-02.md');
    const fixed = node(ws, 'daily/2026-06-02.md');
    expect(fixed.data.status).toBe('fixed');
    expect(fixed.data['source-files']).toEqual(['memory/2026-06-02-bank.md']);
    expect(fixed.body).toContain('Sources: [2026-06-02-bank](../2026-06-02-bank.md)');
    expect(fixed.body).not.toContain('(../2026-06-02.md)');
    expect(node(ws, 'daily/2026-06-10.md').body).toContain('Sources: [2026-06-10-standup](../2026-06-10-standup.md)');
    // From one note's name to another's, and back to the main log's: the day's hash is its content's.
    await renamed('2026-06-02-bank.md', '2026-06-02-money.md');
    expect(node(ws, 'daily/2026-06-02.md').data['source-files']).toEqual(['memory/2026-06-02-money.md']);
    await renamed('2026-06-02-money.md', '2026-06-02.md');
    const back = node(ws, 'daily/2026-06-02.md');
    expect(back.data['source-files']).toEqual(['memory/2026-06-02.md']);
    expect(back.body).toContain('Sources: [raw log](../2026-06-02.md)');
    expect(back.data['source-hash']).toBe(hash);
    expect((await cycle(ws, '2026-06-10', { catchUp: true })).written).toEqual([]);
    expect(Object.values(rawLogHashes(ws)).sort()).toEqual(contents);
  });

  it('a rescan of one file keeps the day’s other files', () => {
    const ws = makeWorkspace({
      'memory/2026-06-02.md': rawLog('2026-06-02', { 'billing cron [project]': ['moved to 03:00'] }),
      'memory/2026-06-02-vendor-pitch.md': openclawNote,
    });
    const cache = StampCache.empty();
    const { snapshot } = scanTree(ws, cache);
    const files = (s: typeof snapshot) => dayParts(s.raws.get('2026-06-02')!).map((p) => p.relPath);
    expect(files(snapshot)).toEqual(['2026-06-02.md', '2026-06-02-vendor-pitch.md']);
    ws.write('memory/2026-06-02-vendor-pitch.md', `${openclawNote}user: and 5k a year for support\n`);
    const changed = rescanTree(ws, cache, snapshot, ['2026-06-02-vendor-pitch.md']).snapshot;
    expect(files(changed)).toEqual(['2026-06-02.md', '2026-06-02-vendor-pitch.md']);
    expect(changed.raws.get('2026-06-02')!.hash).not.toBe(snapshot.raws.get('2026-06-02')!.hash);
    rmSync(join(ws.root, 'memory/2026-06-02.md'));
    const gone = rescanTree(ws, cache, changed, ['2026-06-02.md']).snapshot;
    expect(files(gone)).toEqual(['2026-06-02-vendor-pitch.md']);
  });

  it('a rescan reports a note named with a secret once, and takes it in once it is renamed', () => {
    const secretName = '2026-06-02-ghp_R8mZ2qW7xK4vN1tY6pB3sD9fH5jL0cG2aE7u.md';
    const ws = makeWorkspace({ 'memory/2026-06-02.md': rawLog('2026-06-02', { 'billing cron [project]': ['moved to 03:00'] }) });
    ws.write(`memory/${secretName}`, openclawNote);
    const cache = StampCache.empty();
    const { snapshot } = scanTree(ws, cache);
    const files = (s: typeof snapshot) => dayParts(s.raws.get('2026-06-02')!).map((p) => p.relPath);
    const shown = (s: typeof snapshot) => s.problems.map((p) => p.file);
    expect(files(snapshot)).toEqual(['2026-06-02.md']);
    expect(shown(snapshot)).toEqual(['memory/2026-06-02-[REDACTED:github-token].md']);
    ws.write(`memory/${secretName}`, `${openclawNote}user: and 5k a year for support\n`);
    const again = rescanTree(ws, cache, snapshot, [secretName]).snapshot;
    expect(shown(again)).toEqual(['memory/2026-06-02-[REDACTED:github-token].md']);
    renameSync(join(ws.memoryDir, secretName), join(ws.memoryDir, '2026-06-02-vendor-pitch.md'));
    const renamed = rescanTree(ws, cache, again, [secretName, '2026-06-02-vendor-pitch.md']).snapshot;
    expect(shown(renamed)).toEqual([]);
    expect(files(renamed)).toEqual(['2026-06-02.md', '2026-06-02-vendor-pitch.md']);
  });

  it('are searched as raw logs of their day; a dated name that is no date is skipped with a warning', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-02-vendor-pitch.md': openclawNote, 'memory/2026-02-30-standup.md': '- x\n' });
    const listed = listIndexableFiles(ws, []).files.find((f) => f.path === 'memory/2026-06-02-vendor-pitch.md');
    expect(listed).toMatchObject({ level: 'raw', period: { start: '2026-06-02', end: '2026-06-02' } });
    const r = await cycle(ws, '2026-06-03', { catchUp: true });
    expect(r.problems.map((p) => `${p.file}: ${p.message}`)).toContain(
      'memory/2026-02-30-standup.md: skipped: "2026-02-30" is not a calendar date',
    );
  });

  it('a dated note whose name holds a secret is not compacted nor indexed; it is named redacted, the rest goes on', () => {
    const token = 'ghp_R8mZ2qW7xK4vN1tY6pB3sD9fH5jL0cG2aE7u';
    const badge = 'ACME-418273';
    const ws = makeWorkspace(
      {
        'memory/2026-06-01.md': rawLog('2026-06-01', { 'billing cron [project]': ['moved to 03:00'] }),
        'memory/2026-06-02.md': rawLog('2026-06-02', { 'search migration [project]': ['the vendor quoted 40k'] }),
        [`memory/2026-06-02-${token}.md`]: rawLog('2026-06-02', { 'token [project]': ['pushed the release branch'] }),
        [`memory/2026-06-03-${badge}.md`]: openclawNote,
      },
      { timeZone: 'UTC', redactPatterns: ['ACME-[0-9]{6}'], search: { autoIndex: true } },
    );
    const r = runCli(['compact', '--catch-up', '--now', '2026-06-04', '--dir', ws.root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('memory/2026-06-02-[REDACTED:github-token].md: skipped: its name holds a secret');
    expect(r.stdout).toContain('memory/2026-06-03-[REDACTED:custom-1].md: skipped: its name holds a secret');
    expect(r.stdout).toContain('rename the file');
    // The other logs are compacted, the secret's day from its other file.
    expect(node(ws, 'daily/2026-06-01.md').body).toContain('moved to 03:00');
    expect(node(ws, 'daily/2026-06-02.md').data['source-files']).toEqual(['memory/2026-06-02.md']);
    expect(ws.exists('memory/daily/2026-06-03.md')).toBe(false);
    expect(ws.read('memory/ROOT.md')).toMatch(/vendor/);
    // Nothing hipo wrote holds either name: nodes, the SQLite index, caches and journal.
    const planted = new Set([`memory/2026-06-02-${token}.md`, `memory/2026-06-03-${badge}.md`]);
    const written = [...ws.files('memory').filter((f) => !planted.has(f)), ...ws.files('.hipo')];
    expect(written).toContain('memory/daily/2026-06-02.md');
    expect(written).toContain('.hipo/index.db');
    for (const f of written) {
      const bytes = readFileSync(join(ws.root, f)).toString('latin1');
      expect({ f, token: bytes.includes(token.slice(4)), badge: bytes.includes(badge) }).toEqual({ f, token: false, badge: false });
    }
    const search = runCli(['search', 'release branch', '--dir', ws.root, '--now', '2026-06-04']);
    expect(search.stdout).not.toContain('2026-06-02-');
  });
});
