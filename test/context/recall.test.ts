// `hipo recall`: ROOT's Topics Index, the nodes' topics, then the passages of the matching days.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, REPO, runCli } from '../helpers/workspace.js';
import { asideSession, cleaningAdvice, SHEDDING_DAYS, SUMMARIZE_SHORT_DAYS } from '../helpers/conversation.js';

function day(date: string, entries: string[]): string {
  return `# ${date}\n\n${entries.join('\n\n')}\n`;
}

describe('hipo recall', () => {
  it('finds an old decision through the topics index, with its file and line range, under the budget', () => {
    const files: Record<string, string> = {};
    const filler = (i: number) =>
      `## ui polish [project]\n- adjusted button padding on screen ${i}\n- reviewed colours for the settings page ${i}`;
    for (let d = 1; d <= 28; d++) {
      const date = `2026-01-${String(d).padStart(2, '0')}`;
      const entries = [filler(d)];
      if (d === 9)
        entries.push(
          '## session storage [project]\n- decided to keep sessions in Postgres instead of Redis because failover matters\n- Redis stays for rate limiting only',
        );
      files[`memory/${date}.md`] = day(date, entries);
    }
    for (let d = 1; d <= 20; d++) {
      const date = `2026-02-${String(d).padStart(2, '0')}`;
      files[`memory/${date}.md`] = day(date, [filler(100 + d)]);
    }
    const ws = makeWorkspace(files);
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-02-21']).code).toBe(0);
    const r = runCli([
      'recall',
      '--dir',
      ws.root,
      '--now',
      '2026-02-21',
      '--json',
      '--budget',
      '400',
      'where',
      'do',
      'we',
      'keep',
      'sessions',
      'and',
      'why?',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.topics[0]).toMatchObject({ name: 'session storage', latest: '2026-01-09' });
    expect(j.days).toContain('2026-01-09');
    const top = j.passages[0];
    expect(top.path).toMatch(/^memory\/(daily\/)?2026-01-09\.md$/);
    const lines = ws
      .read(top.path)
      .split('\n')
      .slice(top.from - 1, top.to);
    expect(lines.join('\n')).toContain('decided to keep sessions in Postgres');
    expect(top.text).toContain('because failover matters');
    expect(j.tokens).toBeLessThanOrEqual(400);
    // The index searched the whole tree too, and agreed on the top passage.
    expect(j.searched).toBe(true);
    expect(top.via).toContain('search');
    const manifestOnly = JSON.parse(
      runCli(['recall', '--dir', ws.root, '--now', '2026-02-21', '--json', '--no-search', 'sessions', 'postgres']).stdout,
    );
    expect(manifestOnly.searched).toBe(false);
    expect(manifestOnly.passages[0].via).toEqual(['topics']);
    const text = runCli(['recall', '--dir', ws.root, '--now', '2026-02-21', 'sessions', 'postgres']).stdout;
    expect(text).toMatch(/^# Recall · sessions postgres\n/);
    expect(text).toMatch(/## memory\/(daily\/)?2026-01-09\.md:\d+-\d+\n/);
  });

  it("brings what the user said of themselves elsewhere in a long conversation's section", () => {
    // A session long enough to be several chunks: the user's statement is at its top, the
    // lines the question matches at its end.
    const filler = Array.from(
      { length: 30 },
      (_, i) => `${i + 1}. Keep the herb garden watered in the morning and mulch the beds, tip ${i + 1}.`,
    );
    const ws = makeWorkspace({
      'memory/2026-03-02.md': asideSession([
        'Assistant: Here are garden tips first:',
        ...filler,
        'User: Thanks. Now the bedroom, how do I clean it?',
        'Assistant: Here is a cleaning plan for the bedroom:',
        ...cleaningAdvice(5),
      ]),
    });
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    const ask = ['recall', '--dir', ws.root, '--now', '2026-03-05', '--budget', '400', 'vacuum the carpet and empty the storage boxes'];
    const text = runCli(ask).stdout;
    expect(text).toMatch(/## memory\/2026-03-02\.md:\d+-\d+\n[\s\S]*Vacuum the carpet/);
    expect(text).toContain("the user, line 4: By the way, I've been keeping my old sneakers under my bed for storage");
    const j = JSON.parse(runCli([...ask, '--json']).stdout) as { passages: { from: number; said?: { line: number; text: string }[] }[] };
    const withSaid = j.passages.find((p) => p.said);
    expect(withSaid!.from).toBeGreaterThan(4);
    expect(withSaid!.said).toEqual([{ line: 4, text: expect.stringContaining('old sneakers under my bed') }]);
    // Without the index (--no-search), recall reads the days itself and brings no statements.
    expect(runCli([...ask.slice(0, -1), '--no-search', ask.at(-1)!]).stdout).not.toContain('the user, line');
  });

  it('never shows a private key, however its passages are cut or their repeated lines dropped', () => {
    const body = (seed: string): string[] =>
      Array.from({ length: 6 }, (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC${seed}${i}x7Qm3ZpL8vN2rT5yW1kH4sD6fG9jC0bE`);
    const key = (seed: string): string => ['-----BEGIN RSA PRIVATE KEY-----', ...body(seed), '-----END RSA PRIVATE KEY-----'].join('\n');
    const ws = makeWorkspace({
      'memory/2026-03-02.md': day('2026-03-02', [`## staging deploy key [reference]\n- the staging deploy key:\n${key('Aa')}`]),
      'memory/2026-03-05.md': day('2026-03-05', [`## staging deploy key [reference]\n- the new staging deploy key:\n${key('Bb')}`]),
    });
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    expect(runCli(['index', '--dir', ws.root]).code).toBe(0);
    for (const args of [[], ['--no-search'], ['--json']]) {
      const out = runCli(['recall', '--dir', ws.root, '--now', '2026-03-20', ...args, 'staging', 'deploy', 'key']).stdout;
      expect(out).toContain('staging deploy key');
      expect(out).not.toMatch(/MIIEvQIBADAN|x7Qm3ZpL8vN2rT5yW1kH4sD6fG9jC0bE/);
    }
  });

  it('says so when nothing matches, and rejects an empty question', () => {
    const ws = makeWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n\n## garden [user]\n- user grows tomatoes\n' });
    const r = runCli(['recall', '--dir', ws.root, '--now', '2026-03-02', 'kubernetes', 'ingress']);
    expect(r.stdout).toContain('Nothing in memory matches.');
    expect(runCli(['recall', '--dir', ws.root, ' ']).code).toBe(2);
  });

  it('takes other wordings (--also) for the fact a question depends on but does not name', () => {
    const files: Record<string, string> = {
      'memory/2026-03-01.md': day('2026-03-01', [
        '## offsite [project]\n- booked the lake venue for the team offsite in May',
        '## health [user]\n- I am allergic to peanuts',
      ]),
    };
    for (let d = 2; d <= 12; d++) {
      const date = `2026-03-${String(d).padStart(2, '0')}`;
      files[`memory/${date}.md`] = day(date, [`## team [project]\n- the team planned agenda item ${d} for the offsite`]);
    }
    const ws = makeWorkspace(files);
    const ask = [
      'recall',
      '--dir',
      ws.root,
      '--now',
      '2026-03-13',
      '--json',
      '--budget',
      '100',
      'who',
      'caters',
      'the',
      'team',
      'offsite?',
    ];
    const texts = (stdout: string): string[] => JSON.parse(stdout).passages.map((p: { text: string }) => p.text);
    const plain = texts(runCli(ask).stdout);
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.join('\n')).not.toContain('peanuts');
    const also = texts(runCli([...ask, '--also', 'what am I allergic to']).stdout);
    expect(also.join('\n')).toContain('allergic to peanuts');
  });

  it("leads with the user's facts that share words with the question, each a line of a monthly node", () => {
    const ws = makeWorkspace(SHEDDING_DAYS, { timeZone: 'UTC', compaction: SUMMARIZE_SHORT_DAYS });
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-20']).code).toBe(0);
    const ask = ['recall', '--dir', ws.root, '--now', '2026-03-20', 'which vacuum copes with long hair shedding on a sofa and the reviews'];
    const j = JSON.parse(runCli([...ask, '--json']).stdout) as {
      passages: { path: string; from: number; to: number; text: string; via: string[] }[];
    };
    const first = j.passages[0]!;
    expect(first.via).toEqual(['facts']);
    expect(first.path).toBe('memory/monthly/2026-03.md');
    expect(first.from).toBe(first.to);
    expect(first.text).toMatch(/^- (?:03-02|W10) · .*My golden retriever Max sheds long hair all over the sofa/);
    expect(ws.read('memory/monthly/2026-03.md').split('\n')[first.from - 1]).toBe(first.text);
    // The passages the search found follow; no fact that shares no word with the question.
    expect(j.passages.slice(1).some((p) => p.via.includes('search'))).toBe(true);
    expect(
      j.passages
        .filter((p) => p.via.includes('facts'))
        .map((p) => p.text)
        .join('\n'),
    ).not.toContain('lighter shade of gray');
    // Without the index there are no facts to read: the topics and days answer as before.
    const plain = JSON.parse(runCli([...ask, '--json', '--no-search']).stdout) as { passages: { via: string[] }[] };
    expect(plain.passages.every((p) => !p.via.includes('facts'))).toBe(true);
  });

  it('gives each fact once, where it was written, naming the summary lines that repeat it', () => {
    const ws = makeWorkspace({});
    cpSync(join(REPO, 'memory'), ws.memoryDir, { recursive: true });
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-12-15']).code).toBe(0);
    const ask = [
      'recall',
      '--dir',
      ws.root,
      '--now',
      '2026-12-15',
      '--budget',
      '3000',
      'why',
      'did',
      'we',
      'move',
      'search',
      'to',
      'postgres?',
    ];
    const j = JSON.parse(runCli([...ask, '--json']).stdout) as {
      passages: { path: string; from: number; to: number; text: string; alsoIn: { path: string; from: number }[] }[];
    };
    const top = j.passages[0]!;
    expect(`${top.path}:${top.from}`).toBe('memory/2026-11-02.md:3');
    expect(top.alsoIn.map((a) => a.path.split('/')[0])).toEqual(expect.arrayContaining(['daily', 'weekly', 'monthly']));
    // No passage repeats another's lines: summaries that copy a raw section are folded into it.
    const lines = j.passages.flatMap((p) =>
      p.text
        .split('\n')
        .filter((l) => l.startsWith('- '))
        .map((l) => l.replace(/^- (?:\d{2}-\d{2} · )?/, '')),
    );
    expect(new Set(lines).size).toBe(lines.length);
    // Each summary file once, its ranges together: daily, weekly, monthly.
    const places = String.raw`daily\/2026-11-02\.md:[\d,-]+, weekly\/2026-W45\.md:[\d,-]+, monthly\/2026-11\.md:[\d,-]+`;
    expect(runCli(ask).stdout).toMatch(new RegExp(String.raw`## memory\/2026-11-02\.md:3-7\n\(also in ${places}(, \+\d+ more)?\)`));
  });
});

describe('the passage shown', () => {
  it('is the lines the index matched, not the window of the day the topics led to', () => {
    // A long conversation (summarized above the daily threshold): the topics index leads to the
    // day, whose sections recall reads in 40-line windows; the index's chunk is the tighter one.
    const turn = (i: number) => `Assistant: idea ${i}: a relaxed weekend walk with plenty of rest and a picnic by the water.`;
    const lines = [
      'User: can you suggest hikes for my family trip to Zermatt?',
      ...Array.from({ length: 120 }, (_, i) => turn(i)),
      'Assistant: the Gornergrat ridge trail has the best view of the Matterhorn at sunrise.',
      ...Array.from({ length: 120 }, (_, i) => turn(120 + i)),
    ];
    const ws = makeWorkspace({ 'memory/2026-03-02.md': `# 2026-03-02\n\n## family trip [user]\n${lines.join('\n')}\n` });
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-03-03']).code).toBe(0);
    const ask = ['--dir', ws.root, '--json', 'family', 'trip', 'Gornergrat', 'ridge'];
    const j = JSON.parse(runCli(['recall', '--now', '2026-03-03', ...ask]).stdout) as {
      passages: { path: string; from: number; to: number; text: string; via: string[] }[];
    };
    const top = j.passages.find((p) => p.text.includes('Gornergrat ridge trail'))!;
    expect(top.via).toEqual(expect.arrayContaining(['topics', 'search']));
    const hits = JSON.parse(runCli(['search', ...ask]).stdout).hits;
    const hit = hits.find((h: { path: string }) => h.path === top.path);
    expect({ start: top.from, end: top.to }).toEqual(hit.lines);
    expect(top.to - top.from + 1).toBeLessThan(40);
  });
});

describe('where else a fact appears', () => {
  it('names each file once per range: a node quoting the fact twice over is one place', () => {
    const ws = makeWorkspace({});
    cpSync(join(REPO, 'memory'), ws.memoryDir, { recursive: true });
    expect(runCli(['compact', '--dir', ws.root, '--catch-up', '--now', '2026-11-23']).code).toBe(0);
    const r = runCli(['recall', '--dir', ws.root, '--now', '2026-11-23', '--json', 'when', 'is', 'the', 'dentist', 'appointment']);
    const j = JSON.parse(r.stdout) as { passages: { path: string; alsoIn: { path: string; from: number; to: number }[] }[] };
    expect(j.passages[0]!.path).toBe('memory/2026-11-05.md');
    for (const p of j.passages)
      for (const a of p.alsoIn) {
        const overlapping = p.alsoIn.filter((b) => b.path === a.path && b.from <= a.to && a.from <= b.to);
        expect(overlapping, `${p.path}: ${a.path}:${a.from}-${a.to}`).toHaveLength(1);
      }
  });
});
