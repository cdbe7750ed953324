// hipo runs secretlint's recommended rules synchronously, without secretlint's runner: what it
// finds must be what @secretlint/core's own `lintSource` finds with the same configuration, on
// every text of the corpus, also when a rule runs only on texts holding its keywords.
import { lintSource } from '@secretlint/core';
import { creator as preset } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redact/redactor.js';
import { PRESET_ID, RULE_KEYWORDS, RULE_SETTINGS, SecretlintRules, type SecretlintFinding } from '../../src/redact/rules/secretlint.js';
import { valueSpan } from '../../src/redact/values.js';
import { LOOKALIKES, SECRETS } from '../fixtures/secret-corpus.js';

const config: SecretLintCoreConfig = { rules: [{ id: PRESET_ID, rule: preset, rules: [...RULE_SETTINGS] }] };
const TEXTS = [...SECRETS.map((s) => s.text), ...LOOKALIKES, SECRETS.map((s) => s.text).join('\n\n')];

async function core(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'memory.md', ext: '.md', contentType: 'text' },
    options: { config, noPhysicFilePath: true },
  });
  return result.messages.map((m) => `${m.ruleId} ${m.messageId} ${m.range[0]}-${m.range[1]}`);
}

const key = (f: SecretlintFinding): string => `${f.ruleId} ${f.messageId} ${f.range[0]}-${f.range[1]}`;
const sorted = (xs: string[]): string[] => [...new Set(xs)].sort();

describe('secretlint rules run synchronously', () => {
  const rules = new SecretlintRules();

  it('find what @secretlint/core finds, text by text', async () => {
    let findings = 0;
    for (const text of TEXTS) {
      const expected = sorted(await core(text));
      expect(sorted(rules.run(text).map(key)), text.slice(0, 80)).toEqual(expected);
      findings += expected.length;
    }
    // The corpus exercises the preset: most of its rules find something.
    const ruleIds = new Set(TEXTS.flatMap((t) => rules.run(t).map((f) => f.ruleId)));
    expect(ruleIds.size).toBeGreaterThanOrEqual(24);
    expect(findings).toBeGreaterThan(40);
  });

  it('lose nothing when a rule runs only on texts holding one of its keywords', () => {
    for (const text of TEXTS) {
      const lower = text.toLowerCase();
      const filtered = rules.run(text, (i) => {
        const words = rules.rules[i]!.keywords;
        return words === null || words.some((w) => lower.includes(w));
      });
      expect(sorted(filtered.map(key)), text.slice(0, 80)).toEqual(sorted(rules.run(text).map(key)));
    }
  });

  it('have keywords for every rule of the pinned preset (a newer preset is checked again)', () => {
    const enabled = preset.rules.map((r) => r.meta.id).filter((id) => !RULE_SETTINGS.find((s) => s.id === id)?.disabled);
    expect(rules.rules.map((r) => r.id)).toEqual(enabled);
    expect(enabled.filter((id) => !RULE_KEYWORDS[id])).toEqual([]);
  });

  it('ignore secretlint-disable comments: a comment does not keep a secret out of redaction', () => {
    const token = SECRETS.find((s) => s.format === 'github classic token')!.secret;
    const text = `<!-- secretlint-disable -->\npushed with ${token}`;
    expect(rules.run(text).map((f) => f.ruleId)).toContain('@secretlint/secretlint-rule-github');
    expect(new Redactor().redact(text).text).not.toContain(token);
  });
});

describe('what of a finding is replaced', () => {
  const rules = new SecretlintRules();
  const spans = (text: string): string[] =>
    rules.run(text).map((f) => {
      const v = valueSpan(text, f);
      return `${v.kind}: ${text.slice(v.start, v.end)}`;
    });

  it('the value the rule names, where the reported range starts at the key name', () => {
    const secret = SECRETS.find((s) => s.format === 'aws secret with its name')!.secret;
    const text = `aws_secret_access_key = ${secret}`;
    const [f] = rules.run(text);
    expect(f!.range[0]).toBe(0);
    expect(spans(text)).toEqual([`aws-secret-access-key: ${secret}`]);
  });

  it("a connection string's password only, a webhook's path only", () => {
    expect(spans('DATABASE_URL=postgres://app:Zq8vN2rT5wLx@db.internal:5432/app')).toEqual(['url-password: Zq8vN2rT5wLx']);
    const hook = SECRETS.find((s) => s.format === 'slack webhook url')!;
    expect(spans(hook.text)).toEqual([`slack-incoming-webhook: ${hook.secret}`]);
  });
});
