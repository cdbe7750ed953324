// Bad input gets a clear warning naming the file; nothing is lost; the rest of the work goes on.
import { chmodSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapped } from '../../src/tree/capped.js';
import { appendRawEntry } from '../../src/write/raw-append.js';
import { aliasBomb, cycle, node, rawLog, statusOf } from '../helpers/tree.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

const good = rawLog('2026-06-01', { 'good day [project]': ['decided to ship the parser'] });
const warningsOf = (r: Awaited<ReturnType<typeof cycle>>) => r.problems.map((p) => `${p.file}: ${p.message}`);

describe('bad raw logs', () => {
  it('skips a raw log named for a date that does not exist, and says which', async () => {
    const ws = makeWorkspace({ 'memory/2026-02-30.md': '# not a day\n- x\n', 'memory/2026-06-01.md': good });
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(warningsOf(r)).toContain('memory/2026-02-30.md: skipped: "2026-02-30" is not a calendar date');
    expect(statusOf(ws, 'daily/2026-06-01.md')).toBe('fixed');
    expect(ws.exists('memory/ROOT.md')).toBe(true);
  });

  it('builds the tree of a log dated in the years 0000-0099, and says why 0000-01-01 is none', async () => {
    const ws = makeWorkspace({
      'memory/0050-06-15.md': rawLog('0050-06-15', { 'garden shed [project]': ['poured the concrete base'] }),
      'memory/0000-01-01.md': rawLog('0000-01-01', { 'new year [project]': ['year one'] }),
    });
    const r = await cycle(ws, '2026-11-26', { catchUp: true });
    expect(warningsOf(r)).toContain(
      'memory/0000-01-01.md: skipped: "0000-01-01" falls in an ISO week of year -1, which no weekly node can name',
    );
    expect(ws.read('memory/daily/0050-06-15.md')).toContain('Up: [0050-W24](../weekly/0050-W24.md) · [0050-06](../monthly/0050-06.md)');
    expect(node(ws, 'weekly/0050-W24.md').body).toContain('poured the concrete base');
    expect(node(ws, 'monthly/0050-06.md').body).toContain('poured the concrete base');
    expect((await cycle(ws, '2026-11-26', { catchUp: true })).written).toEqual([]);
  });

  it('builds January 0000 from its first named week, and the other logs beside it', async () => {
    const ws = makeWorkspace({
      'memory/0000-01-03.md': rawLog('0000-01-03', { 'first monday [project]': ['typed the year as 0000'] }),
      'memory/2026-06-01.md': good,
    });
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(warningsOf(r)).toEqual([]);
    expect(node(ws, 'monthly/0000-01.md').body).toContain('typed the year as 0000');
    expect(node(ws, 'weekly/0000-W01.md').body).toContain('typed the year as 0000');
    expect(statusOf(ws, 'daily/2026-06-01.md')).toBe('fixed');
  });

  it('skips empty and binary files with a warning and builds the rest', async () => {
    const junk = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256);
    const ws = makeWorkspace({
      'memory/2026-06-01.md': good,
      'memory/2026-06-02.md': '',
      'memory/2026-06-03.md': '  \n\n',
      'memory/2026-06-04.md': junk,
    });
    const r = await cycle(ws, '2026-06-05', { catchUp: true });
    expect(warningsOf(r)).toEqual(
      expect.arrayContaining([
        'memory/2026-06-02.md: skipped: empty: nothing to compact',
        'memory/2026-06-03.md: skipped: empty: nothing to compact',
        'memory/2026-06-04.md: skipped: binary data (NUL bytes), not a text file',
      ]),
    );
    expect(ws.files('memory/daily')).toEqual(['memory/daily/2026-06-01.md']);
    expect(r.errors).toEqual([]);
  });

  it('reads a log a crash left a run of zeros in, entries before and after it, and says so', async () => {
    const before = rawLog('2026-06-01', { 'deploy [project]': ['shipped the parser'] });
    const ws = makeWorkspace({ 'memory/2026-06-01.md': Buffer.concat([Buffer.from(before), Buffer.alloc(4096)]) });
    // hipo log appends after the zeros, as it did after a power cut.
    expect(runCli(['log', 'rolled back the parser', '--topic', 'deploy', '--now', '2026-06-01T15:00:00Z', '--dir', ws.root]).code).toBe(0);
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(warningsOf(r)).toContain('memory/2026-06-01.md: 4096 NUL bytes left out (runs of zeros, as a crash can leave in a file)');
    const daily = node(ws, 'daily/2026-06-01.md').body;
    expect(daily).toContain('shipped the parser');
    expect(daily).toContain('rolled back the parser');
    expect(daily).not.toContain('\0');
  });

  it('says a link to nothing leads nowhere, not outside', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-10.md': good });
    symlinkSync('nonexist.md', join(ws.memoryDir, '2026-03-09.md'));
    const r = await cycle(ws, '2026-03-12', { catchUp: true });
    expect(warningsOf(r)).toContain('memory/2026-03-09.md: skipped: a link to nonexist.md, which does not exist');
    const idx = runCli(['index', '--json', '--dir', ws.root]);
    expect(JSON.parse(idx.stdout).warnings).toContain('memory/2026-03-09.md: skipped: a link to nonexist.md, which does not exist');
  });

  it('says a folder named like a raw log is not one, and hipo log appends nothing to it, naming it', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-10.md': good, 'memory/2026-03-11.md/notes.md': '- kept in a folder\n' });
    const r = await cycle(ws, '2026-03-12', { catchUp: true });
    expect(warningsOf(r)).toContain(
      'memory/2026-03-11.md: skipped: a folder named like a raw log; its files are not compacted (search finds them)',
    );
    expect(statusOf(ws, 'daily/2026-03-10.md')).toBe('fixed');
    const logged = runCli(['log', '--now', '2026-03-11', '--dir', ws.root, 'a note for the day']);
    expect(logged.code).toBe(1);
    expect(logged.stderr).toBe('hipo: memory/2026-03-11.md: a folder, not a file; nothing appended\n');
    expect(ws.files('memory/2026-03-11.md')).toEqual(['memory/2026-03-11.md/notes.md']);
  });

  it('says a link in a loop goes around in a loop, not outside: compact, index and hipo log', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-10.md': good });
    symlinkSync('2026-03-12.md', join(ws.memoryDir, '2026-03-11.md'));
    symlinkSync('2026-03-11.md', join(ws.memoryDir, '2026-03-12.md'));
    const r = await cycle(ws, '2026-03-12', { catchUp: true });
    expect(warningsOf(r)).toContain('memory/2026-03-11.md: skipped: a link to 2026-03-12.md, which leads around in a loop');
    expect(statusOf(ws, 'daily/2026-03-10.md')).toBe('fixed');
    const idx = runCli(['index', '--json', '--dir', ws.root]);
    expect(JSON.parse(idx.stdout).warnings).toContain(
      'memory/2026-03-12.md: skipped: a link to 2026-03-11.md, which leads around in a loop',
    );
    const logged = runCli(['log', '--now', '2026-03-11', '--dir', ws.root, 'a note for the day']);
    expect(logged.stderr).toBe(
      'hipo: memory/2026-03-11.md: a link to 2026-03-12.md, which leads around in a loop; hipo neither reads nor writes through it\n',
    );
  });

  it('says why a file cannot be opened', () => {
    expect(() => readCapped(join(tmpdir(), 'hipo-no-such-file.md'), 1024)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  // Root reads any file, whatever its mode.
  it.skipIf(process.getuid?.() === 0)(
    `says an unreadable raw log is unreadable${process.getuid?.() === 0 ? ' (skipped: running as root)' : ''}`,
    async () => {
      const ws = makeWorkspace({ 'memory/2026-03-10.md': good, 'memory/2026-03-11.md': good });
      chmodSync(join(ws.memoryDir, '2026-03-11.md'), 0o000);
      const r = await cycle(ws, '2026-03-12', { catchUp: true });
      chmodSync(join(ws.memoryDir, '2026-03-11.md'), 0o644);
      expect(warningsOf(r)).toContain('memory/2026-03-11.md: skipped: cannot be read (EACCES)');
    },
  );

  it('reads a raw log with broken frontmatter as plain text and says so', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-01.md': '---\ntags: [a, b\n---\n# 2026-06-01\n\n## parser [project]\n- kept despite the broken header\n',
    });
    const r = await cycle(ws, '2026-06-01');
    expect(warningsOf(r).join('\n')).toMatch(/memory\/2026-06-01\.md: malformed frontmatter \(.*\); read as plain text/);
    expect(node(ws, 'daily/2026-06-01.md').body).toContain('kept despite the broken header');
  });

  it('reads a raw log whose frontmatter aliases expand to billions of values as plain text, in bounded memory', () => {
    const ws = makeWorkspace({
      'memory/2026-06-01.md': `---\n${aliasBomb(10)}---\n# 2026-06-01\n\n## parser [project]\n- kept beside the bomb\n`,
    });
    // Copying the aliases took gigabytes: a small heap and a deadline make that a failure, not a hang.
    const r = runCli(['compact', '--now', '2026-06-02', '--dir', ws.root], {
      env: { NODE_OPTIONS: '--max-old-space-size=256' },
      timeoutMs: 30_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /memory\/2026-06-01\.md: frontmatter too large: its aliases expand to more than \d+ values; read as plain text/,
    );
    expect(node(ws, 'daily/2026-06-01.md').body).toContain('kept beside the bomb');
  }, 60_000);

  it('reads CRLF logs, and non-UTF-8 logs as Latin-1 without losing a byte of meaning', async () => {
    const latin1 = Buffer.from('# 2026-06-02\n\n## café [user]\n- prefers crème brûlée\n', 'latin1');
    const ws = makeWorkspace({ 'memory/2026-06-01.md': good.replace(/\n/g, '\r\n'), 'memory/2026-06-02.md': latin1 });
    const r = await cycle(ws, '2026-06-03', { catchUp: true });
    expect(warningsOf(r)).toContain('memory/2026-06-02.md: not valid UTF-8; read as Latin-1');
    expect(node(ws, 'daily/2026-06-02.md').body).toContain('prefers crème brûlée');
    expect(node(ws, 'daily/2026-06-02.md').data.topics).toEqual(['café [user]']);
    const crlf = node(ws, 'daily/2026-06-01.md').body;
    expect(crlf).toContain('decided to ship the parser');
    expect(crlf).not.toContain('\r');
  });

  it('reads a Latin-1 log that hipo appended to line by line: its own lines as Latin-1, the appended entries as UTF-8', async () => {
    const latin1 = Buffer.from('# 2026-06-02\n\n## café [user]\n- prefers crème brûlée\n', 'latin1');
    const ws = makeWorkspace({ 'memory/2026-06-02.md': latin1 });
    appendRawEntry(ws, '2026-06-02' as never, '## dessert [user] · 13:00\n- ordered the crème brûlée 🍮 twice\n');
    const r = await cycle(ws, '2026-06-03', { catchUp: true });
    expect(warningsOf(r)).toContain('memory/2026-06-02.md: 2 lines not valid UTF-8, read as Latin-1');
    const body = node(ws, 'daily/2026-06-02.md').body;
    expect(body).toContain('prefers crème brûlée');
    expect(body).toContain('ordered the crème brûlée 🍮 twice');
    expect(node(ws, 'daily/2026-06-02.md').data.topics).toEqual(['café [user]', 'dessert [user]']);
  });

  it('reads a UTF-16 log by its byte order mark, either byte order, and says so', async () => {
    const text = (day: string) => `# ${day}\n\n## café [user]\n- prefers crème brûlée 🍮\n- 東京に住んでいます\n`;
    const le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
    const ws = makeWorkspace({
      'memory/2026-06-02.md': le(text('2026-06-02')),
      'memory/2026-06-03.md': le(text('2026-06-03')).swap16(),
      // Without the mark, UTF-16 is not told from binary.
      'memory/2026-06-04.md': Buffer.from(text('2026-06-04'), 'utf16le'),
    });
    const r = await cycle(ws, '2026-06-05', { catchUp: true });
    expect(warningsOf(r)).toEqual(
      expect.arrayContaining([
        'memory/2026-06-02.md: UTF-16 LE, not UTF-8; read as UTF-16',
        'memory/2026-06-03.md: UTF-16 BE, not UTF-8; read as UTF-16',
        'memory/2026-06-04.md: skipped: binary data (NUL bytes), not a text file',
      ]),
    );
    for (const day of ['2026-06-02', '2026-06-03']) {
      const daily = node(ws, `daily/${day}.md`);
      expect(daily.body).toContain('prefers crème brûlée 🍮');
      expect(daily.body).toContain('東京に住んでいます');
      expect(daily.data.topics).toEqual(['café [user]']);
    }
    expect(ws.exists('memory/daily/2026-06-04.md')).toBe(false);
  });

  it('reads a UTF-8 log with a few broken bytes as UTF-8, not as Latin-1', async () => {
    // A write cut in the middle of a character: the rest of the file is good UTF-8.
    const text = Buffer.from('# 2026-06-02\n\n## café [user]\n- prefers crème brûlée 🍮\n- 東京に住んでいます\n- cut here é', 'utf8');
    const ws = makeWorkspace({ 'memory/2026-06-02.md': text.subarray(0, text.length - 1) });
    const r = await cycle(ws, '2026-06-03', { catchUp: true });
    expect(warningsOf(r)).toContain('memory/2026-06-02.md: 1 byte sequence not valid UTF-8, read as "\uFFFD"');
    const body = node(ws, 'daily/2026-06-02.md').body;
    expect(body).toContain('prefers crème brûlée 🍮');
    expect(body).toContain('東京に住んでいます');
  });

  it('does not read "status: fixed" or "needs-summarization" in a log as a status (pitfall 6)', async () => {
    const tricky = rawLog('2026-06-10', { 'notes [project]': ['status: fixed', 'the old tool wrote needs-summarization placeholders'] });
    const ws = makeWorkspace({ 'memory/2026-06-10.md': tricky });
    await cycle(ws, '2026-06-10');
    expect(statusOf(ws, 'daily/2026-06-10.md')).toBe('tentative');
    expect(node(ws, 'weekly/2026-W24.md').body).toContain('needs-summarization placeholders');
  });

  it('builds ROOT from logs that quote model special tokens like <|endoftext|>', async () => {
    const ws = makeWorkspace();
    ws.write(
      'memory/2026-03-10.md',
      rawLog('2026-03-10', { 'tokenizer notes [project]': ['decided: strip <|endoftext|> and <|im_start|> from prompts'] }),
    );
    const r = await cycle(ws, '2026-03-11', { catchUp: true });
    expect(r.errors).toEqual([]);
    expect(ws.read('memory/ROOT.md')).toContain('<|endoftext|>');
    expect(Number(node(ws, 'ROOT.md').data.tokens)).toBeGreaterThan(0);
  });

  it('compacts a 50 MB raw log into a bounded node', async () => {
    const session = (i: number) =>
      `## Session ${i}\nSession Date: 2026-06-01\n\nUser: I moved my build cache to /srv/cache-${i} because the disk filled up.\nAssistant: ${'That works; consider pruning old entries weekly. '.repeat(40)}\n\n`;
    const parts = ['# 2026-06-01\n\n'];
    let size = 0;
    for (let i = 0; size < 50 * 1024 * 1024; i++) {
      const s = session(i);
      parts.push(s);
      size += s.length;
    }
    const ws = makeWorkspace({ 'memory/2026-06-01.md': parts.join('') });
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(r.errors).toEqual([]);
    const daily = ws.read('memory/daily/2026-06-01.md');
    expect(daily.length).toBeLessThan(200 * 1024);
    expect(node(ws, 'daily/2026-06-01.md').data.summarizer).toBe('extractive');
    expect(daily).toContain('/srv/cache-');
  }, 120_000);
});

describe('bad and foreign nodes', () => {
  it('never rewrites a node with malformed frontmatter, and flags it', async () => {
    const broken = '---\ntype: daily\nstatus: [fixed\n---\nmy hand-written notes\n';
    const ws = makeWorkspace({ 'memory/2026-06-01.md': good, 'memory/daily/2026-06-01.md': broken });
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(ws.read('memory/daily/2026-06-01.md')).toBe(broken);
    expect(r.remaining.attention[0]).toMatchObject({ relPath: 'daily/2026-06-01.md' });
    expect(r.remaining.attention[0]!.message).toMatch(/malformed frontmatter/);
    // The week above it is still built, from the node as it stands.
    expect(node(ws, 'weekly/2026-W23.md').body).toContain('my hand-written notes');
  });

  it('never rewrites a node whose frontmatter aliases expand too far, and flags it', async () => {
    const bomb = `---\ntype: daily\nstatus: tentative\n${aliasBomb(6)}---\nmy hand-written notes\n`;
    const ws = makeWorkspace({ 'memory/2026-06-01.md': good, 'memory/daily/2026-06-01.md': bomb });
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(ws.read('memory/daily/2026-06-01.md')).toBe(bomb);
    expect(r.remaining.attention[0]).toMatchObject({ relPath: 'daily/2026-06-01.md' });
    expect(r.remaining.attention[0]!.message).toMatch(/frontmatter too large: its aliases expand to more than \d+ values/);
  });

  it('says a file that stands where hipo needs a folder is one, leaves it, and writes the rest', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': good, 'memory/weekly': 'my weekly notes\n' });
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(r.errors).toContain('memory/weekly/2026-W23.md: memory/weekly: a file, where hipo needs a folder; nothing is written in it');
    expect(statusOf(ws, 'daily/2026-06-01.md')).toBe('fixed');
    expect(ws.read('memory/weekly')).toBe('my weekly notes\n');
    // In compact's output the reason the node was due follows the error after a dash.
    const out = runCli(['compact', '--now', '2026-06-02T12:00:00Z', '--dir', ws.root]).stdout;
    expect(out).toMatch(/FAILED: memory\/weekly: a file, where hipo needs a folder; nothing is written in it — \S/);

    // A node written by hand is kept under edits/ before it is replaced: not while edits is a file.
    const edits = makeWorkspace({ 'memory/2026-06-01.md': good, 'memory/daily/2026-06-01.md': '# by hand\n', 'memory/edits': 'mine\n' });
    const e = await cycle(edits, '2026-06-02', { catchUp: true });
    expect(e.errors).toContain('memory/daily/2026-06-01.md: memory/edits: a file, where hipo needs a folder; nothing is written in it');
    expect(edits.read('memory/daily/2026-06-01.md')).toBe('# by hand\n');
    expect(edits.read('memory/edits')).toBe('mine\n');
  });

  it('tries a node that could not be written once a run, and its parents wait for it', async () => {
    const days = Object.fromEntries(['01', '02', '03', '04'].map((d) => [`memory/2026-06-${d}.md`, good]));
    const ws = makeWorkspace({ ...days, 'memory/weekly': 'my weekly notes\n' });
    const r = await cycle(ws, '2026-06-10', { catchUp: true });
    // Four days, four cycles: the week was tried in the first, and said once.
    expect(ws.files('memory/daily')).toHaveLength(4);
    expect(r.errors).toEqual(['memory/weekly/2026-W23.md: memory/weekly: a file, where hipo needs a folder; nothing is written in it']);
    expect(ws.exists('memory/monthly/2026-06.md')).toBe(false);
    // The next run tries it again: the file is gone now.
    rmSync(join(ws.memoryDir, 'weekly'));
    const again = await cycle(ws, '2026-06-10', { catchUp: true });
    expect(again.errors).toEqual([]);
    expect(ws.exists('memory/weekly/2026-W23.md')).toBe(true);
    expect(ws.exists('memory/monthly/2026-06.md')).toBe(true);
  });

  it('replaces a hipocampus "needs-summarization" placeholder and keeps a backup of it', async () => {
    const placeholder =
      '---\ntype: daily\nstatus: needs-summarization\nperiod: 2026-06-01\nlines: 250\n---\n\nThis daily node exceeds 200 lines and needs LLM summarization.\n';
    const ws = makeWorkspace({ 'memory/2026-06-01.md': good, 'memory/daily/2026-06-01.md': placeholder });
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(r.applied[0]!.record).toMatchObject({ action: 'regenerate', node: 'memory/daily/2026-06-01.md' });
    expect(statusOf(ws, 'daily/2026-06-01.md')).toBe('fixed');
    expect(ws.read('.hipo/backup/daily/2026-06-01.md')).toBe(placeholder);
    // Another tool's placeholder holds nothing of the user's: kept out of the memory folder, quietly.
    expect(ws.files('memory/edits')).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('keeps a node written by hand under edits/ before replacing it, each time under a name of its own, and says where', async () => {
    const mine = 'my own notes on the day: Dana owns billing now\n';
    const ws = makeWorkspace({ 'memory/2026-06-01.md': good, 'memory/daily/2026-06-01.md': mine, 'memory/ROOT.md': 'MY ROOT NOTES\n' });
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    const savedDaily = 'memory/edits/daily/2026-06-01.edited-2026-06-02T12-00-00Z.md';
    const savedRoot = 'memory/edits/ROOT.edited-2026-06-02T12-00-00Z.md';
    expect(ws.read(savedDaily)).toBe(mine);
    expect(ws.read(savedRoot)).toBe('MY ROOT NOTES\n');
    expect(r.warnings).toContain(
      `memory/daily/2026-06-01.md: not written by hipo; replaced by a node made from its sources, the file as it was kept as ${savedDaily}`,
    );
    expect(r.warnings.join('\n')).toContain(`the file as it was kept as ${savedRoot}`);
    expect(r.applied.find((a) => a.record.node === 'memory/daily/2026-06-01.md')!.record.handEdit).toBe(savedDaily);
    expect(statusOf(ws, 'daily/2026-06-01.md')).toBe('fixed');
    // Again at the same path and instant: a second copy beside the first, which stays as it was.
    rmSync(join(ws.memoryDir, 'daily/2026-06-01.md'));
    ws.write('memory/daily/2026-06-01.md', 'second thoughts, also mine\n');
    const again = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(ws.read(savedDaily)).toBe(mine);
    expect(ws.read('memory/edits/daily/2026-06-01.edited-2026-06-02T12-00-00Z-2.md')).toBe('second thoughts, also mine\n');
    expect(again.warnings.join('\n')).toContain('kept as memory/edits/daily/2026-06-01.edited-2026-06-02T12-00-00Z-2.md');
    expect(ws.exists('.hipo/backup')).toBe(false);
  });

  it('replaces an empty node quietly: there is nothing in it to keep', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': good, 'memory/daily/2026-06-01.md': '\n  \n' });
    const old = new Date('2026-06-01T00:00:00Z');
    utimesSync(join(ws.memoryDir, 'daily/2026-06-01.md'), old, old);
    const r = await cycle(ws, '2026-06-02', { catchUp: true });
    expect(r.warnings).toEqual([]);
    expect(ws.files('memory/edits')).toEqual([]);
    expect(node(ws, 'daily/2026-06-01.md').body).toContain('decided to ship the parser');
  });

  it('keeps frontmatter out of node bodies: one block per node, whatever the sources carry', async () => {
    const withFm = '---\ntags: [travel]\n---\n# 2026-06-01\n\n## lisbon trip [project]\n- booked flights\n';
    const ws = makeWorkspace({
      'memory/2026-06-01.md': withFm,
      'memory/2026-06-02.md': rawLog('2026-06-02', { 'packing [project]': ['bought a bag'] }),
    });
    await cycle(ws, '2026-06-03', { catchUp: true });
    for (const rel of ['daily/2026-06-01.md', 'weekly/2026-W23.md', 'monthly/2026-06.md', 'ROOT.md']) {
      const text = ws.read(`memory/${rel}`);
      expect(
        text.split('\n').filter((l) => l === '---'),
        rel,
      ).toHaveLength(2);
      expect(text, rel).not.toContain('tags: [travel]');
    }
    expect(node(ws, 'weekly/2026-W23.md').body).toContain('booked flights');
  });
});

describe('raw logs with almost the right name', () => {
  it('are named in a warning with the name they probably meant, by compact and status, once each, and left as they are', () => {
    const log = rawLog('2026-11-20', { 'deploy [project]': ['shipped the parser'] });
    const misnamed = [
      '2026-11-2.md',
      '2026-11-20.MD',
      '2026_11_22.md',
      '20261123.md',
      '2026-11-24 (conflicted copy).md',
      '2026-11-19.md.md',
    ];
    const ws = makeWorkspace({
      ...Object.fromEntries(misnamed.map((n) => [`memory/${n}`, log])),
      'memory/2026-11-24.md': log,
      'memory/meeting-notes-2026.md': log,
      'memory/2026-11-25-standup.md': log,
    });
    const before = ws.hashes('memory');
    const expected = [
      'memory/2026-11-19.md.md: looks like a raw log but is not named YYYY-MM-DD.md (2026-11-19.md?): not compacted',
      'memory/2026-11-2.md: looks like a raw log but is not named YYYY-MM-DD.md (2026-11-02.md?): not compacted',
      'memory/2026-11-20.MD: looks like a raw log but is not named YYYY-MM-DD.md (2026-11-20.md?): not compacted',
      'memory/2026-11-24 (conflicted copy).md: looks like a raw log but is not named YYYY-MM-DD.md ' +
        '(a copy of 2026-11-24.md?): not compacted',
      'memory/20261123.md: looks like a raw log but is not named YYYY-MM-DD.md (2026-11-23.md?): not compacted',
      'memory/2026_11_22.md: looks like a raw log but is not named YYYY-MM-DD.md (2026-11-22.md?): not compacted',
    ];
    for (const cmd of [['compact', '--catch-up'], ['status']]) {
      const r = runCli([...cmd, '--now', '2026-11-27', '--dir', ws.root]);
      expect(r.code).toBe(0);
      const warnings = r.stdout.split('\n').flatMap((l) => (l.startsWith('  warning: ') ? [l.slice('  warning: '.length)] : []));
      expect({ cmd, warnings }).toEqual({ cmd, warnings: expected });
    }
    expect(ws.files('memory/daily')).toEqual(['memory/daily/2026-11-24.md', 'memory/daily/2026-11-25.md']);
    expect(Object.entries(ws.hashes('memory')).filter(([f]) => f in before)).toEqual(Object.entries(before));
  });

  it('a copy of a node a file manager or sync tool made is named as one, and left as it is', () => {
    const ws = makeWorkspace({ 'memory/2026-11-20.md': rawLog('2026-11-20', { 'deploy [project]': ['shipped the parser'] }) });
    expect(runCli(['compact', '--catch-up', '--now', '2026-11-27', '--dir', ws.root]).code).toBe(0);
    const copies = {
      'memory/daily/2026-11-20 (copy).md': ws.read('memory/daily/2026-11-20.md'),
      'memory/weekly/2026-W47.sync-conflict-20261127-101010-ABCDEFG.md': ws.read('memory/weekly/2026-W47.md'),
      'memory/ROOT (1).md': ws.read('memory/ROOT.md'),
      // A note of one's own in a node folder is no copy of anything.
      'memory/daily/ideas.md': '# ideas\n',
    };
    for (const [rel, text] of Object.entries(copies)) ws.write(rel, text);
    const r = runCli(['status', '--now', '2026-11-27', '--dir', ws.root]);
    const warnings = r.stdout.split('\n').filter((l) => l.startsWith('  warning: '));
    expect(warnings).toEqual([
      "  warning: memory/ROOT (1).md: looks like a copy of memory/ROOT.md: not one of hipo's nodes, left as it is " +
        '(search finds it beside the node)',
      '  warning: memory/daily/2026-11-20 (copy).md: looks like a copy of memory/daily/2026-11-20.md: ' +
        "not one of hipo's nodes, left as it is (search finds it beside the node)",
      '  warning: memory/weekly/2026-W47.sync-conflict-20261127-101010-ABCDEFG.md: looks like a copy of memory/weekly/2026-W47.md: ' +
        "not one of hipo's nodes, left as it is (search finds it beside the node)",
    ]);
    expect(runCli(['compact', '--catch-up', '--now', '2026-11-27', '--dir', ws.root]).stdout).toContain(
      '2026-11-20 (copy).md: looks like a copy',
    );
    for (const [rel, text] of Object.entries(copies)) expect(ws.read(rel)).toBe(text);
  });
});

describe('a memory folder laid out another way', () => {
  it('says that dated notes in subfolders are not raw logs, when the top holds none', async () => {
    const note = rawLog('2026-06-01', { 'deploy [project]': ['shipped the parser'] });
    const ws = makeWorkspace({ 'memory/2026/06/2026-06-01.md': note, 'memory/2026/06/2026-06-02.md': note, 'memory/2026/.hidden.md': 'x' });
    const r = await cycle(ws, '2026-06-03', { catchUp: true });
    expect(warningsOf(r)).toEqual([
      'memory/2026/06/2026-06-01.md: not read as a raw log (nor 1 more dated notes in subfolders): ' +
        'raw logs are read at the top of memory/ only, as memory/YYYY-MM-DD.md; search finds them where they are',
    ]);
    // With raw logs at the top, notes kept elsewhere are the user's business: nothing is said.
    ws.write('memory/2026-06-01.md', note);
    expect(warningsOf(await cycle(ws, '2026-06-03', { catchUp: true }))).toEqual([]);
  });
});
