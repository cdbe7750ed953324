// The analysis of a node's sources is shared between cycles of a resident process (parts of
// unchanged sources are reused): it must equal a fresh analysis, and follow the rules.
import { describe, expect, it } from 'vitest';
import { analyzeSources, dayTopics, type Analysis } from '../../src/summarize/analyze.js';
import type { LocalDate } from '../../src/time/calendar.js';
import { SummaryMemo } from '../../src/summarize/memo.js';
import { ExclusionRules } from '../../src/summarize/exclusion.js';
import { isRandomWord } from '../../src/redact/entropy.js';
import type { SourceDoc } from '../../src/summarize/summarizer.js';

const day = (date: string, sections: Record<string, string[]>): SourceDoc => ({
  label: date,
  path: `memory/daily/${date}.md`,
  level: 'daily',
  text: Object.entries(sections)
    .map(([h, items]) => `## ${h}\n${items.map((i) => `- ${i}`).join('\n')}\n`)
    .join('\n'),
  firstLine: 7,
});

const view = (a: Analysis) =>
  a.entries.map((e) => ({
    heading: e.heading,
    topic: a.topicOf.get(e) ?? null,
    text: a.textOf.get(e),
    tf: [...a.tfOf.get(e)!],
    idf: a.stats.idf('limiter'),
  }));

describe('analyzeSources in a resident process', () => {
  const memo = new SummaryMemo();
  const monday = day('2026-03-09', {
    'rate limiter [project]': ['decided: token bucket, 100 req/s per key'],
    'scratch [project]': ['temporary: delete later'],
  });
  const tuesday = day('2026-03-10', { 'rate limiter [project]': ['shipped the limiter behind a flag'] });
  const rules = new ExclusionRules();

  it('gives the same analysis when a week is re-analysed with one day changed', () => {
    analyzeSources([monday, tuesday], rules, memo);
    const changed = day('2026-03-10', { 'rate limiter [project]': ['shipped the limiter behind a flag', 'rolled back: p99 doubled'] });
    const reused = analyzeSources([{ ...monday }, changed], rules, memo);
    // What a process without a memo computes (new lists: not the analyses above).
    const fresh = analyzeSources([{ ...monday }, { ...changed }], rules);
    expect(view(reused)).toEqual(view(fresh));
    expect(reused.entries.map((e) => e.items.map((i) => i.text))).toContainEqual([
      'shipped the limiter behind a flag',
      'rolled back: p99 doubled',
    ]);
  });

  it('does not reuse parts across different exclusion rules', () => {
    const plain = analyzeSources([day('2026-03-11', { 'db [project]': ['migrated to postgres', 'draft idea (scratchpad)'] })], rules, memo);
    const strict = analyzeSources(
      [day('2026-03-11', { 'db [project]': ['migrated to postgres', 'draft idea (scratchpad)'] })],
      new ExclusionRules(['scratchpad']),
      memo,
    );
    expect(plain.entries.flatMap((e) => e.items.map((i) => i.text))).toContain('draft idea (scratchpad)');
    expect(strict.entries.flatMap((e) => e.items.map((i) => i.text))).not.toContain('draft idea (scratchpad)');
  });
});

describe("a day's topic keywords", () => {
  it('name a word once, whether it was written in the singular or the plural', () => {
    const a = analyzeSources(
      [
        day('2026-06-25', {
          'recipe [project]': [
            'pickled cucumbers with dill, two cucumbers per jar',
            'one cucumber salad with fresh dill for the picnic',
            'cucumbers keep a week in a sealed container',
            'more recipes with cucumber and yoghurt',
          ],
        }),
      ],
      new ExclusionRules(),
    );
    const [topic] = dayTopics(a, '2026-06-25' as LocalDate, 10);
    expect(topic!.name).toBe('recipe');
    const words = topic!.keywords;
    expect(words.filter((w) => w.startsWith('cucumber'))).toHaveLength(1);
    // The topic's own name is not repeated as a keyword, in either number.
    expect(words).not.toContain('recipes');
    expect(words).toEqual(expect.arrayContaining(['dill']));
  });

  it("name things: never a verb's past form or an adverb, however often it is written", () => {
    const a = analyzeSources(
      [
        day('2026-06-27', {
          'search index [project]': [
            'built the synonym dictionary, built it again automatically after the limited catalog changed',
            'the dictionary is rebuilt automatically; the family plan changed the limited catalog',
            'built a rollback for the dictionary, tested automatically on the limited catalog',
          ],
        }),
      ],
      new ExclusionRules(),
    );
    const [topic] = dayTopics(a, '2026-06-27' as LocalDate, 10);
    // A word that only ends like one stays: "family", "limited".
    expect(topic!.keywords).toEqual(expect.arrayContaining(['dictionary', 'catalog', 'family', 'limited']));
    expect(topic!.keywords.filter((w) => /ed$|ly$/.test(w) && w !== 'family' && w !== 'limited')).toEqual([]);
  });

  it('name things: never an irregular past form either ("known", "felt", "wrote")', () => {
    const a = analyzeSources(
      [
        day('2026-06-28', {
          'ceramics class [project]': [
            'wrote the glaze notes; the kiln was known to run hot, felt the clay dry too fast',
            'wrote down the kiln schedule again; known glaze faults felt worse on stoneware',
            'the glaze on stoneware felt gritty, as known; wrote the kiln log',
          ],
        }),
      ],
      new ExclusionRules(),
    );
    const [topic] = dayTopics(a, '2026-06-28' as LocalDate, 10);
    expect(topic!.keywords).toEqual(expect.arrayContaining(['glaze', 'kiln', 'stoneware']));
    expect(topic!.keywords.filter((w) => ['wrote', 'known', 'felt'].includes(w))).toEqual([]);
  });

  it('are never a random token, a hash or an id, however often it is written', () => {
    const a = analyzeSources(
      [
        day('2026-06-26', {
          'split key [reference]': [
            'the token is [REDACTED:secret]',
            'u3Xy9Qw8Er7Ty6Ui5Op4Bz was the rest of the token, u3Xy9Qw8Er7Ty6Ui5Op4Bz again',
            'deployed 9f3c2a7e1b to the staging cluster, then 9f3c2a7e1b to production',
            'the staging cluster runs the deploy pipeline',
          ],
        }),
      ],
      new ExclusionRules(),
    );
    const [topic] = dayTopics(a, '2026-06-26' as LocalDate, 10);
    expect(topic!.name).toBe('split key');
    expect(topic!.keywords).not.toContain('u3xy9qw8er7ty6ui5op4bz');
    expect(topic!.keywords).not.toContain('9f3c2a7e1b');
    expect(topic!.keywords).toEqual(expect.arrayContaining(['staging', 'cluster']));
    // Names and versions that mix letters and digits stay words.
    expect(['x86_64', 'win10x64', 'covid19', 'sha256', 'gpt-4o-mini', 'es2022', 'deadbeef'].filter(isRandomWord)).toEqual([]);
  });
});
