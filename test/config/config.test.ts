import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultConfig, loadConfig } from '../../src/config/config.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

/** Dotted paths of the settings in `defaultConfig()` whose value satisfies `pick`. */
function settingPaths(pick: (v: unknown) => boolean, o: unknown = defaultConfig(), at = ''): string[] {
  return Object.entries(o as Record<string, unknown>).flatMap(([k, v]) => {
    const where = at ? `${at}.${k}` : k;
    if (pick(v)) return [where];
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? settingPaths(pick, v, where) : [];
  });
}

/** `{a: {b: value}}` for the path `a.b`. */
function nested(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reverse()
    .reduce((inner, k) => ({ [k]: inner }), value) as Record<string, unknown>;
}

function messageOf(load: () => unknown): string {
  try {
    load();
    return 'accepted';
  } catch (err) {
    return (err as Error).message;
  }
}

function loadError(config: Record<string, unknown>): string {
  const ws = makeWorkspace({}, config);
  try {
    loadConfig(ws.root);
    return 'accepted';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('hipo.config.json', () => {
  it('overlays user settings on the defaults', () => {
    const ws = makeWorkspace({}, { timeZone: 'Asia/Seoul', compaction: { rootMaxTokens: 2000, limits: { daily: 3 } } });
    const { config, warnings } = loadConfig(ws.root);
    expect(config.timeZone).toBe('Asia/Seoul');
    expect(config.compaction.rootMaxTokens).toBe(2000);
    expect(config.compaction.limits).toEqual({ daily: 3, weekly: 1, monthly: 1, root: 1 });
    expect(config.compaction.thresholds).toEqual({ daily: 200, weekly: 300, monthly: 500 });
    expect(warnings).toEqual([]);
  });

  it('never quotes a redaction pattern in an error: it may be the secret itself', () => {
    for (const secret of ['sk-live-4f9(Zq81', '(sk-live-4f9\\w+)+x']) {
      const ws = makeWorkspace({}, { timeZone: 'UTC', redactPatterns: ['ok', secret] });
      let message = '';
      try {
        loadConfig(ws.root);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/"redactPatterns" entry 2 /);
      expect(message).not.toContain('sk-live');
    }
  });

  it('names the file and the key in every error', () => {
    const bad = (cfg: unknown, pattern: RegExp) => {
      const ws = makeWorkspace({}, null as never);
      ws.write('hipo.config.json', typeof cfg === 'string' ? cfg : JSON.stringify(cfg));
      expect(() => loadConfig(ws.root)).toThrow(ConfigError);
      expect(() => loadConfig(ws.root)).toThrow(pattern);
    };
    bad('{ "timeZone": ', /hipo\.config\.json: is not valid JSON/);
    bad({ timeZone: 'Mars/Olympus' }, /hipo\.config\.json: "timeZone" is not an IANA time zone: "Mars\/Olympus"/);
    bad({ compaction: { rootMaxTokens: 'lots' } }, /"compaction\.rootMaxTokens" must be a non-negative number/);
    bad({ compaction: { limits: { daily: 0 } } }, /"compaction\.limits\.daily" must be a whole number of at least 1/);
    bad({ redactPatterns: ['ok', '(unclosed'] }, /"redactPatterns" entry 2 is not a valid regular expression \(Unterminated group\)$/);
    bad({ redactPatterns: ['(a+)+$'] }, /"redactPatterns" entry 1 repeats a group in which a choice is not settled by the next character/);
    bad({ redactPatterns: ['(?:[a-z]+\\s?)*!'] }, /nested quantifiers/);
    bad({ maxFileBytes: 1000 }, /"maxFileBytes" must be a whole number of at least 65536/);
    bad({ maxFileBytes: 70_000.5 }, /"maxFileBytes" must be a whole number from 65536 to 268435456/);
    bad({ search: { expand: { maxQueries: 20 } } }, /"search\.expand\.maxQueries" must be at most 8$/);
    bad({ search: { expand: { maxQueries: 2.5 } } }, /"search\.expand\.maxQueries" must be a whole number from 1 to 8$/);
    bad({ agents: { contextTokens: 150.5 } }, /"agents\.contextTokens" must be a whole number from 100 to 1000000/);
    bad({ compaction: { activeContextDays: 1e12 } }, /"compaction\.activeContextDays" must be at most 3650$/);
    bad(
      { daemon: { debounceMs: 2 ** 31 } },
      /"daemon\.debounceMs" must be at most 2147483647 \(the longest a Node timer waits, about 24\.8 days\)/,
    );
    bad({ search: { expand: { enabled: 'yes' } } }, /"search\.expand\.enabled" must be true or false/);
    bad({ daemon: { cacheMB: -4 } }, /"daemon\.cacheMB" must be a non-negative number/);
    bad({ daemon: { releaseAfterMs: 'soon' } }, /"daemon\.releaseAfterMs" must be a non-negative number/);
  });

  it('checks every entry of every list: a number or null in one is an error naming the key and the entry', () => {
    const lists = settingPaths(Array.isArray);
    expect(lists).toEqual(expect.arrayContaining(['compaction.ephemeralMarkers', 'redactPatterns', 'llm.levels', 'search.include']));
    for (const key of lists) {
      const message = loadError({ timeZone: 'UTC', ...nested(key, ['daily', 5]) });
      expect({ key, message }).toEqual({
        key,
        message: expect.stringMatching(/hipo\.config\.json: "[\w.]+" entry 2 must be a string, got a number$/),
      });
      expect(message).toContain(`"${key}" entry 2`);
    }
    expect(loadError({ compaction: { ephemeralMarkers: [1, null] } })).toMatch(
      /"compaction\.ephemeralMarkers" entry 1 must be a string, got a number/,
    );
    expect(loadError({ compaction: { ephemeralMarkers: ['tmp', null] } })).toMatch(/entry 2 must be a string, got null/);
    expect(loadError({ redactPatterns: ['ok', { sk: 'live-4f9' }] })).toMatch(/"redactPatterns" entry 2 must be a string, got an object$/);
  });

  it('a bad list entry stops context and compact with exit 2, not a crash', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', compaction: { ephemeralMarkers: ['tmp', 5] } });
    for (const cmd of [['context'], ['compact']]) {
      const r = runCli([...cmd, '--dir', ws.root, '--now', '2026-06-03']);
      expect({ cmd, code: r.code }).toEqual({ cmd, code: 2 });
      expect(r.stderr).toContain(`${ws.root}/hipo.config.json: "compaction.ephemeralMarkers" entry 2 must be a string, got a number`);
    }
  });

  it('bounds every numeric setting from above: a zero too many is an error, not a hang', () => {
    const numeric = [...settingPaths((v) => typeof v === 'number'), 'search.hybrid.vectorWeight'];
    expect(numeric.length).toBeGreaterThan(40);
    for (const key of numeric) {
      const message = loadError({ timeZone: 'UTC', ...nested(key, 1e12) });
      const expected = key.startsWith('compaction.rootShares.') ? /must be a number from 0 to 1$/ : /must be at most \d+/;
      expect({ key, message }).toEqual({ key, message: expect.stringMatching(expected) });
      expect(message).toContain(`hipo.config.json: "${key}"`);
    }
  });

  it('holds every setting in milliseconds to what a Node timer can wait', () => {
    const timers = settingPaths((v) => typeof v === 'number').filter((k) => k.endsWith('Ms'));
    expect(timers).toEqual(expect.arrayContaining(['lockWaitMs', 'daemon.debounceMs', 'daemon.releaseAfterMs', 'llm.timeoutMs']));
    for (const key of timers) {
      expect({ key, message: loadError({ timeZone: 'UTC', ...nested(key, 2 ** 31 - 1) }) }).toEqual({ key, message: 'accepted' });
      expect(loadError({ timeZone: 'UTC', ...nested(key, 2 ** 31) })).toContain(`"${key}" must be at most 2147483647`);
    }
  });

  it('compact --catch-up with a window of 10^12 days stops at once on the config', () => {
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': '# 2026-06-01\n\n## work [project]\n- a line\n' },
      { timeZone: 'UTC', compaction: { activeContextDays: 1e12 } },
    );
    const r = runCli(['compact', '--catch-up', '--now', '2026-06-03', '--dir', ws.root], { timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"compaction.activeContextDays" must be at most 3650');
  });

  it('accepts realistic redaction patterns that cannot backtrack catastrophically', () => {
    const safe = [
      'ACME-[0-9]{8}',
      'ACME-[A-Z0-9]{20}',
      'acct_\\d{8}',
      '(?:foo|bar)-\\d+',
      '\\bsk-[A-Za-z0-9]{20,}',
      'password:\\s*\\S+',
      'token=[^&\\s]+',
      '(?:key|secret)=\\S+',
      '(?:prod|staging)\\.internal\\.example\\.com',
      // One way only: an iteration is two letters and two digits, and a space never starts one.
      '(?:[A-Z]{2}\\d{2}\\s?)+',
      '(?:\\d{3}-?)+',
      '(?:[0-9a-f]{2}:?)+',
      '(?:\\w|-)+\\.corp\\.example',
      '"(?:[^"\\\\]|\\\\.)*"',
      'BEGIN(?:.|\\n)*?END',
      '(?<=badge )\\d{8}',
      '\\b\\d{3}-\\d{2}-\\d{4}\\b',
      '(?:\\d{1,3}\\.){3}\\d{1,3}',
      '[\\w.+-]+@example\\.com',
      '(?:https?|ftp)://internal\\.\\S+',
      '\\b(?:AKIA|ASIA)[A-Z0-9]{16}\\b',
      '(?:ghp|gho|ghu)_[A-Za-z0-9]{36}',
      '(?:\\+?1[-. ]?)?\\(?\\d{3}\\)?[-. ]?\\d{3}[-. ]?\\d{4}',
      '(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?',
      '\\b(?:[A-Z][a-z]+ ){1,3}Ltd\\b',
      '(ab)+',
      'x(a{1,3}){2}',
      // A run inside a repeated group, ended in the same repetition by a character it cannot match.
      '(?:[a-z0-9-]+\\.)+example\\.com',
      '(?:\\w+\\.)+corp\\.internal',
      '(?:[A-Z0-9]+-)+KEY',
      '(\\d{3}-)+\\d{4}',
      '(?:[a-f0-9]{2}:)+[a-f0-9]{2}',
      // ... or one that starts each repetition.
      '[a-z0-9-]+(?:\\.[a-z0-9-]+)+\\.example\\.com',
      '\\bsvc(?:-\\w+)+\\b',
      '\\bAPI(?:_[A-Z0-9]+)*_KEY=\\S+',
      // Choices the next character does not settle, a few ways in all: an address's octets, each ended by a dot.
      '(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)',
      '(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}',
      '[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?',
    ];
    const ws = makeWorkspace({}, { timeZone: 'UTC', redactPatterns: safe });
    expect(loadConfig(ws.root).config.redactPatterns).toEqual(safe);
  });

  it('refuses a repeated group that can match the same text in more than one way', () => {
    const refusal = (pattern: string): string => {
      const ws = makeWorkspace({}, { timeZone: 'UTC', redactPatterns: ['ok', pattern] });
      try {
        loadConfig(ws.root);
        return 'accepted';
      } catch (err) {
        return (err as Error).message;
      }
    };
    const CHOICE = 'hipo\\.config\\.json: "redactPatterns" entry 2 repeats a group in which a choice is not settled by the next character';
    const ALTERNATIVES = new RegExp(
      `${CHOICE} \\(alternatives \\d and \\d of the group at character \\d+ can start with the same character\\)`,
    );
    const NESTED = new RegExp(`${CHOICE} \\(the repeat at character \\d+ can go on with a character that can also come after it\\)`);
    const VARYING = new RegExp(
      `${CHOICE} \\(the (?:repeat|optional part) at character \\d+ can (?:go on|start) with a character that can also`,
    );
    // Each takes seconds on a near miss of 30 characters or so (measured on V8).
    for (const p of ['(\\w|\\d)+-token', '(\\d|[0-9a-f])*z', '(?:\\s|\\t)+end', '(?:.|\\s)*end', '(?:[a-z]|[aeiou])+1', '(?:a|a?b)+c'])
      expect({ p, why: refusal(p) }).toEqual({ p, why: expect.stringMatching(ALTERNATIVES) });
    expect(refusal('(?:(?:\\d|\\w)-)+x')).toMatch(ALTERNATIVES);
    expect(refusal('(?:x(?:a|a)y)+z')).toMatch(ALTERNATIVES);
    expect(refusal('(?:\\S|\\w){17,}$')).toMatch(ALTERNATIVES);
    expect(refusal('(\\w|\\d)+-token')).toMatch(
      /alternatives 1 and 2 of the group at character 1 can start with the same character\), so a line can match it in more ways/,
    );
    // Only linear, but first characters cannot tell: refused too, and easily written otherwise.
    expect(refusal('(a|ab)+x')).toMatch(ALTERNATIVES);
    for (const p of ['(\\w\\w?)+z', '(a{1,3})+z', '(?:\\w.?)+!'])
      expect({ p, why: refusal(p) }).toEqual({ p, why: expect.stringMatching(VARYING) });
    // A run whose separator may be missing, or that can match its separator (1-4 s on a near miss of 26-40 characters).
    for (const p of ['(?:[a-z0-9-]+\\.?)+x', '(?:[a-z.]+\\.)+x', '(?:\\w+\\s*)+$'])
      expect({ p, why: refusal(p) }).toEqual({ p, why: expect.stringMatching(NESTED) });
    // Repeated 16 times at most, a run still splits in (n choose k) ways (seconds on 24 characters).
    expect(refusal('(a+){1,16}x')).toMatch(NESTED);
    // Bounded choices multiply too: 2^16 ways per position (0.5 s on 40 digits), 16^16 (over 10 s on 30 a's).
    expect(refusal('(\\w|\\d){1,16}x')).toMatch(new RegExp(`${CHOICE} \\(alternatives 1 and 2 .*in up to 65536 ways from one position`));
    expect(refusal('(a{1,16}){1,16}x')).toMatch(NESTED);
    // An alternative that matches nothing leaves the next character to the next repetition: `.a.x` is one or two.
    expect(refusal('(?:\\.[a-z](?:\\.x|))+')).toMatch(
      new RegExp(`${CHOICE} \\(alternative 2 of the group at character 11 can match nothing`),
    );
  });

  it('warns about unknown settings instead of ignoring them silently', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', compaction: { rootMaxToken: 10 } });
    expect(loadConfig(ws.root).warnings).toEqual([
      expect.stringMatching(/unknown setting "compaction\.rootMaxToken" ignored \(did you mean "compaction\.rootMaxTokens"\?\)$/),
    ]);
  });

  it('names the setting a typo most likely meant, and guesses nothing when none is near', () => {
    const warnings = (config: Record<string, unknown>): string[] => loadConfig(makeWorkspace({}, config).root).warnings;
    expect(warnings({ timeZone: 'UTC', memorydir: 'notes' })).toEqual([
      expect.stringMatching(/unknown setting "memorydir" ignored \(did you mean "memoryDir"\?\)$/),
    ]);
    expect(warnings({ timeZone: 'UTC', serach: { mode: 'bm25' } })).toEqual([
      expect.stringMatching(/unknown setting "serach" ignored \(did you mean "search"\?\)$/),
    ]);
    expect(warnings({ timeZone: 'UTC', search: { embeder: 'none' } })).toEqual([
      expect.stringMatching(/unknown setting "search\.embeder" ignored \(did you mean "search\.embedder"\?\)$/),
    ]);
    expect(warnings({ timeZone: 'UTC', plugins: ['x'] })).toEqual([expect.stringMatching(/unknown setting "plugins" ignored$/)]);
  });

  it('places a JSON mistake by line and column, and never quotes the text (it may hold a password)', () => {
    const error = (text: string): string => {
      const ws = makeWorkspace({}, null as never);
      ws.write('hipo.config.json', text);
      return messageOf(() => loadConfig(ws.root));
    };
    expect(error('{\n  "timeZone": "UTC"\n  "memoryDir": "notes"\n}')).toMatch(
      /hipo\.config\.json: is not valid JSON at line 3, column 3 \(Expected ',' or '}' after property value\)$/,
    );
    expect(error('{\n  "timeZone": "UTC",\n}')).toMatch(/is not valid JSON at line 3, column 1 \(/);
    expect(error('\uFEFF{ "timeZone": ')).toMatch(/is not valid JSON at line 1, column 15 \(Unexpected end of JSON input\)$/);
    const quoted = error('{\n  "search": { "postgres": { "url": \'postgres://u:hunter2@db/x\' } }\n}');
    expect(quoted).toMatch(/is not valid JSON at line 2, column 36 \(Unexpected token '''\)$/);
    expect(quoted).not.toContain('hunter2');
  });

  it('a config that is a link to nothing is an error naming it, not "no config"', () => {
    const ws = makeWorkspace({ 'memory/sub/x.md': 'x' }, null as never);
    symlinkSync(join(ws.root, 'gone.json'), join(ws.root, 'hipo.config.json'));
    expect(() => loadConfig(ws.root)).toThrow(`${ws.root}/hipo.config.json: is a link to ${ws.root}/gone.json, which does not exist`);
    // Found from a folder below it too, and reported as a bad config.
    const r = runCli(['status'], { cwd: join(ws.memoryDir, 'sub') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${ws.root}/hipo.config.json: is a link to ${ws.root}/gone.json, which does not exist`);
  });

  it('context, recall and log report a typo in a key on stderr, their output as it was', () => {
    const ws = makeWorkspace(
      { 'memory/2026-06-01.md': '# 2026-06-01\n\n## parser [project]\n- decided to keep the scanner\n' },
      { timeZone: 'UTC', compaction: { rootMaxToken: 10 } },
    );
    const warning =
      `hipo: warning: ${ws.root}/hipo.config.json: unknown setting "compaction.rootMaxToken" ignored` +
      ' (did you mean "compaction.rootMaxTokens"?)';
    const at = ['--now', '2026-06-02', '--dir', ws.root];
    for (const args of [
      ['context'],
      ['context', '--json'],
      ['recall', 'scanner'],
      ['log', 'kept the scanner'],
      ['log', '--json', 'again'],
    ]) {
      const r = runCli([...args, ...at]);
      expect({ args, code: r.code }).toEqual({ args, code: 0 });
      expect(r.stderr.trim().split('\n')).toEqual([warning]);
      if (args.includes('--json')) expect(() => JSON.parse(r.stdout)).not.toThrow();
    }
    // recall --json holds its warnings in the JSON, as search does.
    const json = runCli(['recall', 'scanner', '--json', ...at]);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout).warnings).toEqual([warning.slice('hipo: warning: '.length)]);
  });

  it('reads rootMaxTokens from a hipocampus.config.json when there is no hipo config', () => {
    const ws = makeWorkspace({ 'hipocampus.config.json': JSON.stringify({ compaction: { rootMaxTokens: 2500 } }) }, null as never);
    expect(loadConfig(ws.root).config.compaction.rootMaxTokens).toBe(2500);
  });
});
