// The offline summarizer writes real, keyword-dense nodes in the template's sections and
// follows the spec's type-aware and exclusion rules.
import { describe, expect, it } from 'vitest';
import { parseHeading } from '../../src/summarize/entries.js';
import { cycle, node } from '../helpers/tree.js';
import { makeWorkspace } from '../helpers/workspace.js';

const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => `- checked build ${i} of the ingest pipeline on runner ${i % 7}`).join('\n');

const BIG_DAY = `# 2026-06-01

## timezone [user]
- I live in Seoul and work KST hours
- My name is Dana; I prefer short answers

## test doubles [feedback]
- rule: no mocks in integration tests
- why: a mocked database hid a broken migration last quarter
- how to apply: use a real SQLite file in a temp dir

## sqlite docs [reference]
- https://sqlite.org/fts5.html — FTS5 tokenizers and bm25()
- some surrounding chatter that should not survive

## ingest pipeline [project]
- decided to use FTS5 instead of MiniSearch because the index must persist
- [x] implemented incremental updates in src/index/update.ts
- [ ] follow up: benchmark the 10-year corpus
- lesson: WAL mode needs a busy_timeout or readers fail under load
- Alice reported ENOSPC on the runner disk
\`\`\`ts
const secretSauce = computeSomethingHuge();
\`\`\`
    at Object.<anonymous> (/srv/app/index.js:10:5)
    at Module._compile (node:internal/modules/cjs/loader:1105:14)

## scratch experiment [project] temporary
- trying a throwaway idea, delete later

## 임시 메모 [project]
- 나중에 삭제할 내용

## routine checks [project]
${filler(220)}
`;

describe('extractive daily summary (above the 200-line threshold)', () => {
  it('keeps user facts and feedback verbatim, sorts project notes, drops excluded content', async () => {
    const ws = makeWorkspace({ 'memory/2026-06-01.md': BIG_DAY });
    await cycle(ws, '2026-06-02');
    const daily = node(ws, 'daily/2026-06-01.md');
    expect(daily.data.summarizer).toBe('extractive');
    const body = daily.body;
    const section = (title: string) => body.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? '';

    expect(section('User Facts')).toContain('home: I live in Seoul and work KST hours');
    expect(section('User Facts')).toContain('identity: My name is Dana; I prefer short answers');
    expect(section('Feedback')).toContain(
      'test doubles: rule: no mocks in integration tests | why: a mocked database hid a broken migration last quarter | how to apply: use a real SQLite file in a temp dir',
    );
    expect(section('References')).toContain('https://sqlite.org/fts5.html — FTS5 tokenizers and bm25()');
    expect(section('References')).not.toContain('surrounding chatter');
    expect(section('Key Decisions')).toContain('decided to use FTS5 instead of MiniSearch');
    expect(section('Tasks Completed')).toContain('implemented incremental updates in src/index/update.ts');
    expect(section('Open Items')).toContain('benchmark the 10-year corpus');
    expect(section('Lessons Learned')).toContain('WAL mode needs a busy_timeout');
    expect(section('Entities Referenced')).toMatch(/files: .*src\/index\/update\.ts/);
    expect(section('Entities Referenced')).toMatch(/errors: .*ENOSPC/);

    // Exclusions: code blocks, stack traces, ephemeral entries (English and Korean markers).
    expect(body).not.toContain('secretSauce');
    expect(body).not.toContain('Module._compile');
    expect(body).not.toContain('throwaway idea');
    expect(body).not.toContain('나중에 삭제할 내용');

    // Topics with type tags, in frontmatter and in the body.
    expect(daily.data.topics).toEqual(
      expect.arrayContaining(['timezone [user]', 'test doubles [feedback]', 'sqlite docs [reference]', 'ingest pipeline [project]']),
    );
    expect(section('Topics')).toMatch(/- ingest pipeline \[project\]: .+/);
    expect(body.split('\n').length).toBeLessThan(200);
  });

  it('copies a small raw log verbatim, with a Topics section under its title', async () => {
    const small = '# 2026-06-03\n\n## lunch [user]\n- I am vegetarian\n\n```sh\nrm -rf build\n```\n';
    const ws = makeWorkspace({ 'memory/2026-06-03.md': small });
    await cycle(ws, '2026-06-03');
    const daily = node(ws, 'daily/2026-06-03.md');
    expect(daily.data.summarizer).toBe('copy');
    expect(daily.body).toBe(
      '\n# 2026-06-03\n\nSources: [raw log](../2026-06-03.md) · Up: [2026-W23](../weekly/2026-W23.md) · [2026-06](../monthly/2026-06.md) · [ROOT](../ROOT.md)\n\n## Topics\n- lunch [user]: vegetarian\n\n## lunch [user]\n- I am vegetarian\n\n```sh\nrm -rf build\n```\n',
    );
  });
});

describe('reference topics', () => {
  it('lead with their link at every level up to ROOT, a redacted link left out', async () => {
    const ws = makeWorkspace({
      'memory/2026-04-20.md':
        '# 2026-04-20\n\n## runbooks [reference]\n' +
        '- billing service runbook, on-call steps: https://wiki.example.org/runbooks/billing.\n\n' +
        '## vault [reference]\n- the vault UI at https://[REDACTED:secret]@vault.example.org/ui\n\n' +
        '## db console [reference]\n- https://admin:Hunter2pass99@db.example.org/console for the database\n\n' +
        '## stripe api [reference]\n- https://api.example.org/v1/charges?api_key=sk_live_51HabcdefghijklmnopqrstuvWXyz0123 docs\n\n' +
        '## deploys [project]\n- the deploy guide is at https://wiki.example.org/deploys\n',
    });
    await cycle(ws, '2026-06-10', { catchUp: true });
    const url = 'https://wiki.example.org/runbooks/billing';
    for (const rel of ['daily/2026-04-20.md', 'weekly/2026-W17.md', 'monthly/2026-04.md'])
      expect(node(ws, rel).body, rel).toContain(`- runbooks [reference]: ${url}, `);
    const root = node(ws, 'ROOT.md').body;
    // Unseen for more than 30 days: marked for verification, still saying where it points.
    expect(root).toMatch(new RegExp(`- runbooks \\[reference, 51d, \\?\\]: ${url.replace(/[./]/g, '\\$&')}[,\\s]`));
    // A link redacted in part points nowhere: no pointer rather than what is left of it.
    for (const body of [root, node(ws, 'daily/2026-04-20.md').body])
      for (const name of ['vault', 'db console', 'stripe api']) expect(body).not.toMatch(new RegExp(`${name} \\[reference[^\\n]*https`));
    expect(root).not.toMatch(/deploys \[project[^\n]*https/);
  });
});

describe('extractive weekly summary (above the 300-line threshold)', () => {
  it('labels lines with their day and keeps every user fact', async () => {
    const day = (date: string, fact: string) =>
      `# ${date}\n\n## about me [user]\n- ${fact}\n\n## work [project]\n- decided on ${date} to rename the parser\n${filler(180)}\n`;
    const ws = makeWorkspace({
      'memory/2026-06-01.md': day('2026-06-01', 'I moved to Lisbon'),
      'memory/2026-06-02.md': day('2026-06-02', 'My dog is called Miso'),
    });
    await cycle(ws, '2026-06-10', { catchUp: true });
    const weekly = node(ws, 'weekly/2026-W23.md');
    expect(weekly.data.summarizer).toBe('extractive');
    expect(weekly.body).toContain('# Weekly Summary: 2026-W23');
    expect(weekly.body).toContain('06-01 · home: I moved to Lisbon');
    expect(weekly.body).toContain('06-02 · pets: My dog is called Miso');
    expect(weekly.body).toMatch(/06-02 · work: decided on 2026-06-02 to rename the parser/);
    expect(weekly.data['last-seen']).toMatchObject({ 'about me': '2026-06-02' });
  });
});

describe('typed and found user facts', () => {
  it('keeps every typed user fact at every level, while facts found in conversations are capped', async () => {
    // Each day: one typed fact, and two hundred sessions in which the user tells something.
    const chat = (date: string) =>
      Array.from(
        { length: 200 },
        (_, i) =>
          `## Session ${i + 1}\n\nUser: By the way, I bought ${i + 2} ${['jars', 'boxes', 'bags', 'crates'][i % 4]} of ${['honey', 'tea', 'rice', 'beans', 'figs'][i % 5]} at the ${date} market stall ${i}.\nAssistant: Nice purchase.\n`,
      ).join('\n');
    const day = (date: string, fact: string) => `# ${date}\n\n## about me [user]\n- ${fact}\n\n${chat(date)}`;
    const files: Record<string, string> = {};
    const typed = [
      'I live in Porto',
      'My daughter is called Ines',
      'I am allergic to shellfish',
      'I play the cello',
      'I drive a 2014 Volvo',
    ];
    typed.forEach((fact, i) => (files[`memory/2026-06-0${i + 1}.md`] = day(`2026-06-0${i + 1}`, fact)));
    const ws = makeWorkspace(files);
    await cycle(ws, '2026-07-15', { catchUp: true });
    for (const rel of ['daily/2026-06-03.md', 'weekly/2026-W23.md', 'monthly/2026-06.md']) {
      const body = node(ws, rel).body;
      const section = (title: string) => body.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? '';
      const own = section('User Facts');
      const found = section('User Facts (from conversations)');
      for (const fact of rel.startsWith('daily') ? [typed[2]!] : typed) expect(own, rel).toContain(fact);
      expect(found, rel).toMatch(/I bought \d+ \w+ of \w+ at the 2026-06-0\d market stall/);
      if (!rel.startsWith('daily')) expect(found.split('\n').length, rel).toBeLessThan(1000);
    }
  });
});

describe('headings', () => {
  it.each([
    ['Auth refactor [project]', 'auth refactor', 'project', true],
    ['timezone [user]', 'timezone', 'user', true],
    ['Auth refactor [feedback] · 14:05 · session 3f2a9c1b', 'auth refactor', 'feedback', true],
    ['14:05 deploy notes', 'deploy notes', 'project', false],
    ['Session 12', null, 'project', false],
    ['Notes', null, 'project', false],
    ['dist = 120, thres = 16 0 degree: <45 = 10/10', null, 'project', false],
    ['인증 리팩터링 [project]', '인증 리팩터링', 'project', true],
    // OpenClaw's session notes.
    ['Session: 2026-06-02 14:30:00 UTC', null, 'project', false],
    ['Conversation Summary', null, 'project', false],
    ['Last 15 Messages', null, 'project', false],
    ['Session: vendor pitch', 'vendor pitch', 'project', false],
    ['Friday', null, 'project', false],
    ['Daily log', null, 'project', false],
    // Other scripts and emoji: a time or date as the language writes it goes, emoji at the ends
    // go, and an emoji counts as one character, not as two non-letters.
    ['🚀 Релиз 2.0', 'релиз 2.0', 'project', false],
    ['🔥 Hotfix Zahlungsdienst', 'hotfix zahlungsdienst', 'project', false],
    ['오전 10:00 배포 회의', '배포 회의', 'project', false],
    ['10時30分 定例会議', '定例会議', 'project', false],
    ['2026年11月2日 会議メモ', '会議メモ', 'project', false],
    ['14h30 Réunion', 'réunion', 'project', false],
    ['🎉', null, 'project', false],
  ])('%s', (heading, topic, type, tagged) => {
    expect(parseHeading(heading)).toEqual({ topic, type, tagged });
  });
});

describe('keywords of text written without spaces', () => {
  it('are Chinese and Japanese words, not sentences, single characters or particles', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-01.md': `# 2026-06-01

## データベース移行
- 本番環境のデータベース移行が完了しました。移行後の性能測定は来週行う予定です。
- 決定事項：認証サーバーはキャッシュを使わない方針に変更。

## 项目会议
- 我们决定把搜索服务迁移到新的服务器上，预计下周完成。
- 王经理说数据库备份每天凌晨三点执行。
`,
    });
    await cycle(ws, '2026-06-02');
    const lines = node(ws, 'daily/2026-06-01.md').body.split('## Topics\n')[1]!.split('\n\n')[0]!.split('\n');
    const keywords = lines.flatMap((l) => l.split(': ')[1]!.split(', '));
    expect(keywords.length).toBeGreaterThan(4);
    for (const k of keywords) {
      expect(k.length, k).toBeGreaterThan(1);
      expect(k.length, k).toBeLessThanOrEqual(8);
      expect(k, k).not.toMatch(/^[\p{Script=Hiragana}]+$/u);
    }
    expect(keywords).toContain('データベース');
    expect(keywords.some((k) => ['服务', '服务器', '迁移', '备份'].includes(k))).toBe(true);
  });
});

describe('keywords of text in German and French', () => {
  const topicLines = (body: string): string[] => body.split('## Topics\n')[1]!.split('\n\n')[0]!.split('\n');

  it('are not the function words of the language (und, die, für; la, de, les)', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-01.md': `# 2026-06-01

## Datenbankmigration
- Die Datenbankmigration auf PostgreSQL 16 ist abgeschlossen und die Tabelle wurde umbenannt.
- Entscheidung: Wir verwenden für die Uploads künftig Größenbeschränkungen, und die Grenze ist 25 MB.
- Offene Frage: Soll die Überwachung über Grafana laufen? Jörg prüft das bis Freitag.

## Réunion d'équipe
- Décision : la migration vers Kubernetes est reportée à décembre, à cause des problèmes de réseau.
- Élodie a corrigé le bogue de l'authentification dans le module de connexion.
- Les tests de régression échouent encore sur la branche de développement.
`,
    });
    await cycle(ws, '2026-06-02');
    const keywords = topicLines(node(ws, 'daily/2026-06-01.md').body).flatMap((l) => l.split(': ')[1]!.split(', '));
    expect(keywords.length).toBeGreaterThan(4);
    for (const stop of ['und', 'die', 'für', 'ist', 'la', 'de', 'les', 'le', 'des', 'est']) expect(keywords).not.toContain(stop);
  });

  it('in English text, keep what those words are there: LA, Las Vegas, hay', async () => {
    const ws = makeWorkspace({
      'memory/2026-06-01.md': `# 2026-06-01

## Goats [project]
- The goats need hay twice a day; hay prices went up at the feed store.
- Moved the hay bales into the barn before the rain.

## Trips [project]
- Flew to LA for the conference, then drove to Las Vegas. LA traffic was awful.
- Las Vegas hotel was near the strip; LA hotel near the beach. Back in LA on Friday.
`,
    });
    await cycle(ws, '2026-06-02');
    const keywords = topicLines(node(ws, 'daily/2026-06-01.md').body).flatMap((l) => l.split(': ')[1]!.split(', '));
    expect(keywords).toContain('hay');
    expect(keywords).toContain('la');
  });
});

describe('captured conversations', () => {
  it('names a capture section by what was said, not by its heading metadata', async () => {
    const turns = Array.from(
      { length: 3 },
      (_, i) =>
        `User: the kafka consumer lag keeps growing on partition ${i}\nAssistant: raise max.poll.records and check the consumer group rebalance`,
    ).join('\n\n');
    const ws = makeWorkspace({
      'memory/2026-06-01.md': `# 2026-06-01\n\n## Conversation [project] · 14:05 · session 3f2a9c1b\n\n${turns}\n`,
    });
    await cycle(ws, '2026-06-02');
    const topics = node(ws, 'daily/2026-06-01.md').body.split('## Topics\n')[1]!.split('\n\n')[0]!;
    expect(topics).toMatch(/kafka|consumer/);
    expect(topics).not.toMatch(/conversation|3f2a9c1b|14:05/);
  });
});

describe('highlights', () => {
  it('quote a request the user repeated once, and give the room to what else was said', async () => {
    // An agent retried: the user's requests come round again with a counter.
    const round = (n: number) =>
      [
        `User: the exports worker retries the same PDF job forever when typst fails (pass ${n})`,
        'Assistant: cap the attempts and move the job to a dead-letter queue',
        `User: add a test for customer names with special characters (pass ${n})`,
        'Assistant: a fixture with ampersands and umlauts covers it',
      ].join('\n\n');
    const turns = Array.from({ length: 60 }, (_, i) => round(i + 1)).join('\n\n');
    const ws = makeWorkspace({ 'memory/2026-06-01.md': `# 2026-06-01\n\n## exports worker [project]\n\n${turns}\n` });
    await cycle(ws, '2026-06-02');
    const daily = node(ws, 'daily/2026-06-01.md');
    expect(daily.data.summarizer).toBe('extractive');
    const line = daily.body.split('## Highlights\n')[1]!.split('\n')[0]!;
    expect(line).toMatch(/^- exports worker \[project\]: /);
    expect(line.match(/retries the same PDF job/g)).toHaveLength(1);
    expect(line).toMatch(/special characters/);
  });

  it('states a fact the user said twice in other words once, the one that names more', async () => {
    const chat = [
      '## Session 1',
      'User: I just got back from a solo camping trip to Yosemite National Park today. Any tips for drying a tent?',
      'Assistant: Pitch it in the shade and let it air out.',
      '## Session 2',
      'User: I just started my solo camping trip to Yosemite National Park today and ' +
        "I'm really excited to explore the park. What should I pack?",
      'Assistant: Layers and water.',
      "User: I stayed at a hotel in Downtown LA during my friend's birthday celebration and had an amazing view of the city skyline.",
      'User: I actually stayed at the Hilton Hotel in Downtown LA during ' +
        "my friend's birthday celebration and had an amazing view of the city skyline.",
      // A long day (a small one is copied as it is).
      ...Array.from({ length: 40 }, (_, i) => `## Session ${i + 3}\n\nUser: how do I rotate log file ${i}?\n\nAssistant: ${filler(8)}`),
    ].join('\n\n');
    const ws = makeWorkspace({ 'memory/2026-06-01.md': `# 2026-06-01\n\n${chat}\n` });
    await cycle(ws, '2026-06-02');
    const facts = node(ws, 'daily/2026-06-01.md').body.split('## User Facts (from conversations)\n')[1]!.split('\n\n')[0]!;
    expect(facts.match(/solo camping trip to Yosemite/g)).toHaveLength(1);
    expect(facts).toContain('the Hilton Hotel in Downtown LA');
  });
});

describe('smart punctuation', () => {
  // Phones, macOS and many models write "I’m" with U+2019. The rules that find facts, asks and
  // topic names read "I'm": a chat typed either way must give the same tree.
  const sessions = (apostrophe: string): string => {
    const said = [
      "User: By the way, I'm allergic to shellfish and I've been vegetarian since 2019. Can you suggest a dinner?",
      "User: My sister's wedding is on June 12th in Porto, and I'm giving the toast. I'd like a few opening lines.",
      "User: I've been volunteering at the animal shelter every Saturday. What's a good way to thank the staff?",
      "User: I'm hoping to finish my first half marathon in under two hours. I don't stretch enough, though.",
      "User: We're moving to Lisbon's old town next month, so I'm selling my piano. How do I price it?",
    ];
    const days = Array.from({ length: 12 }, (_, i) =>
      [
        `## Session ${i + 1}`,
        'Session Date: 2026-06-01',
        '',
        said[i % said.length]!,
        ...Array.from({ length: 16 }, (_, j) => `Assistant: here is point ${j} of answer ${i}, with a detail you can use.`),
        '',
      ].join('\n'),
    );
    return `# 2026-06-01\n\n${days.join('\n')}`.replace(/'/g, apostrophe);
  };

  it('reads a transcript typed with typographic apostrophes as one typed with plain ones', async () => {
    const plain = makeWorkspace({ 'memory/2026-06-01.md': sessions("'") });
    const smart = makeWorkspace({ 'memory/2026-06-01.md': sessions('’') });
    for (const ws of [plain, smart]) await cycle(ws, '2026-06-02');
    const daily = (ws: typeof plain) => node(ws, 'daily/2026-06-01.md').body;
    expect(daily(plain)).toMatch(/^- health: I'm allergic to shellfish/m);
    expect(daily(smart)).toBe(daily(plain));
    expect(smart.read('memory/ROOT.md').replace(/source-hash.*\n/, '')).toBe(plain.read('memory/ROOT.md').replace(/source-hash.*\n/, ''));
    expect(daily(smart)).not.toMatch(/i’m|i’ve/i);
  });
});
