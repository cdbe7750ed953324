import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { backtrackingRisk } from '../../src/config/regex-safety.js';

// A run inside a repeated group that must end at a separator it cannot match, in the same
// repetition or first in the next: each with a near miss (many repetitions, then a wrong ending)
// and a match (the right one), and what a match attempt at the start finds (characters), nothing
// on a near miss unless said.
const SEPARATED = [
  { pattern: '(?:[a-z0-9-]+\\.)+example\\.com', unit: 'a-b.', miss: 'example.co', match: 'example.com' },
  { pattern: '(?:[a-z0-9-]+\\.)+example\\.com', unit: 'a.', miss: '!', match: 'example.com' },
  { pattern: '(?:\\w+\\.)+corp\\.internal', unit: 'a_1.', miss: 'corp.interna', match: 'corp.internal' },
  { pattern: '(?:[A-Z0-9]+-)+KEY', unit: 'A1-', miss: 'KE', match: 'KEY' },
  { pattern: '(\\d{3}-)+\\d{4}', unit: '123-', miss: '12', match: '1234' },
  // A near miss still matches here, short of the wrong ending: the repetitions but their last `:`.
  { pattern: '(?:[a-f0-9]{2}:)+[a-f0-9]{2}', unit: 'ab:', miss: 'g', match: '0f', missFound: -1 },
  // The separator starts each repetition: the run before it must stop there.
  { pattern: '[a-z]+(?:\\.[a-z]+)+$', unit: 'ab.', miss: '!', match: 'ab' },
  { pattern: '\\w+(?:-\\w+)+$', unit: 'a_1-', miss: '!', match: 'end' },
  { pattern: '[A-Z0-9]+(?:_[A-Z0-9]+)*$', unit: 'A1_', miss: '!', match: 'KEY' },
  { pattern: '(?:\\.[a-z0-9-]+)+\\.example\\.com', unit: '.a-b', miss: '.example.co', match: '.example.com' },
  { pattern: '(?:\\.[a-z]+)+\\.com', unit: '.ab', miss: '.co', match: '.com' },
  { pattern: '(?:\\.[a-z]+|-[0-9]+)+;', unit: '.ab-12', miss: '!', match: ';' },
  // After the last repetition the run may give characters back to what follows: once, not each time.
  { pattern: '(?:\\.[a-z]+)+[a-z]!', unit: '.ab', miss: '?', match: '!' },
];

// Runs in a child process: a pattern that backtracks exponentially never returns, and a hang in
// this process would stall the test runner rather than fail the test.
const RUN = `
const cases = JSON.parse(process.argv[1]);
const n = Number(process.argv[2]);
const found = (pattern, text) => new RegExp(pattern, 'y').exec(text)?.[0].length ?? null;
const out = cases.map(({ pattern, unit, miss, match }) => [found(pattern, unit.repeat(n) + miss), found(pattern, unit.repeat(n) + match)]);
console.log(JSON.stringify(out));
`;

describe('backtrackingRisk', () => {
  // Engines newer than Node 20 accept modifier groups; this one only reads the pattern's text.
  it('compares characters as a modifier group reads them: case ignored, a dot matching newlines', () => {
    expect(backtrackingRisk('(?:a|A)+b')).toBeNull();
    expect(backtrackingRisk('(?i:(?:a|A)+b)')).toMatch(
      /alternatives 1 and 2 of the group at character 5 can start with the same character/,
    );
    expect(backtrackingRisk('(?:.|\\n)+b')).toBeNull();
    expect(backtrackingRisk('(?s:(?:.|\\n)+b)')).toMatch(
      /alternatives 1 and 2 of the group at character 5 can start with the same character/,
    );
    // Turning a flag off leaves the pattern as plain as it was.
    expect(backtrackingRisk('(?-i:(?:a|A)+b)')).toBeNull();
  });

  it('accepts a run in a repeated group that must end at a separator it cannot match', () => {
    for (const { pattern } of SEPARATED) expect({ pattern, risk: backtrackingRisk(pattern) }).toEqual({ pattern, risk: null });
  });

  it('runs those patterns over near misses of 20,000 repetitions at once (one way to split them)', () => {
    // An exponential pattern takes seconds on a near miss of 30 characters; these get 40,000 or more.
    const n = 20_000;
    const r = spawnSync(process.execPath, ['-e', RUN, JSON.stringify(SEPARATED), String(n)], { encoding: 'utf8', timeout: 20_000 });
    expect(r.signal).toBeNull();
    const repeated = (c: (typeof SEPARATED)[number]) => c.unit.length * n;
    const expected = SEPARATED.map((c) => [c.missFound === undefined ? null : repeated(c) + c.missFound, repeated(c) + c.match.length]);
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it('refuses a run whose separator is optional or one it can match, and the other shapes as before', () => {
    const NESTED = /^repeats a group in which a choice is not settled by the next character/;
    for (const p of ['(a+)+', '(\\w*\\s?)*', '(?:[a-z0-9-]+\\.?)+x', '(?:[a-z.]+\\.)+x', '(?:\\w+\\s*)+$', '(?:\\w+\\b)+'])
      expect({ p, why: backtrackingRisk(p) }).toEqual({ p, why: expect.stringMatching(NESTED) });
    // Refused too, some only to be careful: a separator only looked at, runs that split each other, a
    // separator the next run matches.
    for (const p of ['(?:[a-z]+(?=\\.))+', '(?:(?:[a-z]+|[0-9]+)+\\.)+', '(?:[a-z]*[a-z]+\\.)+', '(?:(?:[a-z]+\\.)+x)+'])
      expect({ p, why: backtrackingRisk(p) }).toEqual({ p, why: expect.stringMatching(NESTED) });
    // A run ending its repetition where the next need not start with a character it cannot match: the
    // separator is optional or one of the run's, another alternative or an assertion starts with the
    // run, a repetition can be empty, what may still come can start the next (`.a.x` is one repetition
    // or two), or the repeated group is a run that what follows it can continue.
    for (const p of [
      '(?:\\.?[a-z]+)+x',
      '(?:\\.[a-z.]+)+x',
      '(?:-\\w+|\\w+)+',
      '(?:\\.[a-z]+|[0-9]+)+',
      '(?:\\b[a-z]+)+',
      '(?:\\.[a-z]+|)+',
      '(?:\\.[a-z]+(?:\\.x|))+',
      '(?:\\.[a-z]+[.0-9]*)+',
      '(?:(?:\\.[a-z]+)+[a-z])+',
    ])
      expect({ p, why: backtrackingRisk(p) }).toEqual({ p, why: expect.stringMatching(NESTED) });
    for (const p of ['(\\w|\\d)+', '(?:\\s|\\t)+', '(\\w\\w?)+', '(a{1,3})+'])
      expect({ p, why: backtrackingRisk(p) }).not.toEqual({ p, why: null });
    expect(backtrackingRisk('(?:[a-z0-9-]+\\.?)+x')).toMatch(
      /\(the repeat at character 4 can go on with a character that can also come after it\)/,
    );
    expect(backtrackingRisk('[a-z]+(?:\\.?[a-z]+)+')).toMatch(
      /\(the repeat at character 13 can go on with a character that can also come after it\)/,
    );
    // Case ignored, `k` is one of `[A-Z]`.
    expect(backtrackingRisk('(?:[A-Z]+k)+')).toBeNull();
    expect(backtrackingRisk('(?i:(?:[A-Z]+k)+)')).toMatch(NESTED);
    expect(backtrackingRisk('(?:K[a-z]+)+')).toBeNull();
    expect(backtrackingRisk('(?i:(?:K[a-z]+)+)')).toMatch(NESTED);
  });

  it('checks the runs of a group repeated 3 to 16 times too, and leaves a fixed split alone', () => {
    const NESTED = /^repeats a group in which a choice is not settled by the next character/;
    // k repetitions split a run of n characters in (n choose k) ways: `(a+){1,16}x` takes seconds on 24 a's.
    for (const p of ['(a+){1,16}x', '(a+){3}x', '((a+){2}){2}x', '(?:\\w+\\s?){3}!', '(?:[a-z]+\\.?){2,5}x'])
      expect({ p, why: backtrackingRisk(p) }).toEqual({ p, why: expect.stringMatching(NESTED) });
    // Twice is `a+a+`, as cheap as any two runs side by side; a bounded part or a separator fixes the split.
    for (const p of ['(a+){2}x', '(\\d{3}-){2}\\d{4}', '(?:\\d{1,3}\\.){3}\\d{1,3}', '(?:[a-z]+\\.){1,16}com', '(?:\\.[a-z]+){1,16}'])
      expect({ p, risk: backtrackingRisk(p) }).toEqual({ p, risk: null });
  });

  it('counts the choices left open in a group repeated more than twice: 256 ways at most, none without bound', () => {
    const CHOICE = '^repeats a group in which a choice is not settled by the next character';
    // On near misses of 20 to 60 characters each takes from 0.15 s to over 10 s (measured on V8), but `{9}`, just past
    // the limit: 18 ms on 40 digits.
    const refused: [string, string][] = [
      [
        '(\\w|\\d){1,16}x',
        'alternatives 1 and 2 of the group at character 1 can start with the same character\\), so a line can match it in up to 65536 ways',
      ],
      ['(\\w|\\d){9}x', 'alternatives 1 and 2 .*in up to 512 ways'],
      ['((\\w|\\d){8}){2}x', 'alternatives 1 and 2 of the group at character 2 .*in up to 65536 ways'],
      ['(a{1,16}){1,16}x', 'the repeat at character 2 can go on with a character that can also come after it\\), .*in over a million ways'],
      ['(?:[a-z]{1,4}){8}!', 'the repeat at character 4 can go on .*in up to 65536 ways'],
      [
        '(?:\\.[a-z](?:\\.x|))+',
        'alternative 2 of the group at character 11 can match nothing, and alternative 1 can start with a character that can ' +
          'also come after the group\\), so a line can match it in more ways the longer it is',
      ],
      ['(?:\\.[a-z](?:-x|\\.y|))+!', 'alternative 3 of the group at character 11 can match nothing, and alternative 2 can start'],
      ['(?:\\.[a-z](?:\\.x)?)+!', 'the optional part at character 11 can start with a character that can also come after it'],
      ['(?:\\.[a-z](?:\\.x)?){3,}!', 'the optional part at character 11 can start'],
      // Quadratic only, but a lookaround is tried again at each repetition: over 10 s on 3,000 characters.
      ['(?:(?=[a-z]+\\.)x)+!', 'the lookaround at character 4 holds a repeat without bound'],
    ];
    for (const [p, why] of refused)
      expect({ p, why: backtrackingRisk(p) }).toEqual({ p, why: expect.stringMatching(new RegExp(`${CHOICE} \\(${why}`)) });
    // A few ways each time, or a choice the next character settles: `-` or `.` after a letter, the next repetition's `.`.
    const accepted = [
      '(\\w|\\d){8}x',
      '(?:\\.[a-z](?:-x|))+!',
      '(?:[a-z](?:\\.x)?)+!',
      '(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)',
      '\\b(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\b',
      '(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}',
      '(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}',
      '[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}',
      '[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?',
      '\\b(?:\\d{4}[ -]?){3}\\d{4}\\b',
      '[\\w.+-]+@(?:[a-z0-9-]+\\.)+[a-z]{2,}',
      'eyJ[\\w-]+\\.eyJ[\\w-]+\\.[\\w-]+',
      '(?:(?!\\.\\.)[a-z.])+@example\\.com',
    ];
    for (const p of accepted) expect({ p, risk: backtrackingRisk(p) }).toEqual({ p, risk: null });
  });
});
