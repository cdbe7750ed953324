import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { makeWorkspace } from '../helpers/workspace.js';

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
    for (const secret of ['sk-live-4f9(Zq81', '(sk-live-4f9a+)+x']) {
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
    bad({ redactPatterns: ['(a+)+$'] }, /"redactPatterns" entry 1 repeats a group that itself repeats \(nested quantifiers\)/);
    bad({ redactPatterns: ['(?:[a-z]+\\s?)*!'] }, /nested quantifiers/);
    bad({ maxFileBytes: 1000 }, /"maxFileBytes" must be a whole number of bytes, at least 65536/);
    bad({ search: { expand: { maxQueries: 20 } } }, /"search\.expand\.maxQueries" must be a whole number from 1 to 8/);
    bad({ search: { expand: { enabled: 'yes' } } }, /"search\.expand\.enabled" must be true or false/);
    bad({ daemon: { cacheMB: -4 } }, /"daemon\.cacheMB" must be a non-negative number/);
    bad({ daemon: { releaseAfterMs: 'soon' } }, /"daemon\.releaseAfterMs" must be a non-negative number/);
  });

  it('accepts redaction patterns without nested repetition', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', redactPatterns: ['ACME-[0-9]{8}', '(?:key|secret)=\\S+', '(ab)+', 'x(a{1,3}){2}'] });
    expect(loadConfig(ws.root).config.redactPatterns).toHaveLength(4);
  });

  it('warns about unknown settings instead of ignoring them silently', () => {
    const ws = makeWorkspace({}, { timeZone: 'UTC', compaction: { rootMaxToken: 10 } });
    expect(loadConfig(ws.root).warnings).toEqual([expect.stringMatching(/unknown setting "compaction\.rootMaxToken" ignored/)]);
  });

  it('reads rootMaxTokens from a hipocampus.config.json when there is no hipo config', () => {
    const ws = makeWorkspace({ 'hipocampus.config.json': JSON.stringify({ compaction: { rootMaxTokens: 2500 } }) }, null as never);
    expect(loadConfig(ws.root).config.compaction.rootMaxTokens).toBe(2500);
  });
});
