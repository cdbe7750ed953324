import { describe, expect, it } from 'vitest';
import { mergeTopics, TopicMerger, topTopicsByDays } from '../../src/summarize/topic-merge.js';
import type { TopicInfo } from '../../src/tree/topic.js';
import type { LocalDate } from '../../src/time/calendar.js';

const t = (name: string, lastSeen: string, keywords: string[], type: TopicInfo['type'] = 'project', days = 1): TopicInfo => ({
  name,
  type,
  lastSeen: lastSeen as LocalDate,
  days,
  keywords,
});

const months: TopicInfo[][] = [
  [t('parser', '2026-01-20', ['yaml', 'remark']), t('deploy', '2026-01-05', ['ci'])],
  [t('parser', '2026-02-11', ['remark', 'speed'], 'project', 3), t('tone', '2026-02-02', ['short'], 'feedback')],
  [t('deploy', '2026-03-30', ['ci', 'docker', 'cache']), t('parser', '2026-03-01', ['yaml'])],
  [t('tone', '2026-04-02', ['english'], 'feedback', 2)],
];

describe('merging topics', () => {
  it('counts days, keeps the latest last-seen and a non-project type, ranks shared keywords', () => {
    const merged = mergeTopics(months, 10);
    const parser = merged.find((x) => x.name === 'parser')!;
    expect(parser).toMatchObject({ days: 5, lastSeen: '2026-03-01' });
    // yaml: first in two months (1 + 1); remark: second, then first (0.9 + 1).
    expect(parser.keywords.slice(0, 3)).toEqual(['yaml', 'remark', 'speed']);
    expect(merged.find((x) => x.name === 'tone')).toMatchObject({ type: 'feedback', days: 3, lastSeen: '2026-04-02' });
  });

  it('a merge resumed from a copy equals a merge from scratch, and the copy leaves the original alone', () => {
    const settled = TopicMerger.empty().add(months[0]!).add(months[1]!);
    const resumed = settled.copy().add(months[2]!).add(months[3]!).result(10);
    expect(resumed).toEqual(mergeTopics(months, 10));
    expect(settled.result(10)).toEqual(mergeTopics(months.slice(0, 2), 10));
  });

  it('the top topics by days, with keywords, are what a full merge ranks first (random months)', () => {
    let seed = 5;
    const rand = (k: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    const words = ['api', 'cache', 'docs', 'queue', 'retry', 'index', 'auth', 'ui', 'db', 'cli'];
    for (let trial = 0; trial < 50; trial++) {
      const lists = Array.from({ length: 1 + rand(12) }, (_, m) => {
        const names = [...new Set(Array.from({ length: rand(15) }, () => `${words[rand(10)]} ${words[rand(10)]}`))];
        return names.map((name) =>
          t(
            name,
            `2026-${String(1 + (m % 12)).padStart(2, '0')}-1${rand(10)}`,
            Array.from({ length: rand(6) }, () => words[rand(10)]!),
            'project',
            1 + rand(9),
          ),
        );
      });
      for (const n of [1, 2, 4, 6]) {
        const full = mergeTopics(lists, Number.MAX_SAFE_INTEGER)
          .sort((a, b) => b.days - a.days || a.name.localeCompare(b.name))
          .slice(0, n);
        expect(topTopicsByDays(lists, n)).toEqual(full.map((x) => ({ name: x.name, keywords: x.keywords })));
      }
    }
  });
});
