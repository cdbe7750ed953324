// hipo's own rules: secrets as people write them in notes and conversations (`my password is …`,
// `SESSION_SECRET=…`, a bot token pasted alone) and the provider formats hipo names by its own
// kinds, written from the providers' published token formats. Every value test is here, so a
// look-alike (`sk-learn-compatible-wrapper`, `Bearer implementation-details`, a git SHA, a
// UUID, a content hash, a public key) is kept.
import { charClasses, isHex, isMixedRandom, isPathLike, isPlaceholder, isWordish, shannonEntropy } from '../entropy.js';
import type { Candidate, ScannerRule } from '../rule.js';

const raw = String.raw;
/** Not glued to a token character on the left: `task-sk-…` is not an OpenAI key. */
const EDGE = raw`(?<![A-Za-z0-9_-])`;

/** Words and short numbers joined by `-`, `_`, `.` or `/`: `sk-1234-refactor-payment-module`. */
export function isPhraseLike(s: string): boolean {
  const parts = s.split(/[-_./]+/).filter(Boolean);
  if (parts.length < 2) return false;
  return parts.every((p) => /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+|\d{1,6}|v\d+|[A-Z]?[a-z]+\d{1,4})$/.test(p)) && parts.some((p) => /[a-z]{3}/i.test(p));
}

/** Changes between lower case, upper case and digits from one character to the next. */
function classChanges(s: string): number {
  const cls = (c: string): number => (c >= 'a' && c <= 'z' ? 1 : c >= 'A' && c <= 'Z' ? 2 : c >= '0' && c <= '9' ? 3 : 0);
  let n = 0;
  for (let i = 1; i < s.length; i++) {
    const a = cls(s[i - 1]!);
    const b = cls(s[i]!);
    if (a && b && a !== b) n++;
  }
  return n;
}

/**
 * A 40-character base64 secret (an AWS secret access key) rather than a path or a hash. Random
 * base64 changes class (lower, upper, digit) about 22 times in 40 characters, fewer than 10 in
 * 1 of 25,000 keys; paths and identifiers of that length change 4 to 7 times.
 */
function looksLikeBase64Secret(s: string, at: Candidate): boolean {
  if (isHex(s) || !isMixedRandom(s, 4.2) || classChanges(s) < 10) return false;
  // A line of a base64 block (a certificate, a public key, an image) is not a key by itself.
  const before = at.text.slice(Math.max(0, at.start - 200), at.start);
  const after = at.text.slice(at.end, at.end + 200);
  return !/[A-Za-z0-9+/]{48,}={0,2}\s*$/.test(before) && !/^\s*[A-Za-z0-9+/]{48,}/.test(after);
}

/**
 * The body of a prefixed key (after `sk-`, `sk-ant-api03-`) is random: letters and digits mixed,
 * not words joined by hyphens (`sk-1234-refactor-payment-module`, `sk-learn-compatible-wrapper`).
 */
const randomBody = (prefix: RegExp) => (s: string): boolean => {
  const body = s.replace(prefix, '');
  const c = charClasses(body);
  return !isPhraseLike(body) && c.digit && (c.lower || c.upper) && shannonEntropy(body) >= 3.5;
};

/** `key` ends with a secret's name as a word of its own: `DB_PASSWORD`, `apiKey`, `jwt-secret`, `PGPASSWORD`. */
function namesSecret(key: string, name: RegExp): boolean {
  const m = name.exec(key);
  if (!m) return false;
  const at = m.index;
  if (at === 0) return true;
  const prev = key[at - 1]!;
  // An environment variable names it in capitals, often glued: PGPASSWORD, DBPASS.
  return /[_.\-\s]/.test(prev) || (/[a-z0-9]/.test(prev) && /[A-Z]/.test(key[at]!)) || /^[A-Z0-9_]+$/.test(key);
}

const COMMON_WORDS = /(?:ed|ing|ly|ion|ions|ment|ments|able|ible|ful|less|ness|ity|ies|ous|ive)$/i;

/** What an assigned value must look like to be a secret; `key` and `sep` are the context. */
function secretValue(value: string, key: string, sep: string, quoted: boolean): boolean {
  if (isPlaceholder(value) || isPathLike(value)) return false;
  // A name followed by its separator is the next key, not a value (`password:   password: x`).
  if (/[:=]$/.test(value)) return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(value) || /^\d+(?:\.\d+)*[a-z]{0,3}$/i.test(value) && value.length < 6) return false;
  if (/^(?:https?|ftp):/i.test(value)) return false;
  // Code: a call or an index (`word_tokenize(text)`, `env["X"]`) is not a value.
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[([]/.test(value)) return false;
  if (isWordish(value)) {
    // Letters only: a secret when set in code or config (`SESSION_SECRET=keyboardcat`, a quoted
    // value) or given as a password (`password: correcthorsebattery`), not a type annotation or
    // a description (`password: string`, `token: required`, `password: hashed`).
    const envStyle = sep.trim() === '=' && !/\s/.test(sep) && (/^[A-Z][A-Z0-9_]*$/.test(key) || /pass|pwd/i.test(key));
    const password = /pass|pwd/i.test(key) && value.length >= 8;
    return (envStyle || quoted || password) && value.length >= 6 && !COMMON_WORDS.test(value);
  }
  if (isPhraseLike(value)) return false;
  if (/^\d+$/.test(value)) return value.length >= 6;
  return shannonEntropy(value) >= 2.5;
}

/** Names of secrets in assignments, by the kind their value is redacted as. */
const SECRET_NAMES: [kind: string, names: string][] = [
  ['password', 'password|passwd|passphrase|passcode|pwd|pass'],
  ['api-key', raw`api[_-]?key|apikey|access[_-]?key|private[_-]?key|secret[_-]?key|key[_-]?base|signing[_-]?key|encryption[_-]?key|master[_-]?key|client[_-]?key`],
  ['token', 'token|auth'],
  ['secret', 'secret|credentials?|creds'],
];
const NAME_TESTS = SECRET_NAMES.map(([kind, names]) => ({ kind, re: new RegExp(`(?:${names})s?$`, 'i') }));

/**
 * `NAME = value`, `name: value`, `"name": "value"` where the name ends with a secret's name
 * (`DB_PASSWORD`, `apiKey`, `JWT_SECRET`, `SECRET_KEY_BASE`, `twilio_auth_token`). The regex
 * matches from the name's last word; the rest of the name is found by looking back (`prefix`).
 */
const ASSIGNMENT: ScannerRule = {
  id: 'secret',
  // The first word of each name below: a match begins at one of them.
  keywords: ['pass', 'pwd', 'api', 'access', 'private', 'secret', 'key', 'signing', 'encryption', 'master', 'client', 'token', 'auth', 'cred'],
  ignoreCase: true,
  secretGroup: 3,
  prefix: 40,
  regex: raw`(?:${SECRET_NAMES.map(([, n]) => n).join('|')})s?(["'\x60]?[ \t]*(?:=|:=|=>|:)[ \t]*)(["'\x60]?)([^\s"'\x60,;]{3,})`,
  accept: (secret, at) => {
    const m = /^([A-Za-z0-9_.-]*?)(["'\x60]?[ \t]*(?:=|:=|=>|:)[ \t]*)(["'\x60]?)/.exec(at.match);
    const key = m?.[1] ?? '';
    const kind = NAME_TESTS.find((t) => namesSecret(key, t.re))?.kind;
    if (!m || !kind) return false;
    // `pwd = /home/me` is a working directory, not a password.
    if (/pwd$/i.test(key) && /^[~./$]|\//.test(secret)) return false;
    // Only passwords are short: a token, key or secret has 8 characters or more.
    if (kind !== 'password' && secret.length < 8) return false;
    return secretValue(secret, key, m[2]!, m[3] !== '') && kind;
  },
};

/** A value in prose: "my password is hunter2", "the API token is 8f2c…". */
function proseValue(secret: string, loose: boolean): boolean {
  if (isPlaceholder(secret) || isPathLike(secret) || isPhraseLike(secret)) return false;
  if (/^\d+$/.test(secret)) return loose && secret.length >= 4;
  if (isWordish(secret)) return loose && secret.length >= 10 && !COMMON_WORDS.test(secret) && /[A-Z]/.test(secret.slice(1));
  const c = charClasses(secret);
  return loose ? c.digit || c.symbol || (c.upper && c.lower) : c.digit && shannonEntropy(secret) >= 3.3;
}

/** A Discord bot token's first part is a user id (digits) in base64. */
function discordId(secret: string): boolean {
  const id = Buffer.from(secret.split('.')[0]!, 'base64').toString('latin1');
  return /^\d{17,20}$/.test(id);
}

export const HIPO_RULES: readonly ScannerRule[] = [
  {
    id: 'private-key',
    keywords: ['-----begin'],
    secretGroup: 0,
    // Whole PEM/OpenSSH/PGP private key blocks, body included; an unterminated block runs to
    // the end of its paragraph.
    regex: raw`-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|(?=\n\s*\n)|$)`,
  },
  {
    id: 'aws-access-key',
    keywords: ['akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aroa', 'anpa', 'anva', 'aipa'],
    regex: raw`(?<![A-Za-z0-9])((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16})(?![A-Za-z0-9])`,
    accept: (s) => shannonEntropy(s) >= 3,
  },
  {
    id: 'aws-secret',
    keywords: ['aws', 'secret'],
    ignoreCase: true,
    secretGroup: 3,
    regex: raw`(aws[ _-]?secret[ _-]?access[ _-]?key|aws[ _-]?secret(?:[ _-]?key)?|secret[ _-]?access[ _-]?key)(["']?\s*(?:[:=]|=>|:=|\bis)\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
  },
  {
    // An AWS secret access key written without its name: 40 random base64 characters.
    id: 'aws-secret',
    keywords: [],
    anchor: 'token',
    minLength: 40,
    regex: raw`(?<![A-Za-z0-9/+=_-])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=_-])`,
    accept: looksLikeBase64Secret,
  },
  { id: 'anthropic-key', keywords: ['sk-ant-'], regex: raw`${EDGE}(sk-ant-[A-Za-z0-9_-]{20,})`, accept: randomBody(/^sk-ant-(?:[a-z]+\d\d-)?/) },
  { id: 'openai-key', keywords: ['sk-'], regex: raw`${EDGE}(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})`, accept: randomBody(/^sk-(?:proj-|svcacct-|admin-)?/) },
  { id: 'stripe-key', keywords: ['sk_live', 'sk_test', 'sk_prod', 'rk_live', 'rk_test', 'rk_prod'], regex: raw`${EDGE}((?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,})` },
  { id: 'stripe-webhook-secret', keywords: ['whsec_'], regex: raw`${EDGE}(whsec_[A-Za-z0-9+/=]{24,})` },
  { id: 'github-token', keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'], regex: raw`(?<![A-Za-z0-9_])((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})` },
  {
    id: 'gitlab-token',
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glft-', 'glsoat-', 'glimt-', 'glagent-', 'glcbt-', 'gloas-'],
    regex: raw`${EDGE}((?:glpat|gldt|glrt|glptt|glft|glsoat|glimt|glagent|glcbt|gloas)-[A-Za-z0-9_.-]{20,})`,
  },
  { id: 'slack-token', keywords: ['xox'], regex: raw`${EDGE}(xox[abposre]-[A-Za-z0-9-]{10,})` },
  { id: 'slack-webhook', keywords: ['hooks.slack.com'], regex: raw`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{20,})` },
  { id: 'discord-webhook', keywords: ['discord'], regex: raw`discord(?:app)?\.com/api/webhooks/(\d{15,22}/[A-Za-z0-9_-]{30,})` },
  { id: 'discord-bot-token', keywords: [], anchor: 'token', minLength: 59, regex: raw`(?<![A-Za-z0-9_.-])([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})(?![A-Za-z0-9_-])`, accept: discordId },
  { id: 'telegram-bot-token', keywords: [':aa'], anchor: 'line', regex: raw`(?:(?<=/bot)|(?<![A-Za-z0-9_:-]))(\d{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])` },
  { id: 'google-api-key', keywords: ['aiza'], regex: raw`${EDGE}(AIza[0-9A-Za-z_-]{35})(?![A-Za-z0-9_-])` },
  { id: 'google-oauth-secret', keywords: ['gocspx-'], regex: raw`${EDGE}(GOCSPX-[A-Za-z0-9_-]{28})` },
  { id: 'new-relic-key', keywords: ['nrak-'], regex: raw`${EDGE}(NRAK-[A-Z0-9]{27})(?![A-Za-z0-9])` },
  { id: 'npm-token', keywords: ['npm_'], regex: raw`(?<![A-Za-z0-9_])(npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])` },
  {
    // .npmrc: `//registry.npmjs.org/:_authToken=…`, `_auth=…`, `_password=…`.
    id: 'npm-token',
    keywords: ['_auth', '_password'],
    secretGroup: 3,
    regex: raw`(?<![A-Za-z0-9])(_authToken|_auth|_password)(\s*=\s*["']?)([^\s"']{6,})`,
  },
  { id: 'huggingface-token', keywords: ['hf_'], regex: raw`(?<![A-Za-z0-9_])(hf_[A-Za-z0-9]{30,})` },
  { id: 'mailgun-key', keywords: ['key-'], regex: raw`${EDGE}(key-[0-9a-f]{32})(?![A-Za-z0-9])` },
  {
    id: 'twilio-auth-token',
    keywords: ['twilio', 'auth'],
    ignoreCase: true,
    secretGroup: 2,
    regex: raw`(twilio[\w .-]{0,30}?(?:auth[ _-]?token|token|secret)|auth[ _-]?token)["']?\s*(?:(?:is|was|=|:|=>)\s*)?["']?([0-9a-f]{32})(?![0-9a-z])`,
  },
  { id: 'jwt', keywords: ['eyj'], regex: raw`${EDGE}(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})` },
  {
    id: 'azure-storage-key',
    keywords: ['accountkey', 'sharedaccess', 'sharedkey'],
    ignoreCase: true,
    secretGroup: 2,
    regex: raw`(AccountKey|SharedAccessKey|SharedAccessSignature|SharedKey)\s*=\s*["']?([A-Za-z0-9+/%=]{20,})`,
  },
  { id: 'azure-sas', keywords: ['sig='], regex: raw`(?<=[?&;])sig=([A-Za-z0-9%+/=]{16,})`, accept: (s) => shannonEntropy(s) >= 3 },
  {
    id: 'url-password',
    keywords: ['://'],
    ignoreCase: true,
    secretGroup: 2,
    // scheme://user:password@host — keep the user and host, drop the password. The scheme is
    // looked back for, so the regex scans for `://` rather than trying every word.
    regex: raw`(?<=\b[a-z][a-z0-9+.-]{1,20})://([^\s:/@]*):([^\s@/]+)@`,
    accept: (s) => !/^(?:pass(?:word)?|pwd|secret)$/i.test(s),
  },
  {
    id: 'bearer-token',
    keywords: ['bearer'],
    ignoreCase: true,
    secretGroup: 3,
    regex: raw`\b(Bearer)(\s+)([A-Za-z0-9._~+/-]{12,}=*)`,
    accept: (s) => !isWordish(s) && !isPhraseLike(s) && shannonEntropy(s) >= 3 && (charClasses(s).digit || (charClasses(s).upper && charClasses(s).lower)),
  },
  {
    id: 'auth-header',
    keywords: ['authorization'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`Authorization["']?\s*[:=]\s*["']?(?:Basic|Token|Digest|Bearer|Bot|Key)\s+([A-Za-z0-9._~+/-]{8,}=*)`,
    accept: (s) => !isWordish(s) && !isPhraseLike(s),
  },
  {
    // curl -u user:pass / wget --user=…: the password only.
    id: 'cli-password',
    keywords: ['curl', 'wget'],
    ignoreCase: true,
    secretGroup: 3,
    regex: raw`\b(?:curl|wget)\b[^\n]*?\s(?:-u|--user|--http-user)(?:=|\s*)(["']?)([^\s:"']+):([^\s"']{3,})`,
    accept: (s) => !/^\$/.test(s),
  },
  {
    id: 'cli-password',
    keywords: ['--pass', '--token', '--api', '--secret', '--client-secret', '--auth', '--access', 'sshpass', 'mysql', 'mariadb'],
    ignoreCase: true,
    secretGroup: 2,
    regex: raw`(?:--(?:password|passwd|pass|token|api-key|apikey|api-token|secret|client-secret|auth-token|access-token)(?:=|\s+)|\bsshpass\b[^\n]*?\s-p\s*|\b(?:mysql|mysqldump|mariadb)\b[^\n]*?\s-p(?=\S))(["']?)([^\s"']{3,})`,
    accept: (s) => !/^\$/.test(s) && !isPlaceholder(s) && !isWordish(s) && !s.startsWith('-'),
  },
  ASSIGNMENT,
  {
    id: 'password',
    keywords: ['pass', 'pin', 'pwd'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:password|passcode|passphrase|passwd|pin(?: code)?|pwd)(?:\s+(?:for|of|on|to)(?:\s+[^\s:=]{1,30}){1,3}?)?\s+(?:is now|is|was|will be|has been set to|set to|=|:)\s+["'\x60]?([^\s"'\x60,;]{2,}[^\s"'\x60,;.!?:)\]])`,
    accept: (s) => proseValue(s, true),
  },
  {
    id: 'secret',
    keywords: ['api', 'access', 'secret', 'token', 'cred'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:api[ _-]?key|access[ _-]?key|secret[ _-]?key|token|secret|credentials?)\s+(?:is now|is|was|=|:)\s+["'\x60]?([A-Za-z0-9_\-./+=]{11,}[A-Za-z0-9_\-/+=])`,
    accept: (s) => proseValue(s, false),
  },
];
