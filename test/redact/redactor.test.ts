// Planted secrets of each format never reach a node; look-alikes are left alone; the sentence
// around a secret survives (pitfall 9).
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redact/redactor.js';
import { cycle } from '../helpers/tree.js';
import { makeWorkspace } from '../helpers/workspace.js';

const PEM = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn',
  'NhAAAAAwEAAQAAAYEAyQ7Kh1YpSd0bHk2xq8TJm1pUwN3mXhVnZzYc8bqOQxE4lQkq9ZaF',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');
const RSA = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB',
  'aNcTZ7VnY2J0u0p1lC3bT0w9dGlYfrvWb7lBpNRzP4kEfsGRxAb0ia8k0Y5M6OKD',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

/** [text containing a secret, the secret itself, context that must survive] */
const SECRETS: [string, string, string][] = [
  ['deploy key is AKIAIOSFODNN7EXAMPLE for prod', 'AKIAIOSFODNN7EXAMPLE', 'deploy key is'],
  [
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'aws_secret_access_key =',
  ],
  ['OPENAI_API_KEY=sk-proj-abc123DEF456ghi789JKL012mno345', 'sk-proj-abc123DEF456ghi789JKL012mno345', 'OPENAI_API_KEY='],
  ['anthropic: sk-ant-api03-AbCdEf0123456789AbCdEf0123456789', 'sk-ant-api03-AbCdEf0123456789AbCdEf0123456789', 'anthropic:'],
  ['stripe live key sk_live_4eC39HqLyjWDarjtT1zdp7dc in billing', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'stripe live key'],
  ['bot token xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp', 'bot token'],
  ['gitlab glpat-AbCdEfGhIjKlMnOpQrSt works', 'glpat-AbCdEfGhIjKlMnOpQrSt', 'gitlab'],
  ['github ghp_16C7e42F292c6912E7710c838347Ae178B4a pushed', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'github'],
  ['maps key AIzaSyA1234567890abcdefghijklmnopqrstuv here', 'AIzaSyA1234567890abcdefghijklmnopqrstuv', 'maps key'],
  [
    'session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U expired',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    'expired',
  ],
  ['db at postgres://admin:s3cr3tPass@db.example.com:5432/app', 's3cr3tPass', 'postgres://admin:'],
  ['mongo mongodb+srv://svc:Zx9!pw@cluster0.example.net/db', 'Zx9!pw', 'cluster0.example.net'],
  ['the password: hunter2 for the staging box', 'hunter2', 'for the staging box'],
  ['curl -H "Authorization: Bearer abcdef1234567890abcdef123456"', 'abcdef1234567890abcdef123456', 'Authorization: Bearer'],
  [`my key:\n${PEM}\nafter the key`, 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn', 'after the key'],
  [`old key\n${RSA}\nend`, 'aNcTZ7VnY2J0u0p1lC3bT0w9dGlYfrvWb7lBpNRzP4kEfsGRxAb0ia8k0Y5M6OKD', 'old key'],
];

const LOOKALIKES = [
  'pwd = /home/kevin/project',
  'use task-sk-runner-abcdefghijklmnop1234 for jobs',
  'installed scikit-learn (sk-learn) today',
  'the password field must be validated on submit',
  'password: <your password here>',
  'connect to postgres://localhost:5432/app',
  'my-desk-lamp and risk-assessment-document-v2-final-2024',
  'AKIA is the prefix AWS uses for access keys',
  'we rotate the api key every 90 days',
  'Bearer tokens expire after one hour',
];

describe('Redactor', () => {
  const r = new Redactor();

  it.each(SECRETS)('redacts %#: the value goes, the context stays', (text, secret, context) => {
    const out = r.redact(text);
    expect(out.text).not.toContain(secret);
    expect(out.text).toContain(context);
    expect(out.text).toMatch(/\[REDACTED:[a-z0-9-]+\]/);
  });

  it('removes a PEM block whole, body lines included', () => {
    const out = r.redact(`before\n${PEM}\nafter`).text;
    expect(out).toBe('before\n[REDACTED:private-key]\nafter');
  });

  it.each(LOOKALIKES)('leaves look-alikes alone: %s', (text) => {
    expect(r.redact(text).text).toBe(text);
  });

  it('applies patterns from the config', () => {
    const custom = new Redactor(['ACME-[0-9]{6}']);
    expect(custom.redact('badge ACME-123456 at the door').text).toBe('badge [REDACTED:custom-1] at the door');
  });
});

describe('redaction in compaction', () => {
  it('no planted secret reaches any node, below or above the threshold', async () => {
    const lines = SECRETS.map(([t]) => t.replace(/\n/g, '\n  '));
    const small = ['# 2026-06-01', '', '## credentials [reference]', ...lines.map((l) => `- ${l}`), ''].join('\n');
    const filler = Array.from({ length: 300 }, (_, i) => `- routine note ${i} about the build`).join('\n');
    const big = ['# 2026-06-02', '', '## ops [project]', ...lines.map((l) => `- ${l}`), filler, ''].join('\n');
    const ws = makeWorkspace({ 'memory/2026-06-01.md': small, 'memory/2026-06-02.md': big });
    await cycle(ws, '2026-06-03', { catchUp: true });
    const nodes = ws.files('memory').filter((f) => !/^memory\/\d{4}-\d{2}-\d{2}\.md$/.test(f));
    expect(nodes.length).toBe(5);
    for (const f of nodes) {
      const text = ws.read(f);
      for (const [, secret] of SECRETS) expect(text, `${f} leaks ${secret}`).not.toContain(secret);
    }
    expect(ws.read('memory/daily/2026-06-01.md')).toContain('deploy key is [REDACTED:aws-access-key]');
    // The raw logs themselves are untouched.
    expect(ws.read('memory/2026-06-01.md')).toBe(small);
  });
});
