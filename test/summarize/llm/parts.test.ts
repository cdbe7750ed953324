// Nodes too large for one request are sent in parts, split at their sections, in order.
import { describe, expect, it } from 'vitest';
import { evenParts, packParts, sourceUnits } from '../../../src/summarize/llm/parts.js';
import type { SourceDoc } from '../../../src/summarize/summarizer.js';
import { composeNodeBody, checkNodeAnswer, type NodeAnswer } from '../../../src/summarize/llm/validate.js';

/** The packaged daily template's sections. */
const SECTIONS = ['Topics', 'User Facts', 'User Facts (from conversations)', 'Feedback', 'Key Decisions', 'Open Items', 'Highlights'];
const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;
const day = (n: number): SourceDoc => ({
  label: '2026-03-15',
  path: 'memory/2026-03-15.md',
  level: 'raw',
  text: [
    '# 2026-03-15',
    ...Array.from({ length: n }, (_, i) => `## Session ${i + 1}\nUser: fact number ${i + 1} about my week\nAssistant: noted`),
  ].join('\n'),
  firstLine: 1,
});

describe('parts', () => {
  it('splits sources at their top-level sections, keeping label and path', () => {
    const units = sourceUnits([day(3)]);
    expect(units.map((u) => u.text.split('\n')[0])).toEqual(['# 2026-03-15', '## Session 1', '## Session 2', '## Session 3']);
    expect(new Set(units.map((u) => u.path))).toEqual(new Set(['memory/2026-03-15.md']));
  });

  it('packs sections in order into as few parts as fit, and gives up past maxParts', () => {
    const units = sourceUnits([day(12)]);
    const parts = packParts(units, 40, words, 2, 10)!;
    expect(parts.length).toBeGreaterThan(1);
    // Every session once, in order; one source document per part.
    const joined = parts.map((p) => p.map((s) => s.text).join('\n')).join('\n');
    expect(joined.match(/fact number \d+/g)).toEqual(Array.from({ length: 12 }, (_, i) => `fact number ${i + 1}`));
    for (const p of parts) {
      expect(p).toHaveLength(1);
      expect(words(p[0]!.text)).toBeLessThanOrEqual(40);
    }
    expect(packParts(units, 40, words, 2, 2)).toBeNull();
  });

  it('splits into n even runs when packing needs too many parts', () => {
    const parts = evenParts(sourceUnits([day(12)]), 3);
    expect(parts).toHaveLength(3);
    expect(parts.map((p) => p[0]!.text.match(/fact number \d+/g)!.length)).toEqual([4, 4, 4]);
  });

  it('merges the answers of the parts: same sections once, repeated lines once, topics together', () => {
    const a = checkNodeAnswer('## Topics\n- week [user]: facts\n\n## User Facts\n- fact 1\n- fact 2', 'stop', 0, SECTIONS) as {
      ok: true;
      value: NodeAnswer;
    };
    const b = checkNodeAnswer(
      '## Topics\n- week [user]: sessions\n- pets [user]: cat\n\n## User Facts\n- fact 2\n- fact 3\n\n## Open Items\n- book the vet',
      'stop',
      0,
      SECTIONS,
    ) as { ok: true; value: NodeAnswer };
    const body = composeNodeBody([a.value, b.value], '# Daily Summary: 2026-03-15 (Sun)', [], { sections: SECTIONS, feedback: [] });
    expect(body.ok && body.value).toBe(
      '# Daily Summary: 2026-03-15 (Sun)\n\n## Topics\n- week [user]: facts, sessions\n- pets [user]: cat\n\n## User Facts\n- fact 1\n- fact 2\n- fact 3\n\n## Open Items\n- book the vet\n',
    );
  });
});
