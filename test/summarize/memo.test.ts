// The summarizer's memo is an object its owner (the daemon) keeps and passes in: bounded by the
// characters it holds, emptied by release, and never shared with a process that has none.
import { describe, expect, it } from 'vitest';
import { type SourceParts, SummaryMemo } from '../../src/summarize/memo.js';

const parts = (chars: number): SourceParts => ({ entries: [], texts: [], tfs: [], chars });

describe('SummaryMemo', () => {
  it('computes a source once, again after release, and never keeps one over an eighth of its room', () => {
    const memo = new SummaryMemo(800);
    let computed = 0;
    const get = (key: string, chars: number) =>
      memo.sourceParts(key, () => {
        computed++;
        return parts(chars);
      });
    get('a', 100);
    get('a', 100);
    expect(computed).toBe(1);
    get('big', 101); // over 800 / 8
    get('big', 101);
    expect(computed).toBe(3);
    memo.release();
    get('a', 100);
    expect(computed).toBe(4);
  });

  it('lets the least recently used sources go once its room is full', () => {
    const memo = new SummaryMemo(800);
    let computed = 0;
    const get = (key: string) =>
      memo.sourceParts(key, () => {
        computed++;
        return parts(100);
      });
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) get(k); // 800 characters: full
    get('a'); // used again: the newest
    get('i'); // 900 > 800: the oldest unused one (b) goes
    computed = 0;
    get('a');
    get('i');
    expect(computed).toBe(0);
    get('b');
    expect(computed).toBe(1);
  });

  it('keeps line shapes and keys until release', () => {
    const memo = new SummaryMemo(1000);
    let made = 0;
    const make = (t: string) => {
      made++;
      return t.toLowerCase();
    };
    expect(memo.key('Rollback When p99 Doubles', make)).toBe('rollback when p99 doubles');
    memo.key('Rollback When p99 Doubles', make);
    expect(made).toBe(1);
    memo.release();
    memo.key('Rollback When p99 Doubles', make);
    expect(made).toBe(2);
  });
});
