// ROOT.md: Profile and Rules from the months' facts, the spec's four sections, a Topics Index
// with [type, Nd] and `?` that covers the whole history, all held under rootMaxTokens by
// sections that share the budget (config `rootShares`).
import { describe, expect, it } from 'vitest';
import { defaultConfig, type RootShares } from '../../src/config/config.js';
import { addDays, monthOf, type LocalDate } from '../../src/time/calendar.js';
import type { MemoryType } from '../../src/tree/layout.js';
import type { TopicInfo } from '../../src/tree/topic.js';
import type { FactInfo } from '../../src/tree/fact.js';
import { ExclusionRules } from '../../src/summarize/exclusion.js';
import { userFact, feedbackFact } from '../../src/summarize/facts/fact.js';
import { buildRoot, type RootInput } from '../../src/compose/root.js';
import { topicsSection } from '../../src/compose/root-sections.js';
import { loadTemplates } from '../../src/write/template.js';
import { loadTokenCounter } from '../../src/text/tokens.js';

const today = '2026-06-30' as LocalDate;
const topic = (name: string, type: MemoryType, ageDays: number, keywords: string[] = ['alpha', 'beta']): TopicInfo => ({
  name,
  type,
  keywords,
  lastSeen: addDays(today, -ageDays),
  days: 1,
});
const fact = (text: string, ageDays: number, days = 1): FactInfo => ({
  ...userFact(text),
  type: 'user',
  lastSeen: addDays(today, -ageDays),
  days,
});
const rule = (text: string, ageDays: number): FactInfo => ({
  ...feedbackFact(text),
  type: 'feedback',
  lastSeen: addDays(today, -ageDays),
  days: 1,
});

async function root(months: RootInput['months'], patch: Partial<RootInput> = {}, cap = 3000, shares?: Partial<RootShares>) {
  const config = defaultConfig().compaction;
  config.rootMaxTokens = cap;
  if (shares) config.rootShares = { ...config.rootShares, ...shares };
  const countTokens = await loadTokenCounter('cl100k_base');
  const built = buildRoot({
    today,
    months,
    recentDailies: [],
    recentDayTopics: [],
    latestMonthlies: [],
    pointerFor: (t) => `daily/${t.lastSeen}.md`,
    linkFor: (d) => `daily/${d}.md`,
    config,
    template: loadTemplates('/nonexistent').get('root'),
    rules: new ExclusionRules(),
    countTokens,
    ...patch,
  });
  return { ...built, exact: countTokens(built.body) };
}

/** A made-up word, different for every (i, k): facts that share no words are all distinct. */
const word = (i: number, k: number): string => {
  let x = (i * 7919 + k * 104729) >>> 0;
  let w = '';
  for (let n = 0; n < 7; n++) {
    x = (x * 1103515245 + 12345) >>> 0;
    w += 'bcdfghklmnprstvz'[(x >>> 16) % 16]! + 'aeiou'[(x >>> 8) % 5]!;
  }
  return w;
};
const section = (body: string, title: string): string => body.split(`## ${title}`)[1]?.split('\n## ')[0] ?? '';
const lines = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('- '));

describe('ROOT.md', () => {
  it('has the four sections and a Topics Index with type, age and pointer; no Profile without facts', async () => {
    const r = await root([
      {
        month: '2026-06',
        topics: [
          topic('hipocampus', 'project', 2, ['compaction tree', 'ROOT.md']),
          topic('timezone', 'user', 40, ['KST']),
          topic('legal-750', 'reference', 14),
        ],
      },
    ]);
    const sections = [...r.body.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(['Active Context (recent ~7 days)', 'Recent Patterns', 'Historical Summary', 'Topics Index']);
    expect(r.body).toContain('- hipocampus [project, 2d]: compaction tree, ROOT.md → [2026-06-28](daily/2026-06-28.md)');
    expect(r.body).toContain('- timezone [user, 40d]: KST');
    expect(r.body).toContain('- legal-750 [reference, 14d]: alpha, beta');
    expect(r.body).toContain('- 2026-06: ');
  });

  it('states the user facts by kind with their date and a link, and the rules newest first', async () => {
    const r = await root([
      {
        month: '2026-06',
        topics: [],
        facts: [
          fact('My dog Max is a Golden Retriever', 40),
          fact('I work as a nurse at St. Mary Hospital', 10),
          rule('always answer with the command first', 30),
          rule('write dates as YYYY-MM-DD', 3),
        ],
      },
    ]);
    const sections = [...r.body.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(sections.slice(0, 2)).toEqual(['Profile', 'Rules']);
    const profile = section(r.body, 'Profile');
    expect(profile).toContain('### Work and study\n- I work as a nurse at St. Mary Hospital ([06-20](daily/2026-06-20.md))');
    expect(profile).toContain('### Pets\n- My dog Max is a Golden Retriever ([05-21](daily/2026-05-21.md))');
    expect(lines(section(r.body, 'Rules'))).toEqual([
      '- write dates as YYYY-MM-DD ([06-27](daily/2026-06-27.md))',
      '- always answer with the command first ([05-31](daily/2026-05-31.md))',
    ]);
  });

  it('states every fact as said while all of them fit in the profile share', async () => {
    const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);
    const facts = Array.from({ length: 14 }, (_, i) =>
      fact(`My ${word(i, 1)} ${word(i, 2)} came from ${cap(word(i, 3))} for $${10 + i}`, i + 1),
    );
    const profile = lines(section((await root([{ month: '2026-06', topics: [], facts }])).body, 'Profile'));
    expect(profile.filter((l) => l.startsWith('- Also'))).toEqual([]);
    expect(profile).toHaveLength(14);
  });

  it('past what fits, states the most salient facts in a tenth of the share and names the rest by digest, a line per month', async () => {
    const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);
    // Eighty facts, the oldest ten a month back: far more than the profile share of 2,000 tokens holds as sentences.
    const facts = Array.from({ length: 80 }, (_, i) =>
      fact(`My ${word(i, 1)} ${word(i, 2)} came from ${cap(word(i, 3))} for $${100 + i}`, i < 70 ? 1 + (i % 20) : 40 + (i % 10)),
    );
    const budget = 2000;
    const r = await root([{ month: '2026-06', topics: [], facts }], {}, budget);
    const countTokens = await loadTokenCounter('cl100k_base');
    const profile = lines(section(r.body, 'Profile'));
    const sentences = profile.filter((l) => !l.startsWith('- Also'));
    const also = profile.filter((l) => l.startsWith('- Also'));
    expect(sentences.length).toBeGreaterThanOrEqual(3);
    // The profile's share is half of what the template leaves (1,000 tokens); sentences get a
    // tenth of it, which holds two of these 40-token sentences: the minimum of three is shown.
    expect(countTokens(sentences[0]!)).toBeGreaterThan(0.1 * 0.5 * budget * 0.34);
    expect(sentences).toHaveLength(3);
    expect(
      sentences.every((l) => /^- My \w+ \w+ came from \w+ for \$\d+ \(\[\d{2}-\d{2}\]\(daily\/2026-0[56]-\d{2}\.md\)\)$/.test(l)),
    ).toBe(true);
    // Newest month first; each digest names what is the user's, the name and the amount.
    expect(also.map((l) => l.slice(0, '- Also in 2026-06: '.length))).toEqual(['- Also in 2026-06: ', '- Also in 2026-05: ']);
    const digests = also.flatMap((l) => l.slice('- Also in 2026-06: '.length).split(' · '));
    expect(digests.length).toBeGreaterThan(3 * sentences.length);
    for (const d of digests) expect(d).toMatch(/^My [a-z]+ [a-z]+, [A-Z][a-z]+, \$\d+$/);
    // No fact twice, as a sentence and a digest.
    const shown = [...sentences, ...digests].map((l) => /\$(\d+)/.exec(l)![1]);
    expect(new Set(shown).size).toBe(shown.length);
    expect(r.exact).toBeLessThanOrEqual(budget);
  });

  it('shows the newest value of a fact that changed, not the old one', async () => {
    const r = await root([
      { month: '2026-04', topics: [], facts: [fact('My commute takes 45 minutes each way', 80)] },
      { month: '2026-06', topics: [], facts: [fact('My commute takes 30 minutes now that I cycle', 5)] },
    ]);
    expect(r.body).toContain('My commute takes 30 minutes now that I cycle');
    expect(r.body).not.toContain('45 minutes');
  });

  it('says a plan whose date is behind is past, after the facts that still hold', async () => {
    // today is 2026-06-30: the appointment (said 06-10 for 06-20) is over, the trip (06-25 for 07-14) ahead.
    const r = await root([
      {
        month: '2026-06',
        topics: [],
        facts: [
          fact('Dentist appointment 2026-06-20 at 09:30, block the morning', 20, 3),
          fact('My dentist is Dr. Weber at the Charité clinic', 30),
          fact('Flight to Seoul on 2026-07-14, back 2026-07-28', 5),
        ],
      },
    ]);
    const health = section(r.body, 'Profile').split('### Health\n')[1]!.split('\n###')[0]!;
    expect(lines(health)).toEqual([
      '- My dentist is Dr. Weber at the Charité clinic ([05-31](daily/2026-05-31.md))',
      '- Dentist appointment 2026-06-20 at 09:30, block the morning — past ([06-10](daily/2026-06-10.md))',
    ]);
    expect(r.body).toContain('- Flight to Seoul on 2026-07-14, back 2026-07-28 ([06-25](daily/2026-06-25.md))');
  });

  it('marks references unseen for more than 30 days with ?', async () => {
    const r = await root([{ month: '2026-05', topics: [topic('old docs', 'reference', 45), topic('fresh docs', 'reference', 10)] }]);
    expect(r.body).toContain('- old docs [reference, 45d, ?]');
    expect(r.body).toContain('- fresh docs [reference, 10d]:');
  });

  it('ages come from last-seen dates, so the same tree reads right on a later day', async () => {
    const months = [{ month: '2026-06', topics: [topic('parser', 'project', 0)] }];
    const first = await root(months);
    const later = await root(months, { today: addDays(today, 5) });
    expect(first.body).toContain('- parser [project, 0d]');
    expect(later.body).toContain('- parser [project, 5d]');
  });

  it("puts the newest day's highlights first across a new year, also when the window skips December", async () => {
    const daily = (date: string, what: string) => ({
      label: date,
      path: `memory/daily/${date}.md`,
      level: 'daily' as const,
      text: `# ${date}\n\n## ${what} [project]\n- worked on the ${what} all afternoon\n`,
      firstLine: 1,
    });
    const highlights = async (dates: string[]) => {
      const recentDailies = dates.map((d, i) => daily(d, ['parser', 'ledger', 'exporter'][i]!));
      const config = { ...defaultConfig().compaction, activeContextDays: 45 };
      const r = await root([], { today: '2027-01-05' as LocalDate, recentDailies, config });
      return lines(section(r.body, 'Active Context')).map((l) => l.slice(2, 7));
    };
    expect(await highlights(['2026-12-30', '2026-12-31', '2027-01-02'])).toEqual(['01-02', '12-31', '12-30']);
    expect(await highlights(['2026-11-25', '2026-11-26', '2027-01-02'])).toEqual(['01-02', '11-26', '11-25']);
  });

  // Many facts, many topics: each section keeps its share, and neither starves the other.
  const crowded = (): RootInput['months'] => [
    {
      month: '2026-06',
      topics: Array.from({ length: 200 }, (_, i) => topic(`widget project ${i}`, 'project', i % 25, ['gear', 'spring', 'lever'])),
      facts: Array.from({ length: 300 }, (_, i) =>
        fact(`I bought ${word(i, 1)} ${word(i, 2)} from ${word(i, 3)} for my ${word(i, 4)} in ${word(i, 5)}`, i % 60),
      ),
    },
  ];

  it('shares the cap: a long profile and a long index each keep their share', async () => {
    const cap = 3000;
    const r = await root(crowded(), {}, cap);
    expect(r.exact).toBeLessThanOrEqual(cap);
    expect(r.overCap).toBeNull();
    const count = await loadTokenCounter('cl100k_base');
    const shares = defaultConfig().compaction.rootShares;
    const profileTokens = count(section(r.body, 'Profile'));
    const indexTokens = count(section(r.body, 'Topics Index'));
    // Each gets at least its share of what the template leaves (less a line's rounding)...
    expect(profileTokens).toBeGreaterThan(cap * shares.profile * 0.85);
    expect(indexTokens).toBeGreaterThan(cap * shares.topics * 0.85);
    // ...and the profile took what the empty sections left (rules, patterns, active).
    expect(profileTokens).toBeGreaterThan(cap * (shares.profile + shares.rules) * 0.9);
    expect(r.dropped.length).toBeGreaterThan(0);
  });

  it('follows configured shares', async () => {
    const cap = 3000;
    const count = await loadTokenCounter('cl100k_base');
    const wide = await root(crowded(), {}, cap, { profile: 0.2, topics: 0.6 });
    const narrow = await root(crowded(), {}, cap, { profile: 0.6, topics: 0.2 });
    expect(count(section(wide.body, 'Topics Index'))).toBeGreaterThan(count(section(narrow.body, 'Topics Index')) * 1.5);
    expect(count(section(narrow.body, 'Profile'))).toBeGreaterThan(count(section(wide.body, 'Profile')) * 1.5);
    for (const r of [wide, narrow]) expect(r.exact).toBeLessThanOrEqual(cap);
  });

  it("gives a short profile's room to the index", async () => {
    const few = crowded();
    few[0] = { ...few[0]!, facts: few[0]!.facts!.slice(0, 3) };
    const r = await root(few, {}, 3000);
    expect(lines(section(r.body, 'Profile'))).toHaveLength(3);
    const count = await loadTokenCounter('cl100k_base');
    expect(count(section(r.body, 'Topics Index'))).toBeGreaterThan(3000 * 0.5);
  });

  it('the Topics Index covers the whole history: every month of the last year, every quarter and year before', async () => {
    // 40 months of history, 12 topics each, seen once in their month.
    const months = Array.from({ length: 40 }, (_, i) => {
      const last = addDays(today, -(39 - i) * 30 - 1);
      const m = monthOf(last);
      return { month: m, topics: Array.from({ length: 12 }, (_, j) => ({ ...topic(`gizmo ${m} ${j}`, 'project', 0), lastSeen: last })) };
    });
    const r = await root(months, {}, 3000);
    expect(r.exact).toBeLessThanOrEqual(3000);
    const index = section(r.body, 'Topics Index');
    const shown = new Set([...index.matchAll(/gizmo (\d{4}-\d{2}) /g)].map((m) => m[1]!));
    const group = (m: string): string => {
      const age = 2026 * 12 + 5 - (Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1);
      return age < 12 ? m : age < 36 ? `${m.slice(0, 4)}-Q${Math.floor((Number(m.slice(5, 7)) - 1) / 3) + 1}` : m.slice(0, 4);
    };
    const groups = new Set(months.map((m) => group(m.month)));
    const covered = new Set([...shown].map(group));
    expect([...groups].filter((g) => !covered.has(g))).toEqual([]);
    // Recent months in more detail than old ones.
    const perMonth = (m: string): number => [...index.matchAll(new RegExp(`gizmo ${m} `, 'g'))].length;
    expect(perMonth(months[39]!.month)).toBeGreaterThan(perMonth(months[30]!.month));
    expect(perMonth(months[30]!.month)).toBeGreaterThanOrEqual(1);
  });

  it('the Historical Summary groups whole quarters and years: no year stands for its January alone', async () => {
    const months: RootInput['months'] = [];
    for (let m = monthOf('2023-11-01' as LocalDate); m <= '2027-01'; m = monthOf(addDays(`${m}-28` as LocalDate, 7)))
      months.push({ month: m, topics: [topic(`gizmo ${m}`, 'project', 0)] });
    const r = await root(months, { today: '2027-01-15' as LocalDate }, 6000);
    const labels = lines(section(r.body, 'Historical Summary')).map((l) => l.slice(2, l.indexOf(':')));
    const quarters = (y: number) => [1, 2, 3, 4].map((q) => `${y}-Q${q}`);
    const lastMonths = Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`);
    expect(labels).toEqual(['2023', ...quarters(2024), ...quarters(2025), ...lastMonths, '2027-01']);
  });

  it('project topics unseen for projectStaleDays come last in their period', () => {
    // Both last seen in 2025-Q2; the older one was mentioned on more days.
    const stale = { ...topic('stale widget', 'project', 400), days: 9 };
    const fresh = { ...topic('fresh widget', 'project', 380), days: 1 };
    const ranked = (projectDays: number): string[] =>
      topicsSection([stale, fresh], today, { referenceDays: 30, projectDays }, () => '').ranked.map((t) => t.name);
    expect(ranked(390)).toEqual(['fresh widget', 'stale widget']);
    expect(ranked(1000)).toEqual(['stale widget', 'fresh widget']);
  });

  it('user and feedback topics come first in their period of the index', async () => {
    const r = await root(
      [
        {
          month: '2026-06',
          topics: [
            ...Array.from({ length: 150 }, (_, i) => topic(`side project ${i}`, 'project', 2, ['x'])),
            topic('prefers tabs', 'user', 2),
            topic('no mocks', 'feedback', 2),
          ],
        },
      ],
      {},
      800,
    );
    expect(r.exact).toBeLessThanOrEqual(800);
    expect(r.body).toContain('- prefers tabs [user, 2d]');
    expect(r.body).toContain('- no mocks [feedback, 2d]');
    expect(r.dropped.length).toBeGreaterThan(50);
  });
});
