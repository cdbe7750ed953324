// ROOT.md: four sections, a Topics Index with [type, Nd] and `?`, held under rootMaxTokens by
// the spec's eviction order, never dropping user or feedback topics.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { addDays, type LocalDate } from '../../src/time/calendar.js';
import type { MemoryType } from '../../src/tree/layout.js';
import type { TopicInfo } from '../../src/tree/topic.js';
import { ExclusionRules } from '../../src/summarize/exclusion.js';
import { buildRoot, type RootInput } from '../../src/compose/root.js';
import { loadTemplates } from '../../src/write/template.js';
import { loadTokenCounter } from '../../src/write/tokens.js';

const today = '2026-06-30' as LocalDate;
const topic = (name: string, type: MemoryType, ageDays: number, keywords: string[] = ['alpha', 'beta']): TopicInfo => ({ name, type, keywords, lastSeen: addDays(today, -ageDays), days: 1 });

async function root(months: RootInput['months'], patch: Partial<RootInput> = {}, cap = 3000) {
  const config = defaultConfig().compaction;
  config.rootMaxTokens = cap;
  const countTokens = await loadTokenCounter('cl100k_base');
  const built = buildRoot({
    today, months, recentDailies: [], recentDayTopics: [], latestMonthlies: [],
    pointerFor: (t) => `daily/${t.lastSeen}.md`, config, template: loadTemplates('/nonexistent').get('root'),
    rules: new ExclusionRules(), countTokens, ...patch,
  });
  return { ...built, exact: countTokens(built.body) };
}

describe('ROOT.md', () => {
  it('has the four sections and a Topics Index with type, age and pointer', async () => {
    const r = await root([{ month: '2026-06', topics: [topic('hipocampus', 'project', 2, ['compaction tree', 'ROOT.md']), topic('timezone', 'user', 40, ['KST']), topic('legal-750', 'reference', 14)] }]);
    const sections = [...r.body.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(['Active Context (recent ~7 days)', 'Recent Patterns', 'Historical Summary', 'Topics Index']);
    expect(r.body).toContain('- hipocampus [project, 2d]: compaction tree, ROOT.md → daily/2026-06-28.md');
    expect(r.body).toContain('- timezone [user, 40d]: KST');
    expect(r.body).toContain('- legal-750 [reference, 14d]: alpha, beta');
    expect(r.body).toContain('- 2026-06: ');
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

  it('stays under the cap: history compresses first, then stale project topics go', async () => {
    const months = Array.from({ length: 24 }, (_, i) => {
      const m = `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
      const age = (23 - i) * 30 + 1;
      return { month: m, topics: Array.from({ length: 12 }, (_, j) => topic(`project ${i}-${j} widget`, 'project', age, ['gear', 'spring', 'lever', 'bolt'])) };
    });
    months[23]!.topics.push(topic('prefers tabs', 'user', 400), topic('no mocks', 'feedback', 500));
    const r = await root(months, {}, 1500);
    expect(r.exact).toBeLessThanOrEqual(1500);
    expect(r.overCap).toBeNull();
    expect(r.dropped.length).toBeGreaterThan(0);
    // Dropped oldest first; the most recent project topics and every user/feedback topic stay.
    expect(r.body).toContain('project 23-0 widget');
    expect(r.body).toContain('- prefers tabs [user, 400d]');
    expect(r.body).toContain('- no mocks [feedback, 500d]');
    expect(r.dropped).toContain('project 0-0 widget');
    expect(r.body).toMatch(/^- 2024(?:-Q\d)?: /m); // older months merged by quarter or year
    expect(r.body).toMatch(/^- 2025-12: /m); // the latest month keeps its own line
  });

  it('never drops user or feedback topics, and reports when they alone exceed the cap', async () => {
    const many = Array.from({ length: 120 }, (_, i) => topic(`user fact number ${i} about preferences`, i % 2 ? 'user' : 'feedback', 200, ['a', 'b']));
    const r = await root([{ month: '2026-01', topics: [...many, topic('side project', 'project', 100)] }], {}, 600);
    for (let i = 0; i < 120; i++) expect(r.body).toContain(`user fact number ${i} about preferences`);
    const index = r.body.split('## Topics Index')[1]!;
    expect(index).not.toContain('side project');
    expect(r.body.split('## Topics Index')[0]).toContain('side project'); // moved to the history line
    expect(r.overCap).toMatch(/over rootMaxTokens 600: .* user\/feedback topics are never dropped/);
  });
});
