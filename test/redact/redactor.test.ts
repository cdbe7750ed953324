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

describe('values taken whole, and only the value', () => {
  const r = new Redactor();
  const body = [
    'lQdGBGNx3bQBEADL0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPBaN',
    'cTZ7VnY2J0u0p1lC3bT0w9dGlYfrvWb7lBpNRzP4kEfsGRxAb0ia8k0Y5M6OKDqW3',
    'Zq81mWv3LxT0aPb6NcE2dRf5GhJ7kYs9',
  ];
  const pgp = [
    '-----BEGIN PGP PRIVATE KEY BLOCK-----',
    'Version: GnuPG v2',
    'Comment: release signing key',
    '',
    ...body,
    '=Xk3q',
    '-----END PGP PRIVATE KEY BLOCK-----',
  ];

  it('takes an armored PGP key from BEGIN to END, over the blank line after its headers', () => {
    const text = `signing key:\n${pgp.join('\n')}\n\nimported on the build box`;
    expect(r.redact(text).text).toBe('signing key:\n[REDACTED:private-key]\n\nimported on the build box');
    const kept = r.redact(text, { keepLines: true }).text;
    expect(kept.split('\n')).toHaveLength(text.split('\n').length);
    expect(kept.split('\n').at(-1)).toBe('imported on the build box');
  });

  it('takes what there is of a block cut short, and the paragraph after it stays', () => {
    const text = `${pgp.slice(0, 6).join('\n')}\n\nthe rest did not paste`;
    expect(r.redact(text).text).toBe('[REDACTED:private-key]\n\nthe rest did not paste');
  });

  it('takes an encrypted PEM key with its Proc-Type headers, and one a note bullets line by line', () => {
    const pem = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'Proc-Type: 4,ENCRYPTED',
      'DEK-Info: AES-128-CBC,3F1A9C',
      '',
      ...body,
      '-----END RSA PRIVATE KEY-----',
    ];
    expect(r.redact(`old key\n${pem.join('\n')}\nend`).text).toBe('old key\n[REDACTED:private-key]\nend');
    const bulleted = pem.map((l) => (l ? `- ${l}` : l)).join('\n');
    expect(r.redact(`## key [reference]\n${bulleted}\n`).text).toBe('## key [reference]\n- [REDACTED:private-key]\n');
  });

  it('takes a key on one line, as a clipped tool call shows it', () => {
    const line = `- Bash: cat > k.asc <<EOF ${pgp.join(' ')}`.replace(/ +/g, ' ').slice(0, 200);
    expect(r.redact(`${line} … [1,000 characters not kept]`).text).toBe(
      '- Bash: cat > k.asc <<EOF [REDACTED:private-key] … [1,000 characters not kept]',
    );
  });

  it('takes only the BEGIN marker of a text that names both markers with prose between', () => {
    const text =
      'It opens with -----BEGIN RSA PRIVATE KEY----- on a line.\n\nThe body follows, and the line -----END RSA PRIVATE KEY----- closes it.';
    expect(r.redact(text).text).toBe(
      'It opens with [REDACTED:private-key] on a line.\n\nThe body follows, and the line -----END RSA PRIVATE KEY----- closes it.',
    );
  });

  it.each([
    ['docker login -u me -p DockerPw7781Xz registry.example.com', 'docker login -u me -p [REDACTED:cli-password] registry.example.com'],
    ['redis-cli -a RedisCliPw881 ping', 'redis-cli -a [REDACTED:cli-password] ping'],
    ['htpasswd -b .htpasswd admin HtPasswdVal77', 'htpasswd -b .htpasswd admin [REDACTED:cli-password]'],
    ['mysql -uroot -psunflower shop', 'mysql -uroot -p[REDACTED:cli-password] shop'],
    ["sshpass -p 'sunflower' ssh -p 2222 ops@bastion", "sshpass -p '[REDACTED:cli-password]' ssh -p 2222 ops@bastion"],
    ['wifi password: "blue sky over hills"', 'wifi password: "[REDACTED:password]"'],
    ['passphrase: "purple monkey dishwasher"', 'passphrase: "[REDACTED:password]"'],
    ['the SSH passphrase: "correct horse battery staple"', 'the SSH passphrase: "[REDACTED:password]"'],
    ['pw: hunter2pw', 'pw: [REDACTED:password]'],
    ['set PGPASSWORD to PgPwSetTo55', 'set PGPASSWORD to [REDACTED:password]'],
    ['token：FullWidthTok3n9921Xz，请勿外传', 'token：[REDACTED:token]，请勿外传'],
    [
      '[docs](https://example.com/reset?token=expired) for the flow',
      '[docs](https://example.com/reset?token=[REDACTED:token]) for the flow',
    ],
    [
      'https://example.com/cb?access_token=Ab3dEf6hIj9k&state=xyz#top',
      'https://example.com/cb?access_token=[REDACTED:token]&state=xyz#top',
    ],
    ['(JWT_SECRET=b8Qz3LmX0pW7vR2tY6nK) in the env', '(JWT_SECRET=[REDACTED:secret]) in the env'],
  ])('%s', (text, redacted) => {
    expect(r.redact(text).text).toBe(redacted);
  });

  it.each([
    ['パスワード: hunter2xyz!', 'パスワード: [REDACTED:password]'],
    ['パスワードはhunter2xyzです', 'パスワードは[REDACTED:password]です'],
    ['密码是Abc12345x', '密码是[REDACTED:password]'],
    ['密码：123456。', '密码：[REDACTED:password]。'],
    ['비밀번호는 Abc12345x 입니다', '비밀번호는 [REDACTED:password] 입니다'],
    ['Das Passwort ist Abc12345x', 'Das Passwort ist [REDACTED:password]'],
    ['Le mot de passe est Abc12345x', 'Le mot de passe est [REDACTED:password]'],
    ['ПАРОЛЬ: Qwerty123!', 'ПАРОЛЬ: [REDACTED:password]'],
    ['contraseña: Abc12345x', 'contraseña: [REDACTED:password]'],
    ['Mein Passwort für den Server ist hunter2xyz', 'Mein Passwort für den Server ist [REDACTED:password]'],
    ['mon mot de passe pour le wifi est soleil2024', 'mon mot de passe pour le wifi est [REDACTED:password]'],
    ['la contraseña del banco es Sol2024!x', 'la contraseña del banco es [REDACTED:password]'],
    ['пароль от почты — qwerty123', 'пароль от почты — [REDACTED:password]'],
  ])('a password named in another language: %s', (text, redacted) => {
    expect(r.redact(text).text).toBe(redacted);
  });

  it.each([
    'Passwort: mindestens 12 Zeichen',
    'パスワード：8文字以上',
    'パスワードが間違っています',
    '비밀번호는 bcrypt로 해시합니다',
    'Le mot de passe est incorrect.',
    'Passwortänderung: Abc12345x',
    'Passwort-Manager: 1Password',
    'Kennwort = $DB_PASS',
    'Das Passwort für den Server ist abgelaufen',
    'Le mot de passe est oublié',
    'le mot de passe pour le wifi est changé chaque mois',
  ])('leaves what only talks about a password in another language: %s', (text) => {
    expect(r.redact(text).text).toBe(text);
  });

  it('takes the rest of a token a line break cut, a lone random token on the next line', () => {
    const text = '- the token is ghp_R4nD0mT0k3nV4l\nu3Xy9Qw8Er7Ty6Ui5Op4Bz\n- then I rotated it';
    expect(r.redact(text).text).toBe('- the token is [REDACTED:secret]\n[REDACTED:secret]\n- then I rotated it');
  });

  it.each([
    'the token is ghp_R4nD0mT0k3nV4l\nthen I rotated it',
    'the token is ghp_R4nD0mT0k3nV4l\nAuthentication',
    'the token is ghp_R4nD0mT0k3nV4l\n20260315093000',
    'the token is ghp_R4nD0mT0k3nV4l\nu3xy9qw8er7ty6ui5op4bz',
    'the token is ghp_R4nD0mT0k3nV4l for CI\nu3Xy9Qw8Er7Ty6Ui5Op4Bz',
  ])('leaves a next line that is not the rest of the token: %j', (text) => {
    const [, next] = text.split('\n');
    expect(r.redact(text).text.split('\n')[1]).toBe(next);
  });
});

describe('a password beside its user name, a .pgpass line, a Sentry DSN', () => {
  const r = new Redactor();

  it.each([
    ['user admin pass hunter2xyz', 'user admin pass [REDACTED:password]'],
    ['user admin password hunter2xyz.', 'user admin password [REDACTED:password].'],
    ['username deploy, pwd Zq8#kd92 on the box', 'username deploy, pwd [REDACTED:password] on the box'],
    ['login admin / pw Tr0ub4dor&3', 'login admin / pw [REDACTED:password]'],
  ])('the password after a user name and a password word, no "is": %s', (text, redacted) => {
    expect(r.redact(text).text).toBe(redacted);
  });

  it.each([
    'the user object passes validation',
    'user admin pass rate 99.5% this sprint',
    'login page pass v2.3.1 to the client',
    'user session pass token123 to the API',
    'user admin pass $ADMIN_PASS',
    'login as admin passwordless',
  ])('leaves a user name and "pass" that give no password: %s', (text) => {
    expect(r.redact(text).text).toBe(text);
  });

  it.each([
    ['creds admin/S3cr3t!x', 'creds admin/[REDACTED:password]'],
    ['creds: admin / S3cr3t!x', 'creds: admin / [REDACTED:password]'],
    ['the credentials are deploy:Zq8kd92x now', 'the credentials are deploy:[REDACTED:password] now'],
    ['credentials: admin:S3cr3t!x', 'credentials: admin:[REDACTED:password]'],
    ['creds: admin:S3cr3t!x', 'creds: admin:[REDACTED:password]'],
    ['DB_CREDENTIALS=admin:sunflower', 'DB_CREDENTIALS=admin:[REDACTED:password]'],
    ['"credentials": "deploy/Zq8kd92x",', '"credentials": "deploy/[REDACTED:password]",'],
    ['login admin:hunter2xyz', 'login admin:[REDACTED:password]'],
    ['username: deploy:Zq8kd92x.', 'username: deploy:[REDACTED:password].'],
    ['user: admin:hunter2xyz', 'user: admin:[REDACTED:password]'],
    ['user jdoe pass Summer2024!', 'user jdoe pass [REDACTED:password]'],
  ])('the password of credentials given as user/password: %s', (text, redacted) => {
    expect(r.redact(text).text).toBe(redacted);
  });

  it.each([
    'creds read/write access',
    'credentials aws/prod-2026 profile',
    'creds ~/.aws/credentials',
    'credentials client_id/client_secret',
    'credentials: client_id/client_secret',
    'credentials: admin:${ADMIN_PASS}',
    'login localhost:8080',
    'login node:v18.2.0',
    'username story:PROJ-1234',
    'user story:ABC-1234',
    'user: nobody:x:65534:65534:nobody',
  ])('leaves credentials named by kind or place: %s', (text) => {
    expect(r.redact(text).text).toBe(text);
  });

  it.each([
    ['db.internal:5432:app:admin:S3cr3tPw!', 'db.internal:5432:app:admin:[REDACTED:password]'],
    ['*:*:*:postgres:hunter2xyz', '*:*:*:postgres:[REDACTED:password]'],
    [
      '```\nlocalhost:*:*:me:pl41nWord\n10.0.4.17:6432:*:app:Zq8kd92x\r\n```',
      '```\nlocalhost:*:*:me:[REDACTED:password]\n10.0.4.17:6432:*:app:[REDACTED:password]\r\n```',
    ],
    ['- db.internal:5432:app:admin:S3cr3t\\:Pw', '- db.internal:5432:app:admin:[REDACTED:password]'],
    ['see db.internal:5432:app:admin:S3cr3tPw! here', 'see db.internal:5432:app:admin:[REDACTED:password] here'],
    [
      'my pgpass line is db.example.com:5432:app:appuser:Tr0ub4dor&3 fyi',
      'my pgpass line is db.example.com:5432:app:appuser:[REDACTED:password] fyi',
    ],
    ['(pgpass: localhost:*:*:postgres:hunter2xyz).', '(pgpass: localhost:*:*:postgres:[REDACTED:password]).'],
    ['try "10.0.4.17:6432:*:app:Zq8kd92x", then retry', 'try "10.0.4.17:6432:*:app:[REDACTED:password]", then retry'],
  ])('the password of a .pgpass line: %j', (text, redacted) => {
    expect(r.redact(text).text).toBe(redacted);
  });

  it.each([
    '12:30:45',
    '12:30:45:00:01',
    'fe80::1ff:fe23:4567:890a',
    'fe80:0:0:0:1',
    'INFO:app:db:worker:started',
    'notes.md:12:a:b:c3',
    'db.internal:5432:app:admin',
    'db.internal:5432:app:admin:pw:extra',
    'root:x:0:0:root:/root:/bin/bash',
    'the clock read 12:30:45:00 exactly',
    'the box answers on 2001:db8:0:0:1:ff00:42:8329 now',
    'call f(a:b:c:d:e) in the REPL',
    'read John 3:16:1:2:3 tonight',
    'the score was 3:2:1:0:4 at half time',
    'see https://db.example.com:5432:app:appuser:Tr0ub4dor3 here',
    'e.g. localhost:5432:mydb:postgres:mypassword works',
    'run cache.get:5:foo:bar:baz here',
    'see db.internal:5432:app:admin:pw:extra here',
  ])('leaves colons that are no .pgpass line: %j', (text) => {
    expect(r.redact(text).text).toBe(text);
  });

  it.each([
    [
      'SENTRY_DSN=https://0123456789abcdef0123456789abcdef@o123456.ingest.sentry.io/1234567',
      'SENTRY_DSN=https://[REDACTED:sentry-dsn]@o123456.ingest.sentry.io/1234567',
    ],
    [
      'dsn: "https://0123456789abcdef0123456789abcdef:fedcba9876543210fedcba9876543210@sentry.io/123"',
      'dsn: "https://[REDACTED:sentry-dsn]@sentry.io/123"',
    ],
    [
      'self-hosted: https://0123456789abcdef0123456789abcdef@sentry.example.com/sentry/2.',
      'self-hosted: https://[REDACTED:sentry-dsn]@sentry.example.com/sentry/2.',
    ],
  ])("a Sentry DSN's key: %s", (text, redacted) => {
    expect(r.redact(text).text).toBe(redacted);
  });

  it.each([
    'https://git@github.com/x',
    'https://deploy@git.example.com/acme/1234',
    'sentry event https://acme.sentry.io/issues/4521/events/0123456789abcdef0123456789abcdef/',
  ])('leaves a URL with a user name that is no key: %s', (text) => {
    expect(r.redact(text).text).toBe(text);
  });
});

describe('a wifi key named after its network, a security answer', () => {
  const r = new Redactor();

  it.each([
    ['my wifi is HomeNet and the key is Xk92-pqlm-77', 'my wifi is HomeNet and the key is [REDACTED:password]'],
    ['guest wifi: CafeNet, key: cafe2024guest.', 'guest wifi: CafeNet, key: [REDACTED:password].'],
    ['the wifi password is Xk92-pqlm-77', 'the wifi password is [REDACTED:password]'],
    ['my secret answer is Fluffy2009', 'my secret answer is [REDACTED:password]'],
    ['security answer: Fluffy2009', 'security answer: [REDACTED:password]'],
    ['the answer to my security question is Fluffy2009.', 'the answer to my security question is [REDACTED:password].'],
    ['my security question answer is "Fluffy2009" now', 'my security question answer is "[REDACTED:password]" now'],
  ])('the value only: %s', (text, redacted) => {
    expect(r.redact(text).text).toBe(redacted);
  });

  it.each([
    'my wifi is fine but the ssh key is id_ed25519',
    'the wifi is slow and the key is 2024 budget talks',
    'the wifi is down and the key is to restart the router',
    'wifi toggle, key: Fn+F2',
    'the network key is in the drawer',
    'the security answer is case-sensitive',
    'the secret answer is 42',
    'the secret answer is v2.3.1',
    'the answer to my security question is in 1Password',
    'the security answer field is required',
    'security answers: 3 required',
    'my password is auto-generated-2024',
  ])('leaves a key or an answer that is no secret: %s', (text) => {
    expect(r.redact(text).text).toBe(text);
  });
});
