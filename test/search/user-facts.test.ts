// The user's facts that bear on a request: the monthly nodes' User Facts lines that share the most
// words with it, read through the index (real compaction, real SQLite index).
import { describe, expect, it } from 'vitest';
import { compact } from '../../src/cycle/compaction.js';
import { updateIndex } from '../../src/index/update.js';
import { userFactsFor } from '../../src/search/user-facts.js';
import { SHEDDING_DAYS, SUMMARIZE_SHORT_DAYS, statementDay } from '../helpers/conversation.js';
import { indexOf } from '../helpers/search.js';
import { configOf, makeWorkspace, type TestWorkspace } from '../helpers/workspace.js';

async function workspace(): Promise<TestWorkspace> {
  const ws = makeWorkspace(
    {
      ...SHEDDING_DAYS,
      'memory/2026-03-16.md': statementDay(
        '2026-03-16',
        'I drive a Ford F-150 pickup truck to the job site every day.',
        'a budget spreadsheet',
      ),
    },
    { timeZone: 'UTC', compaction: SUMMARIZE_SHORT_DAYS },
  );
  await compact(ws, configOf(ws), { catchUp: true, now: '2026-03-20' });
  return ws;
}

describe('userFactsFor', () => {
  it("finds the user's fact a request depends on without naming it, with its monthly node and line", async () => {
    const ws = await workspace();
    const index = indexOf(ws);
    await updateIndex(index);
    try {
      const facts = userFactsFor(index, 'Which vacuum copes best with long hair shedding on a sofa?', 3);
      expect(facts.length).toBeGreaterThan(0);
      const top = facts[0]!;
      expect(top.text).toContain('My golden retriever Max sheds long hair');
      expect(top.path).toBe('memory/monthly/2026-03.md');
      // The line named is the line the node holds.
      expect(ws.read(top.path).split('\n')[top.line - 1]).toContain(top.text);
      // A fact that shares no word with the request is not shown for it.
      expect(facts.map((f) => f.text).join('\n')).not.toContain('lighter shade of gray');

      const truck = userFactsFor(index, 'new tires for my pickup truck', 3);
      expect(truck[0]?.text).toContain('Ford F-150 pickup truck');
    } finally {
      index.close();
    }
  });

  it('gives nothing when asked for none, or for a request of stop words', async () => {
    const ws = await workspace();
    const index = indexOf(ws);
    await updateIndex(index);
    try {
      expect(userFactsFor(index, 'long hair shedding on a sofa', 0)).toEqual([]);
      expect(userFactsFor(index, 'what is it', 3)).toEqual([]);
    } finally {
      index.close();
    }
  });
});
