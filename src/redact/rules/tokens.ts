// Provider token formats, written from the providers' published formats: a prefix the provider
// puts on its keys (`ghp_`, `xoxb-`, `AKIA`, `dop_v1_`) and the body's alphabet and length, or
// a shape (a JWT's three parts, a Discord bot token, a private key block). Each is found where
// its prefix occurs (see rule.ts), bare tokens on long runs of token characters.
import { charClasses, isHex, isMixedRandom, isPhraseLike, shannonEntropy } from '../entropy.js';
import type { Candidate, ScannerRule } from '../rule.js';

const raw = String.raw;
/** Not glued to a token character on the left: `task-sk-…` is not an OpenAI key. */
const EDGE = raw`(?<![A-Za-z0-9_-])`;

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
const randomBody =
  (prefix: RegExp) =>
  (s: string): boolean => {
    const body = s.replace(prefix, '');
    const c = charClasses(body);
    return !isPhraseLike(body) && c.digit && (c.lower || c.upper) && shannonEntropy(body) >= 3.5;
  };

/** The label of a private key block: `RSA PRIVATE KEY`, `PRIVATE KEY`, `PGP PRIVATE KEY BLOCK`. */
const KEY_LABEL = raw`(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?`;
/** The longest block taken whole: a PGP export with several 4096-bit subkeys is about 20 KB. */
const KEY_MAX = 65536;
/** A line break, also as a JSON string writes it (`\n`). */
const KEY_SEP = raw`(?:\r?\n|\\r\\n|\\n)`;
/** Before a line of the block: indentation, a list bullet or quote (`hipo log` bullets lines), a line number. */
const KEY_LINE_START = raw`[ \t]*(?:[-*>][ \t]+|\d{1,6}(?:→|:|\|)[ \t]*)?`;
/** An armor header: `Version: GnuPG v2`, `Comment: …`, `Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`. */
const KEY_HEADER = raw`[A-Z][A-Za-z0-9-]*: [^\r\n\\]*`;
/**
 * A line of the body: base64 of some length (or ending in its padding), PGP's `=` checksum, the
 * short last line before the checksum or the END; of a line cut short (` … [N characters not
 * kept]`), its base64.
 */
const KEY_BODY = raw`(?:${[
  raw`[A-Za-z0-9+/]{16,}={0,2}`,
  raw`[A-Za-z0-9+/]{2,}={1,2}`,
  raw`=[A-Za-z0-9+/]{4}`,
  raw`[A-Za-z0-9+/]{1,15}(?=${KEY_SEP}${KEY_LINE_START}(?:=[A-Za-z0-9+/]{4}|-----END ))`,
].join('|')})(?![A-Za-z0-9+/=])`;
/** The body as a one-line tool call shows it: long base64 runs between spaces (the last one cut short). */
const KEY_BODY_RUN = raw`[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])`;
/**
 * The armor headers of a block on one line (`Version: GnuPG v2 Comment: …`), as a tool call's
 * command shows it: a few words, taken only where the body's base64 follows.
 */
const KEY_INLINE_HEADERS = raw`(?:(?:[ \t]+\S{1,60}){1,12}?(?=[ \t]+[A-Za-z0-9+/]{40}))?`;
/** A run of base64 as long as a key's lines. */
const KEY_RUN = /[A-Za-z0-9+/]{40,}/;
/** Words in a row, as prose has and a key block never does. */
const PROSE = /\b[A-Za-z][a-z]+(?:,? [a-z]+){3}\b/;
const KEY_HEADER_LINE = new RegExp(`(?:^|${KEY_SEP})${KEY_LINE_START}${KEY_HEADER}`, 'g');

/**
 * A block from BEGIN to END holds a key, not a text that names both markers with prose between:
 * it has base64 as long as a key's lines, or no prose outside its armor headers (`Comment: my
 * signing key`).
 */
function keyBlock(block: string): boolean {
  return KEY_RUN.test(block) || !PROSE.test(block.replace(KEY_HEADER_LINE, '\n'));
}

/** A Discord bot token's first part is a user id (digits) in base64. */
function discordId(secret: string): boolean {
  const id = Buffer.from(secret.split('.')[0]!, 'base64').toString('latin1');
  return /^\d{17,20}$/.test(id);
}

export const TOKEN_RULES: readonly ScannerRule[] = [
  {
    // A whole private key block, BEGIN to its END: PEM (RSA, EC, DSA, PKCS#8, ENCRYPTED),
    // OpenSSH and armored PGP keys, whose headers (`Version:`, `Proc-Type:`) end in a blank line
    // before the body. The block may be written any way (one line, JSON-escaped, numbered lines):
    // what lies between is not read, unless it is prose (a text naming both markers, see keyBlock).
    id: 'private-key',
    keywords: ['-----begin'],
    secretGroup: 0,
    regex: raw`-----BEGIN (${KEY_LABEL})-----(?:(?!-----BEGIN )[\s\S]){0,${KEY_MAX}}?-----END \1-----`,
    accept: keyBlock,
  },
  {
    // A block without its END (cut short, pasted in part, a tool call's command clipped) or not
    // taken whole above: its lines as far as they are a key's (headers, blank lines, base64),
    // and its END if that follows.
    id: 'private-key',
    keywords: ['-----begin'],
    secretGroup: 0,
    regex: [
      raw`-----BEGIN (${KEY_LABEL})-----`,
      raw`(?:${KEY_SEP}${KEY_LINE_START}${KEY_HEADER})*${KEY_INLINE_HEADERS}`,
      // Body lines, blank lines only between them (the blank line after the block stays).
      raw`(?:(?:${KEY_SEP}${KEY_LINE_START})*${KEY_SEP}${KEY_LINE_START}${KEY_BODY}|[ \t]+${KEY_BODY_RUN})*`,
      raw`(?:${KEY_SEP}${KEY_LINE_START}-----END \1-----)?`,
    ].join(''),
  },
  {
    id: 'aws-access-key',
    keywords: ['akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aroa', 'anpa', 'anva', 'aipa'],
    regex: raw`(?<![A-Za-z0-9])((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16})(?![A-Za-z0-9])`,
    accept: (s) => shannonEntropy(s) >= 3,
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
  {
    id: 'anthropic-key',
    keywords: ['sk-ant-'],
    regex: raw`${EDGE}(sk-ant-[A-Za-z0-9_-]{20,})`,
    accept: randomBody(/^sk-ant-(?:[a-z]+\d\d-)?/),
  },
  {
    id: 'openai-key',
    keywords: ['sk-'],
    regex: raw`${EDGE}(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})`,
    accept: randomBody(/^sk-(?:proj-|svcacct-|admin-)?/),
  },
  {
    id: 'stripe-key',
    keywords: ['sk_live', 'sk_test', 'sk_prod', 'rk_live', 'rk_test', 'rk_prod'],
    regex: raw`${EDGE}((?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,})`,
  },
  { id: 'stripe-webhook-secret', keywords: ['whsec_'], regex: raw`${EDGE}(whsec_[A-Za-z0-9+/=]{24,})` },
  {
    id: 'github-token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    regex: raw`(?<![A-Za-z0-9_])((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})`,
  },
  {
    id: 'gitlab-token',
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glft-', 'glsoat-', 'glimt-', 'glagent-', 'glcbt-', 'gloas-'],
    regex: raw`${EDGE}((?:glpat|gldt|glrt|glptt|glft|glsoat|glimt|glagent|glcbt|gloas)-[A-Za-z0-9_.-]{20,})`,
  },
  { id: 'slack-token', keywords: ['xox', 'xapp-'], regex: raw`${EDGE}((?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,})` },
  {
    id: 'slack-webhook',
    keywords: ['hooks.slack.com'],
    regex: raw`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{20,})`,
  },
  { id: 'discord-webhook', keywords: ['discord'], regex: raw`discord(?:app)?\.com/api/webhooks/(\d{15,22}/[A-Za-z0-9_-]{30,})` },
  {
    id: 'discord-bot-token',
    keywords: [],
    anchor: 'token',
    minLength: 59,
    regex: raw`(?<![A-Za-z0-9_.-])([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})(?![A-Za-z0-9_-])`,
    accept: discordId,
  },
  {
    id: 'telegram-bot-token',
    keywords: [':aa'],
    anchor: 'line',
    regex: raw`(?:(?<=/bot)|(?<![A-Za-z0-9_:-]))(\d{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])`,
  },
  { id: 'google-api-key', keywords: ['aiza'], regex: raw`${EDGE}(AIza[0-9A-Za-z_-]{35})(?![A-Za-z0-9_-])` },
  { id: 'google-oauth-secret', keywords: ['gocspx-'], regex: raw`${EDGE}(GOCSPX-[A-Za-z0-9_-]{28})` },
  { id: 'new-relic-key', keywords: ['nrak-'], regex: raw`${EDGE}(NRAK-[A-Z0-9]{27})(?![A-Za-z0-9])` },
  { id: 'npm-token', keywords: ['npm_'], regex: raw`(?<![A-Za-z0-9_])(npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])` },
  { id: 'huggingface-token', keywords: ['hf_'], regex: raw`(?<![A-Za-z0-9_])(hf_[A-Za-z0-9]{30,})` },
  { id: 'mailgun-key', keywords: ['key-'], regex: raw`${EDGE}(key-[0-9a-f]{32})(?![A-Za-z0-9])` },
  { id: 'jwt', keywords: ['eyj'], regex: raw`${EDGE}(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})` },
  { id: 'digitalocean-token', keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'], regex: raw`${EDGE}(do[por]_v1_[0-9a-f]{64})(?![A-Za-z0-9])` },
  // PyPI's API tokens are macaroons whose first bytes name pypi.org: base64 `AgEIcHlwaS5vcmc`.
  { id: 'pypi-token', keywords: ['pypi-ageichlwas5vcmc'], regex: raw`${EDGE}(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,})` },
  {
    id: 'doppler-token',
    keywords: ['dp.'],
    regex: raw`(?<![A-Za-z0-9_.-])(dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44})(?![A-Za-z0-9])`,
  },
  { id: 'postman-key', keywords: ['pmak-'], regex: raw`${EDGE}(PMAK-[0-9a-f]{24}-[0-9a-f]{34})(?![A-Za-z0-9])` },
  // age's X25519 identities: the prefix, then 58 characters of bech32's alphabet.
  { id: 'age-secret-key', keywords: ['age-secret-key-1'], regex: raw`(AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58})(?![A-Za-z0-9])` },
  { id: 'planetscale-token', keywords: ['pscale_'], regex: raw`${EDGE}(pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,64})` },
  {
    id: 'square-token',
    keywords: ['sq0atp-', 'sq0csp-'],
    regex: raw`${EDGE}(sq0atp-[A-Za-z0-9_-]{22}|sq0csp-[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])`,
  },
  { id: 'square-token', keywords: ['eaaa'], regex: raw`${EDGE}(EAAA[A-Za-z0-9_-]{60})(?![A-Za-z0-9_-])` },
  // Meta (Facebook, Instagram) access tokens.
  { id: 'meta-access-token', keywords: ['eaa'], regex: raw`${EDGE}(EAA[A-Za-z0-9]{80,})` },
  {
    id: 'alibaba-access-key',
    keywords: ['ltai'],
    regex: raw`${EDGE}(LTAI[A-Za-z0-9]{12,20})(?![A-Za-z0-9])`,
    accept: (s) => charClasses(s.slice(4)).digit,
  },
  // Azure AD (Entra) client secrets: three characters, a digit, `Q~`, then 31 to 34 more.
  {
    id: 'azure-client-secret',
    keywords: ['q~'],
    anchor: 'line',
    regex: raw`(?<![A-Za-z0-9_~.-])([A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])`,
  },
  // A Twilio API key's SID: `SK` and 32 hex digits, often pasted alone.
  { id: 'twilio-api-key', keywords: [], anchor: 'token', minLength: 34, regex: raw`(?<![A-Za-z0-9])(SK[0-9a-f]{32})(?![A-Za-z0-9])` },
];
