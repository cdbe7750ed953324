// What of the sources is sent: exclusions first, then fitting to the input budget.
import { describe, expect, it } from 'vitest';
import { ExclusionRules } from '../../../src/summarize/exclusion.js';
import { applyExclusions, capAssistantTurns, fitSources } from '../../../src/summarize/llm/prepare.js';
import type { SourceDoc } from '../../../src/summarize/summarizer.js';
import { loadTokenCounter } from '../../../src/text/tokens.js';
import { NAMED_USER_WEEK } from '../../helpers/conversation.js';

const rules = new ExclusionRules(['scratchpad']);

describe('applyExclusions', () => {
  it('drops code blocks, stack traces, ephemeral sections and ephemeral lines; keeps the rest', () => {
    const text = [
      '# 2026-03-15',
      '## Auth [project]',
      '- switched to JWT',
      '```ts',
      'const secretSauce = 1;',
      '```',
      'TypeError: x is undefined',
      '    at refresh (src/auth.ts:10:5)',
      '- temporary: try the old client',
      '## Test run of the importer [project]',
      '- imported 3 rows',
      '### details',
      '- more rows',
      '## Scratchpad notes',
      '- junk',
      '## Cat [user]',
      '- my cat is Luna',
    ].join('\n');
    const out = applyExclusions(text, rules);
    expect(out).toContain('- switched to JWT');
    expect(out).toContain('TypeError: x is undefined');
    expect(out).toContain('## Cat [user]\n- my cat is Luna');
    for (const gone of ['secretSauce', 'auth.ts:10', 'old client', 'imported 3 rows', 'more rows', 'junk']) expect(out).not.toContain(gone);
  });
});

describe('fitting sources to the budget', () => {
  const transcript = (answerLines: number): string =>
    [
      '## Session 1',
      'User: I adopted a golden retriever named Max last week.',
      'Assistant: Congratulations!',
      ...Array.from({ length: answerLines }, (_, i) => `- general advice number ${i} about puppies and training routines`),
      'User: He is 12 weeks old.',
      'Assistant: Great age.',
    ].join('\n');

  it('cuts assistant answers, never the user turns', () => {
    const out = capAssistantTurns(transcript(40), 120);
    expect(out).toContain('User: I adopted a golden retriever named Max last week.');
    expect(out).toContain('User: He is 12 weeks old.');
    expect(out).not.toContain('advice number 39');
    expect(out).toMatch(/\[… \d+ more lines of the answer\]/);
  });

  it("reads a weekly node's days each with its own speakers", () => {
    const week = NAMED_USER_WEEK.join('\n');
    const out = capAssistantTurns(week, 0);
    expect(out).toContain('Dana: I live in a flat on the 3rd floor.');
    expect(out).not.toContain('Congratulations');
  });

  it('knows an answer by its heading too (`### Assistant`), as exporters write turns', () => {
    const chat = transcript(40).replace(/^(User|Assistant): /gm, '### $1\n');
    const out = capAssistantTurns(chat, 120);
    expect(out).toContain('He is 12 weeks old.');
    expect(out).not.toContain('advice number 39');
  });

  it('sends sources unchanged when they fit, condensed when they do not, within the budget', async () => {
    const count = await loadTokenCounter();
    const src: SourceDoc[] = [{ label: '2026-03-15', path: 'memory/2026-03-15.md', level: 'raw', text: transcript(400), firstLine: 1 }];
    const render = (s: readonly SourceDoc[]): string => s.map((d) => d.text).join('\n');
    const roomy = fitSources(src, 100_000, count, render);
    expect(roomy.condensed).toBeNull();
    expect(roomy.sources[0]!.text).toBe(src[0]!.text);

    const tight = fitSources(src, 400, count, render);
    expect(tight.tokens).toBeLessThanOrEqual(400);
    expect(tight.condensed).toMatch(/assistant answers cut/);
    expect(tight.sources[0]!.text).toContain('He is 12 weeks old');
  });

  it('truncates every source to its share when cutting answers is not enough, saying so', async () => {
    const count = await loadTokenCounter();
    const notes = Array.from({ length: 300 }, (_, i) => `- note ${i}: the deploy pipeline step ${i} ran with cache warmup`).join('\n');
    const src: SourceDoc[] = [
      { label: 'a', path: 'a.md', level: 'daily', text: notes, firstLine: 1 },
      { label: 'b', path: 'b.md', level: 'daily', text: notes, firstLine: 1 },
    ];
    const fitted = fitSources(src, 1500, count, (s) => s.map((d) => d.text).join('\n'));
    expect(fitted.tokens).toBeLessThanOrEqual(1500);
    expect(fitted.condensed).toMatch(/truncated/);
    for (const s of fitted.sources) {
      expect(s.text.startsWith('- note 0:')).toBe(true);
      expect(s.text).toMatch(/more lines not sent: over the input budget\]$/);
    }
  });
});
