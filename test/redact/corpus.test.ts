// The redactor against the corpus: every planted format is redacted (value gone, context kept),
// at most 2 % of the look-alikes are touched, and redaction is stable (redacting twice changes
// nothing more), keeps line numbers where asked and keeps JSON valid.
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redact/redactor.js';
import { redactKeepingLines, redactOutput, redactValue } from '../../src/redact/lines.js';
import { LOOKALIKES, SECRETS } from '../fixtures/secret-corpus.js';

const r = new Redactor();

describe('the secret corpus', () => {
  it('holds at least 60 distinct formats and 60 look-alikes', () => {
    expect(new Set(SECRETS.map((s) => s.format)).size).toBe(SECRETS.length);
    expect(SECRETS.length).toBeGreaterThanOrEqual(60);
    expect(LOOKALIKES.length).toBeGreaterThanOrEqual(60);
    // Each planted value is in its text once, so a test that finds it gone means it was redacted.
    for (const s of SECRETS) expect(s.text, s.format).toContain(s.secret);
  });

  it.each(SECRETS.map((s) => [s.format, s] as const))('redacts %s: the value goes, the context stays', (_f, s) => {
    const out = r.redact(s.text).text;
    expect(out).not.toContain(s.secret);
    expect(out).toContain(s.context);
    expect(out).toMatch(/\[REDACTED:[a-z0-9-]+\]/);
  });

  it('redacts every format inside one long log too (no rule depends on being alone)', () => {
    const all = SECRETS.map((s) => `## ${s.format}\n${s.text}\n`).join('\n');
    const out = r.redact(all).text;
    for (const s of SECRETS) expect(out, s.format).not.toContain(s.secret);
  });

  it('loses nothing to its keyword prefilters: the same as every rule run over every whole text', () => {
    const exhaustive = new Redactor([], { exhaustive: true });
    const all = SECRETS.map((s) => `## ${s.format}\n${s.text}\n`).join('\n');
    for (const text of [...SECRETS.map((s) => s.text), ...LOOKALIKES, all])
      expect(r.find(text), text.slice(0, 80)).toEqual(exhaustive.find(text));
  });

  it('leaves at most 2 % of the look-alikes changed', () => {
    const changed = LOOKALIKES.filter((l) => r.redact(l).text !== l);
    expect(changed).toEqual([]);
    expect(changed.length / LOOKALIKES.length).toBeLessThanOrEqual(0.02);
  });

  it('is stable: redacting a redacted text changes nothing', () => {
    for (const text of [...SECRETS.map((s) => s.text), ...LOOKALIKES]) {
      const once = r.redact(text).text;
      expect(r.redact(once).text).toBe(once);
    }
  });

  it('keeps keys and line shapes: only the value is replaced', () => {
    expect(r.redact('API_KEY=sk-proj-Zq81mWv3LxT0aPb6NcE2dRf5GhJ7kYs9').text).toBe('API_KEY=[REDACTED:openai-key]');
    expect(r.redact('JWT_SECRET=b8Qz3LmX0pW7vR2tY6nK9cJ4hG1fD5sA').text).toBe('JWT_SECRET=[REDACTED:secret]');
    expect(r.redact('db at postgres://admin:Xy7kq2Lm9@db:5432/app').text).toBe(
      'db at postgres://admin:[REDACTED:url-password]@db:5432/app',
    );
    expect(r.redact('alerts: https://hooks.slack.com/services/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').text).toBe(
      'alerts: https://hooks.slack.com/services/[REDACTED:slack-webhook]',
    );
  });

  it("takes a prose password's closing ! or ?, and leaves the period that ends its sentence", () => {
    const cases: [string, string][] = [
      ['my password is Plant3dPassw0rd! for the staging box', 'my password is [REDACTED:password] for the staging box'],
      ['passwd is Winter2024!', 'passwd is [REDACTED:password]'],
      ['the vpn password is Xk93Lq?!', 'the vpn password is [REDACTED:password]'],
      ['(the router password is Xk93Lq0Z!)', '(the router password is [REDACTED:password])'],
      ['I set the wifi password to Blue42Heron!.', 'I set the wifi password to [REDACTED:password].'],
      ['my password is hunter22. Then I logged in.', 'my password is [REDACTED:password]. Then I logged in.'],
      ['my password is hunter22.', 'my password is [REDACTED:password].'],
      ['my password is hunter22... or was it', 'my password is [REDACTED:password]... or was it'],
    ];
    for (const [text, want] of cases) expect(r.redact(text).text, text).toBe(want);
  });
});

describe('redaction that keeps a shape', () => {
  it('keeps every line where it was when a private key block goes', () => {
    const pem = SECRETS.find((s) => s.format === 'rsa private key')!;
    const text = `first\n\n${pem.text}\n\nlast line`;
    const out = redactKeepingLines(r, text);
    expect(out.text.split('\n').length).toBe(text.split('\n').length);
    expect(out.text).not.toContain(pem.secret);
    expect(out.text.split('\n').at(-1)).toBe('last line');
  });

  it('redacts JSON value by value, so the document stays valid', () => {
    const doc = { prompts: SECRETS.map((s) => s.text), nested: { [`key ${SECRETS[0]!.secret}`]: [SECRETS[1]!.text, 3, null, true] } };
    const printed = JSON.stringify(doc, null, 2);
    const out = redactOutput(r, printed);
    const parsed = JSON.parse(out) as typeof doc;
    expect(parsed.prompts).toHaveLength(SECRETS.length);
    for (const s of SECRETS) expect(out, s.format).not.toContain(s.secret);
    expect(out).toBe(JSON.stringify(redactValue(r, doc), null, 2));
    expect(Object.values(parsed.nested)[0]).toEqual([expect.stringContaining('[REDACTED:'), 3, null, true]);
  });

  it('prints plain text as text', () => {
    expect(redactOutput(r, '{ not json: hunter2')).toBe('{ not json: hunter2');
    expect(redactOutput(r, 'the password: hunter2 here')).toBe('the password: [REDACTED:password] here');
  });
});
