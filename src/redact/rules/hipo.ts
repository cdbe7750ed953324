// hipo's own rules: secrets as people write them in notes and conversations (`my password is …`,
// `SESSION_SECRET=…`, `curl -u user:pass`, an Authorization header), with the checks that keep
// a look-alike (`Bearer implementation-details`, `password: string`, `pwd = /home/me`), and
// the provider token formats hipo names by its own kinds (tokens.ts).
import { charClasses, isPathLike, isPhraseLike, isPlaceholder, isWordish, shannonEntropy } from '../entropy.js';
import type { Candidate, ScannerRule } from '../rule.js';
import { TOKEN_RULES } from './tokens.js';

const raw = String.raw;

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
  if (quoted && /\s/.test(value)) return passphrase(value);
  // A name followed by its separator is the next key, not a value (`password:   password: x`);
  // base64 padding is no separator (`"auth": "dXNlcjpTM2NyM3Q="`).
  if (/[:=]$/.test(value) && (value.length < 16 || isWordish(value.replace(/[:=]+$/, '')))) return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(value) || (/^\d+(?:\.\d+)*[a-z]{0,3}$/i.test(value) && value.length < 6)) return false;
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
  if (shannonEntropy(value) >= 2.5) return true;
  // A password is often no random string (`Pw99x!k9`, `aa11bb22`): under a password's name,
  // letters with digits or symbols are one.
  const c = charClasses(value);
  return /pass|pwd|pw$/i.test(key) && value.length >= 6 && (c.lower || c.upper) && (c.digit || c.symbol);
}

/**
 * A quoted value of several words is a passphrase ("correct horse battery staple"), not a label
 * or a message about one (`"Confirm your password"`, `"Passwords do not match."`) nor a template
 * (`"Bearer ${TOKEN}"`).
 */
function passphrase(value: string): boolean {
  const words = value.trim().split(/\s+/);
  return (
    words.length <= 8 &&
    !/^(?:your|my|the|a|an|enter|type|use|must|should|is|are|not|no|at)\b/i.test(value) &&
    !/\b(?:pass\w*|pwd|tokens?|secrets?|keys?|credentials?|required|invalid|characters?)\b/i.test(value) &&
    !/[.!?:]$|[$%]\{|\{\{|<[^>]*>/.test(value)
  );
}

/** Names of secrets in assignments, by the kind their value is redacted as. */
const SECRET_NAMES: [kind: string, names: string][] = [
  ['password', 'password|passwd|passphrase|passcode|pwd|pass|pw'],
  [
    'api-key',
    raw`api[_-]?key|apikey|access[_-]?key|private[_-]?key|secret[_-]?key|key[_-]?base|signing[_-]?key|encryption[_-]?key|master[_-]?key|client[_-]?key`,
  ],
  ['token', 'token|auth'],
  ['secret', 'secret|credentials?|creds'],
];
const NAME_TESTS = SECRET_NAMES.map(([kind, names]) => ({ kind, re: new RegExp(`(?:${names})s?$`, 'i') }));

/** `=`, `:` and their kin, the full-width ones of CJK text too (`token：…`). */
const ASSIGN = raw`(?:=|:=|=>|:|\uFF1A|\uFF1D)`;
/** The key, the separator and the opening quote at the start of an assignment's match. */
const ASSIGNED = new RegExp(raw`^([A-Za-z0-9_.-]*?)(["'\x60]?[ \t]*${ASSIGN}[ \t]*)(["'\x60]?)`);
/** A URL's query value (`?token=…`, `&access_token=…`): up to `&`, `#`, `)` or a space. */
const QUERY_VALUE = raw`(?<=[?&#][\w.%-]*=)([^\s&#)"'\x60<>]+)`;
/** A quoted value, whole: a passphrase of several words, a value holding `,` or `;`. */
const QUOTED_VALUE = raw`"([^"\n]{1,200}?)"|'([^'\n]{1,200}?)'|\x60([^\x60\n]{1,200}?)\x60`;
/**
 * A value as written bare: up to a space, a quote, `,` or `;` (or the full-width `，；。、`); a
 * `)` is its own only inside it (`Pa55)word`), not where it closes a parenthesis or a markdown
 * link (`[docs](https://…?token=…) for`).
 */
const BARE_VALUE = raw`(?:[^\s"'\x60,;)\uFF0C\uFF1B\u3001\u3002]|\)(?![\s.,;:!?)\]]|$))+`;
const BARE = raw`["'\x60]?(${BARE_VALUE})`;

/**
 * A value of an assignment (the match begins at its key, `ASSIGNED`) that is a secret: the kind
 * its key names, or false.
 */
function assignedSecret(secret: string, at: Candidate): string | false {
  const m = ASSIGNED.exec(at.match);
  const key = m?.[1] ?? '';
  const kind = NAME_TESTS.find((t) => namesSecret(key, t.re))?.kind;
  if (!m || !kind || secret.length < 3) return false;
  // A URL's query value is a machine's: a word there is a token too (`?token=expired`).
  if (inQuery(at, m)) return queryValue(secret) && kind;
  // `pwd = /home/me` is a working directory, not a password.
  if (/pwd$/i.test(key) && /^[~./$]|\//.test(secret)) return false;
  // Only passwords are short: a token, key or secret has 8 characters or more.
  if (kind !== 'password' && secret.length < 8) return false;
  return secretValue(secret, key, m[2]!, m[3] !== '') && kind;
}

const inQuery = (at: Candidate, assigned: RegExpExecArray): boolean =>
  /[?&#]/.test(at.text[at.matchStart - 1] ?? '') && assigned[2] === '=';

/** Names of credentials given as a user name and its password: `credentials: admin:S3cr3t!x`. */
const CREDS_NAMES = 'credentials?|creds';
const CREDS_NAME = new RegExp(`(?:${CREDS_NAMES})$`, 'i');
/** A user name and the `:` or `/` after it, at the start of a value: `admin:`, `deploy/`. */
const USER_PART = raw`[^\s"'\x60,;)/:\uFF0C\uFF1B\u3001\u3002]{1,64}[/:]`;
const STARTS_WITH_USER = new RegExp(raw`^${USER_PART}[\s\S]`);
/** A user name and its password, quoted as ASSIGNMENT's QUOTED_VALUE is, or bare as its BARE is. */
const USER_AND_PASSWORD = `(?:${[
  raw`"${USER_PART}([^"\n]{1,200}?)"`,
  raw`'${USER_PART}([^'\n]{1,200}?)'`,
  raw`\x60${USER_PART}([^\x60\n]{1,200}?)\x60`,
  raw`["'\x60]?${USER_PART}(${BARE_VALUE})`,
].join('|')})`;

/**
 * `NAME = value`, `name: value`, `"name": "value"` where the name ends with a secret's name
 * (`DB_PASSWORD`, `apiKey`, `JWT_SECRET`, `SECRET_KEY_BASE`, `twilio_auth_token`). The regex
 * matches from the name's last word; the rest of the name is found by looking back (`prefix`).
 * The value is a URL's query value (`?token=…`, up to `&`, `#` or `)`), a quoted value whole
 * (a passphrase of several words too), or a bare one.
 */
const ASSIGNMENT: ScannerRule = {
  id: 'secret',
  // The first word of each name below: a match begins at one of them.
  keywords: [
    'pass',
    'pw',
    'api',
    'access',
    'private',
    'secret',
    'key',
    'signing',
    'encryption',
    'master',
    'client',
    'token',
    'auth',
    'cred',
  ],
  ignoreCase: true,
  prefix: 40,
  regex: raw`(?:${SECRET_NAMES.map(([, n]) => n).join('|')})s?["'\x60]?[ \t]*${ASSIGN}[ \t]*(?:${QUERY_VALUE}|${QUOTED_VALUE}|${BARE})`,
  accept: (secret, at) => {
    // Credentials as `user:password` are CREDENTIALS_ASSIGNED's, which keeps the user name.
    const m = ASSIGNED.exec(at.match);
    if (m && !inQuery(at, m) && namesSecret(m[1]!, CREDS_NAME) && STARTS_WITH_USER.test(secret)) return false;
    return assignedSecret(secret, at);
  },
};

/**
 * Credentials assigned as a user name and its password, `credentials: admin:S3cr3t!x`,
 * `DB_CREDS="deploy/Zq8kd92x"`: the password only, where ASSIGNMENT would have taken the value
 * whole (the same match up to the user name, the same judgement of the whole value), so the
 * user name stays as it does in a URL's `user:password@`.
 */
const CREDENTIALS_ASSIGNED: ScannerRule = {
  id: 'password',
  keywords: ['cred'],
  ignoreCase: true,
  prefix: 40,
  regex: raw`(?:${CREDS_NAMES})s?["'\x60]?[ \t]*${ASSIGN}[ \t]*${USER_AND_PASSWORD}`,
  accept: (password, at) => {
    const m = ASSIGNED.exec(at.match);
    if (!m || inQuery(at, m) || !namesSecret(m[1]!, CREDS_NAME)) return false;
    const value = at.text.slice(at.matchStart + m[0].length, at.end);
    return assignedSecret(value, at) !== false && !/^\$/.test(password);
  },
};

/** A URL query value that is not a stand-in: `{token}`, `:token`, `%s`, `$TOKEN`, a short number. */
function queryValue(value: string): boolean {
  return value.length >= 4 && !isPlaceholder(value) && !/^[{:<$%]/.test(value) && !/^\d{1,5}$/.test(value);
}

/** A command-line value: quoted whole, else up to a space or a shell separator. */
const CLI_VALUE = raw`(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"';&|]+))`;
/** A command-line word that is not an option. */
const CLI_WORD = raw`(?:"[^"\n]*"|'[^'\n]*'|[^\s"'-]\S*)`;
const HTPASSWD_FLAG = raw`(?:[ \t]+-C[ \t]*\d+|[ \t]+-[A-Za-z]+)`;
/** `htpasswd -nb user password`: with `-n`, no file. */
const HTPASSWD_PRINT = raw`${HTPASSWD_FLAG}*?[ \t]+-[A-Za-z]*n[A-Za-z]*${HTPASSWD_FLAG}*[ \t]+${CLI_WORD}[ \t]+${CLI_VALUE}`;
const HTPASSWD_FILE = raw`${HTPASSWD_FLAG}*[ \t]+${CLI_WORD}[ \t]+${CLI_WORD}[ \t]+${CLI_VALUE}`;
/** Long options whose value is a secret. */
const LONG_OPTIONS = 'password|passwd|pass|token|api-key|apikey|api-token|secret|client-secret|auth-token|access-token';
/** Short options whose value is the password, each with its command. */
const PASSWORD_OPTIONS = [
  raw`\b(?:docker|podman)[ \t]+login\b[^\n;&|]*?[ \t]-p(?:=|[ \t]+)`,
  raw`\bredis-cli\b[^\n;&|]*?[ \t]-a[ \t]+`,
  raw`\bsshpass(?:[ \t]+-[A-Za-oq-z]\S*(?:[ \t]+[^-\s]\S*)?)*?[ \t]+-p[ \t]*`,
  raw`\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n;&|]*?[ \t]-p(?=\S)`,
];

/**
 * A password given to a command: not a variable, a placeholder or the next option; letters
 * alone only where they cannot be an argument of another kind, glued to their option
 * (`mysql -pSecret`) or quoted (`sshpass -p 'sunflower'`).
 */
function cliValue(secret: string, at: Candidate): boolean {
  if (/^\$/.test(secret) || isPlaceholder(secret) || secret.startsWith('-')) return false;
  const before = at.text.slice(Math.max(0, at.start - 2), at.start);
  return !isWordish(secret) || /^-p$|["']$/.test(before);
}

/** Letters of any script (accents as combining marks too), words joined by `-`, `_` or `.`. */
const LETTER_WORDS = /^[\p{L}\p{M}]+(?:[-_.][\p{L}\p{M}]+)*$/u;

/**
 * A value named without a verb ("ssh in with password P@ssw0rd123"): only what reads as a made-up
 * password, letters and digits with a symbol or both cases, since a word or a number after
 * "password" is usually about one ("with password authentication", "with PIN 2024 rules").
 */
function strongValue(value: string): boolean {
  const secret = value.replace(/[.!?]+$/, '');
  if (secret.length < 6 || isPlaceholder(secret) || isPathLike(secret) || isPhraseLike(secret)) return false;
  if (/^v?\d+(?:\.\d+)+/i.test(secret)) return false;
  const c = charClasses(secret);
  return c.digit && (c.lower || c.upper) && (c.symbol || (c.upper && c.lower));
}

/** A value in prose: "my password is hunter2", "the API token is 8f2c…". */
function proseValue(value: string, loose: boolean): boolean {
  // Judged without its closing marks (VALUE_TAIL): `incorrect!` is a word, not a password.
  const secret = value.replace(/[.!?]+$/, '');
  if (isPlaceholder(secret) || isPathLike(secret)) return false;
  // Groups joined by dashes are a password where they mix both cases and digits (`Xk92-pqlm-77`);
  // words and numbers joined so are prose (`case-sensitive`, `auto-generated-2024`).
  if (isPhraseLike(secret) && !(loose && /\d/.test(secret) && /[a-z]/.test(secret) && /[A-Z]/.test(secret))) return false;
  if (/^\d+$/.test(secret)) return loose && secret.length >= 4;
  // Letters of any script: "abgelaufen" and "oublié" are words ("expired", "forgotten"), not passwords.
  if (isWordish(secret) || LETTER_WORDS.test(secret)) {
    return loose && secret.length >= 10 && !COMMON_WORDS.test(secret) && /\p{Lu}/u.test(secret.slice(1));
  }
  const c = charClasses(secret);
  return loose ? c.digit || c.symbol || (c.upper && c.lower) : c.digit && shannonEntropy(secret) >= 3.3;
}

/** Luhn's check digit, as every payment card number carries. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** An IBAN's check (ISO 13616): letters as numbers, the first four characters moved to the end, mod 97 is 1. */
function ibanChecks(value: string): boolean {
  const v = value.replace(/ /g, '');
  if (v.length < 15 || v.length > 34) return false;
  let rest = 0;
  for (const ch of v.slice(4) + v.slice(0, 4)) {
    const n = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rest = n > 9 ? (rest * 100 + n) % 97 : (rest * 10 + n) % 97;
  }
  return rest === 1;
}

/** 13–19 digits that start as card numbers do (Amex, Visa, Mastercard, Discover: 3–6) and pass Luhn. */
function cardNumber(value: string): boolean {
  const digits = value.replace(/[ -]/g, '');
  return digits.length >= 13 && digits.length <= 19 && /^[3-6]/.test(digits) && luhn(digits);
}

/** Whose PIN it is: "my PIN 4821", "the garage PIN 4821". */
const PIN_OWNERS = 'my|the|your|his|her|our|their|card|bank|atm|debit|door|garage|phone|sim|alarm';
const PASSWORD_WORDS = raw`(?:password|passcode|passphrase|passwd|pin(?: code| number)?|pwd|pw)`;
/** "… for the router", "… at home", "… on the guest network": what the password is for. */
const PASSWORD_FOR_WORDS = raw`\s+(?:for|of|on|to|at|in|from|with)(?:\s+[^\s:=\u2013\u2014]{1,30}){1,3}?`;
const PASSWORD_FOR = raw`(?:${PASSWORD_FOR_WORDS}|\s*\((?:for|of|on|to|at)\s[^()\n]{1,40}\))?`;
/**
 * "… for the router is", "… was", "… set to", "… for github:", "… — ": how prose gives a password
 * its value.
 */
const PASSWORD_VERBS = 'is now|is still|is|was|will be|should be|has been set to|set to';
const PASSWORD_IS = raw`${PASSWORD_FOR}(?:\s+(?:(?:${PASSWORD_VERBS})(?:\s*:)?|=|:|\u2013|\u2014|--?)|\s*[:=])\s+`;

/** The last word of an environment variable that holds a secret: `PGPASSWORD`, `GITHUB_TOKEN`. */
const ENV_NAMES = 'PASSWORD|PASSWD|PASSPHRASE|PASS|PWD|PW|TOKEN|SECRET|KEY';
/**
 * The marks closing a value in prose that are the value's own: `!` and `?` (`Plant3dPassw0rd!`).
 * A sentence giving a password rarely ends with one, and a secret's last character left in the
 * text is worse than a lost mark. A last period ends the sentence (`… is hunter2.`).
 */
const VALUE_TAIL = raw`(?:[.!?]*[!?])?`;
/** A value in prose, without the punctuation that ends its sentence. */
const PROSE_VALUE = raw`["'\x60]?([^\s"'\x60,;]{2,}[^\s"'\x60,;.!?:)\]]${VALUE_TAIL})`;
/**
 * "Password" in the languages people most often keep notes in besides English, as they write it
 * before a value: German, French, Spanish, Portuguese, Dutch, Polish, Russian, Japanese, Chinese
 * and Korean. A Latin or Cyrillic word stands alone (`Kennwort`, not `Kennwortregel`); CJK text
 * has no spaces, so a CJK word is one wherever it occurs.
 */
const PASSWORD_WORDS_ALONE = 'passwort|kennwort|mot de passe|contraseña|senha|wachtwoord|hasło|пароль';
const PASSWORD_WORDS_INTL = raw`(?:(?<![A-Za-z\u00c0-\u024f\u0400-\u04ff])(?:${PASSWORD_WORDS_ALONE})|パスワード|暗証番号|密码|密碼|비밀번호|패스워드)`;
/** CJK script and full-width punctuation: where a value written inside CJK text ends (`は…です`, `…。`). */
const CJK_CHARS = raw`\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef`;
/**
 * What the password is for, as those languages say it: "für den Server", "pour le wifi", "del
 * banco", "do e-mail", "voor de router", "do poczty", "от почты", "для входа".
 */
const FOR_INTL = 'für|fuer|vom|von|zum|zur|pour|du|de|des|del|para|do|da|voor|van|dla|от|для';
const PASSWORD_FOR_INTL = raw`(?:\s+(?:${FOR_INTL})(?:\s+[^\s:=\uff1a\uff1d\u2013\u2014]{1,30}){1,3}?)?`;
/**
 * How those languages give the value: `:`, `=` (full-width too), a topic particle right after
 * the word (`パスワードは`, `密码是`, `비밀번호는`), or "is" (`ist`, `lautet`, `est`, `es`, `é`, `is`).
 */
const IS_INTL = raw`\s+(?:ist|lautet|est|es|é|is|\u2013|\u2014|-)(?=\s)`;
const PASSWORD_IS_INTL = raw`${PASSWORD_FOR_INTL}(?:\s*[:=\uff1a\uff1d]|[はが是为為]|[는은]|${IS_INTL})[ \t]*`;
/** A value in prose, ending where CJK text or the sentence resumes. */
const PROSE_VALUE_INTL = raw`["'\x60]?([^\s"'\x60,;${CJK_CHARS}]{2,}[^\s"'\x60,;.!?:)\]${CJK_CHARS}]${VALUE_TAIL})`;

/** "is", "was", "is:", ":": how prose gives a named value. */
const SAID_AS = raw`(?:\s+(?:is|was)(?:\s*:)?|\s*[:=])\s*`;
/** "the key", "its key", ", key": a key named after what it opens (a wifi network). */
const THE_KEY = raw`(?:\b(?:the|its|and)[ \t]+|[,;][ \t]*)(?:wi-?fi[ \t]+)?key`;
/** "secret answer", "security question answer", "answer to my security question". */
const SECURITY_ANSWER = [
  raw`(?<=\b(?:security|secret)[ \t]+(?:question[ \t]+)?)answer`,
  raw`\banswer[ \t]+to[ \t]+(?:my|the|your|our)[ \t]+(?:security|secret)[ \t]+question`,
].join('|');
/** How a security question's answer is given: "is", "was", ":", a dash. */
const PASSWORD_IS_ANSWER = raw`[ \t]+(?:is|was)(?:[ \t]*:)?[ \t]+|[ \t]*[:=][ \t]*|[ \t]+[\u2013\u2014-][ \t]+`;
/** One recovery or backup code: letters and digits, in dash-joined groups or whole. */
const RECOVERY_CODE = raw`[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{3,12}){0,4}`;

/** What a password set "to" a value is for: "the password for the router to …". */
const SET_FOR = raw`\s+(?:for|of|on|at|in)(?:\s+[^\s:=]{1,30}){1,3}?`;
/** A value before the password word: "I use … as my password", "… is the wifi password". */
const WHOSE = 'my|the|our|his|her|their|your';
const VALUE_BEFORE = raw`(?:^|[\s(])["'“‘]?([^\s"'“”‘’]{6,64}?)["'”’]?\s+(?:is|as|was)\s+(?:${WHOSE})\s+(?:[\w-]{1,20}\s+){0,2}`;
/** Words after "password" that make it name something else: "my password manager". */
const NOT_A_PASSWORD =
  'manager|managers|vault|policy|policies|reset|field|hint|generator|app|rules?|requirements?|length|strength|prompt|screen';
/** What a code of digits opens: "the gate code is …". */
const CODE_PLACES = 'door|gate|alarm|garage|lockbox|safe|entry|keypad|building|house|apartment';
/** Digits that go on as something else: a date, a time, a count of lines. */
const NOT_A_CODE = raw`(?![\d.,:/-]|[^\S\n]*(?:am|pm|lines?|bytes?|errors?)\b)`;
/** The names of a wallet's seed phrase. */
const SEED_NAMES = raw`(?:seed|recovery|secret|backup|wallet)[ -](?:phrase|words)|mnemonic(?: phrase)?`;
/** How codes are given: "are", "is:", ":", or nothing. */
const CODES_ARE = raw`\s+(?:is|are|was|were)(?:\s*:)?|\s*[:=]|`;
/** How a Social Security number is named: "SSN", "social security number", "my social". */
const SSN_NAMES = raw`ssn|social security(?: number| no\.?| #)?|(?<=\bmy\s)social(?=\s+(?:is|was|number|no\.?|#|:))`;
/** Names of a secret given its value in prose. */
const PROSE_SECRET_NAMES = raw`api[ _-]?key|access[ _-]?key|secret[ _-]?key|private[ _-]?key|token|secret|credentials?`;

/** "set …", "export …": the verb before an environment variable given a value with "to". */
const ENV_SET = raw`\b(?:[Ss]et|[Ee]xport|[Cc]hanged?|[Uu]pdated?|[Rr]eset)\b[^.!?\n]{0,40}?`;

/** "I set the …", "changed my …": the verb before a password word given a new value with "to". */
const PASSWORD_SET = raw`\b(?:set|changed?|reset|updated?|switched)\b[^.!?\n]{0,40}`;

/**
 * A password said beside its user name ("user admin pass hunter2xyz", "creds admin/S3cr3t!x"):
 * no "is" says it is one, so only a value with letters and digits, not a word, a version, a path
 * or a phrase (`user tests pass v2.3.1`, `creds read/write`, `creds aws/prod-2026`).
 */
function pairedValue(value: string, at: Candidate): boolean {
  const secret = value.replace(/[.!?]+$/, '');
  if (secret.length < 6 || isPlaceholder(secret) || isPathLike(secret) || isPhraseLike(secret)) return false;
  if (/^v?\d+(?:\.\d+)+/i.test(secret) || /^\$/.test(secret)) return false;
  // An issue key (`PROJ-1234`), not a password.
  if (/^[A-Z][A-Z0-9]+-\d+$/.test(secret)) return false;
  // "pass token123 to the API": the verb, not a password.
  if (/^\s+(?:to|into|onto|through|along)\b/i.test(at.text.slice(at.end, at.end + 12))) return false;
  const c = charClasses(secret);
  return c.digit && (c.lower || c.upper);
}

/** A field of a `.pgpass` line: anything but `:` and spaces, or a character escaped with `\`. */
const PGPASS_FIELD = raw`(?:[^\s:\\]|\\.)+`;
const FILE_EXTENSIONS =
  'md|txt|log|csv|tsv|ts|tsx|js|jsx|mjs|cjs|py|go|rb|rs|java|kt|c|h|cc|cpp|hpp|cs|php|sh|json|ya?ml|toml|ini|cfg|conf|xml|html|sql';
/** What a `.pgpass` line's host is not: a number (a time), a file (`grep -n` output: `notes.md:12:a:b:c`). */
const NOT_A_PGPASS_HOST = new RegExp(`^\\d+$|\\.(?:${FILE_EXTENSIONS})$`, 'i');
/** `:port:`, a number or `*`. */
const PGPASS_PORT = raw`:(?:\d{1,5}|\*):`;
/** Looked back for from `:port:`: the host, first on its line (a bullet aside). */
const PGPASS_HOST = raw`(?<=(?:^|\n)[ \t]*(?:[-+>][ \t]+)?${PGPASS_FIELD}${PGPASS_PORT})`;
/** The same in a sentence: the host after a space or an opening mark (`(`, a quote). */
const PGPASS_HOST_IN_TEXT = raw`(?<=(?:^|\s)[(\[<"'\x60]?(?:\*|[\w.-]+)${PGPASS_PORT})`;
/**
 * A `.pgpass` line's password in a sentence, without the marks that end the sentence or close a
 * parenthesis or quote (`…:Tr0ub4dor&3).`). Its last character is no such mark, so the greedy
 * field gives back only those marks: linear, however long the word.
 */
const PGPASS_PASSWORD_IN_TEXT = raw`((?:[^\s:\\]|\\.)*(?:[^\s:\\.,;)\]"'\x60]|\\.))[.,;)\]"'\x60]*(?=\s|$)`;
/** The rest of a `.pgpass` line from `:port:`, alone on its line, and in a sentence. */
const PGPASS_ALONE = raw`${PGPASS_HOST}${PGPASS_FIELD}:${PGPASS_FIELD}:(${PGPASS_FIELD})(?=[ \t]*\r?(?:\n|$))`;
const PGPASS_IN_TEXT = raw`${PGPASS_HOST_IN_TEXT}${PGPASS_FIELD}:${PGPASS_FIELD}:${PGPASS_PASSWORD_IN_TEXT}`;
/** A host as a sentence names it: a domain name, `localhost`, an IPv4 address, or `*`. */
const PGPASS_HOST_NAME = /^(?:\*|localhost|(?:[a-z0-9-]+\.)+[a-z][a-z0-9-]*|\d{1,3}(?:\.\d{1,3}){3})$/i;

/** A user name as written after "user", "login": `admin`, `"deploy"`, `dana@acme.com`. */
const USER_NAME = raw`[ \t]*[:=]?[ \t]*["'\x60]?[^\s"'\x60,;/:=]{1,64}["'\x60]?`;
/** The password's word after a user name, and how its value is given: "pass", ", pwd:", " / pw". */
const PAIRED_PASSWORD = raw`[ \t]*(?:[,;/|][ \t]*)?\b(?:pass(?:word|wd)?|pwd|pw)[ \t]*[:=]?[ \t]*`;
/** "creds", "credentials are:": the name of a user name and password given together. */
const CREDS_ARE = raw`\b(?:creds?|credentials?)(?![\w-])(?:\s+(?:are|is|were|was))?(?:[ \t]*[:=])?[ \t]*`;

/**
 * A `.pgpass` line, `hostname:port:database:username:password`, checked beyond its shape: the
 * host a name or `*` (not a number, as in a time, nor a file, as in `grep -n` output), and not
 * five groups of up to four hex digits (an IPv6 address). Inside a sentence the shape alone says
 * less, so more is asked there: a host named as hosts are (`db.example.com`, `localhost`, an
 * address), a database and a user name that are words, and a password of letters with digits
 * or symbols.
 */
function pgpassLine(secret: string, at: Candidate): boolean {
  if (secret === '*' || /^\$/.test(secret)) return false;
  const lineStart = at.text.lastIndexOf('\n', at.matchStart) + 1;
  const before = at.text.slice(lineStart, at.matchStart);
  const alone = /^[ \t]*(?:[-+>][ \t]+)?(?:[^\s:\\]|\\.)+$/.test(before) && /^[ \t]*\r?(?:\n|$)/.test(at.text.slice(at.end, at.end + 3));
  const host = alone ? before.replace(/^[ \t]*(?:[-+>][ \t]+)?/, '') : (/(?:\*|[\w.-]+)$/.exec(before)?.[0] ?? '');
  if (!/^(?:\*|[\w.-]+)$/.test(host) || NOT_A_PGPASS_HOST.test(host)) return false;
  const fields = [host, ...at.match.slice(1).split(':')];
  if (fields.every((f) => /^[0-9a-f]{1,4}$/i.test(f))) return false;
  if (alone) return true;
  const c = charClasses(secret);
  return (
    PGPASS_HOST_NAME.test(host) &&
    fields.slice(2, 4).every((f) => /^(?:\*|[\w.-]+)$/.test(f)) &&
    secret.length >= 6 &&
    (c.lower || c.upper) &&
    (c.digit || c.symbol) &&
    !isPlaceholder(secret) &&
    !isPathLike(secret) &&
    !isPhraseLike(secret)
  );
}

export const HIPO_RULES: readonly ScannerRule[] = [
  ...TOKEN_RULES,
  {
    id: 'aws-secret',
    keywords: ['aws', 'secret'],
    ignoreCase: true,
    secretGroup: 3,
    regex: raw`(aws[ _-]?secret[ _-]?access[ _-]?key|aws[ _-]?secret(?:[ _-]?key)?|secret[ _-]?access[ _-]?key)(["']?\s*(?:[:=]|=>|:=|\bis)\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
  },
  {
    // .npmrc: `//registry.npmjs.org/:_authToken=…`, `_auth=…`, `_password=…`.
    id: 'npm-token',
    keywords: ['_auth', '_password'],
    secretGroup: 3,
    regex: raw`(?<![A-Za-z0-9])(_authToken|_auth|_password)(\s*=\s*["']?)([^\s"']{6,})`,
  },
  {
    id: 'twilio-auth-token',
    keywords: ['twilio', 'auth'],
    ignoreCase: true,
    secretGroup: 2,
    regex: raw`(twilio[\w .-]{0,30}?(?:auth[ _-]?token|token|secret)|auth[ _-]?token)["']?\s*(?:(?:is|was|=|:|=>)\s*)?["']?([0-9a-f]{32})(?![0-9a-z])`,
  },
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
    // A Sentry DSN, `https://<key>@o123456.ingest.sentry.io/1234567` (older ones
    // `https://<key>:<secret>@sentry.io/123`, self-hosted ones on any host): the key, 32 hex
    // digits as a URL's user name, which no person's user name is (`https://git@github.com/x`).
    id: 'sentry-dsn',
    keywords: ['://'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`(?<=\bhttps?)://([0-9a-f]{32}(?::[0-9a-f]{32})?)@[a-z0-9.-]+(?::\d{1,5})?/(?:[\w.-]+/)*\d+(?![\w/-]|\.\w)`,
  },
  {
    id: 'bearer-token',
    keywords: ['bearer'],
    ignoreCase: true,
    secretGroup: 3,
    regex: raw`\b(Bearer)(\s+)([A-Za-z0-9._~+/-]{12,}=*)`,
    accept: (s) =>
      !isWordish(s) &&
      !isPhraseLike(s) &&
      shannonEntropy(s) >= 3 &&
      (charClasses(s).digit || (charClasses(s).upper && charClasses(s).lower)),
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
    keywords: ['--pass', '--token', '--api', '--secret', '--client-secret', '--auth', '--access'],
    ignoreCase: true,
    secretGroup: 2,
    regex: raw`--(?:${LONG_OPTIONS})(?:=|\s+)(["']?)([^\s"']{3,})`,
    accept: (s) => !/^\$/.test(s) && !isPlaceholder(s) && !isWordish(s) && !s.startsWith('-'),
  },
  {
    // Short options whose value is the password: `docker login -u me -p …`, `redis-cli -a …`,
    // `sshpass -p …` (its own options only: `ssh -p 2222` is a port), `mysql -p…` (glued).
    // Case matters, so the rule does not ignore it: `mysql -P3306` is a port, `sshpass -P` a
    // prompt. A command stops at `;`, `&` or `|`.
    id: 'cli-password',
    keywords: ['docker', 'podman', 'redis-cli', 'sshpass', 'mysql', 'mariadb'],
    regex: raw`(?:${PASSWORD_OPTIONS.join('|')})${CLI_VALUE}`,
    accept: cliValue,
  },
  {
    // `htpasswd -b [file] user password` (batch mode; `-n` prints instead of writing a file).
    id: 'cli-password',
    keywords: ['htpasswd'],
    regex: raw`\bhtpasswd(?=${HTPASSWD_FLAG}*?[ \t]+-[A-Za-z]*b)(?:${HTPASSWD_PRINT}|${HTPASSWD_FILE})`,
    accept: cliValue,
  },
  ASSIGNMENT,
  CREDENTIALS_ASSIGNED,
  {
    // A secret in XML configuration: Maven's settings.xml `<password>…</password>`, an
    // element named as a secret (`<apiKey>`, `<client-secret>`), and .NET's appSettings
    // `<add key="ApiKey" value="…" />`. Judged as an assigned value is.
    id: 'secret',
    keywords: ASSIGNMENT.keywords,
    ignoreCase: true,
    prefix: 40,
    regex: raw`(?:${SECRET_NAMES.map(([, n]) => n).join('|')})s?(?:>([^<>\s]{3,200})</|["']\s+value\s*=\s*["']([^"'\n]{3,200})["'])`,
    accept: (secret, at) => {
      const name = /^[\w.:-]*/.exec(at.text.slice(at.matchStart))?.[0] ?? '';
      const before = at.text[at.matchStart - 1] ?? '';
      const element = at.match.includes('>') && /[<\w.:-]/.test(before);
      const appSetting = !element && /key\s*=\s*["'][\w.:-]*$/i.test(at.text.slice(Math.max(0, at.matchStart - 60), at.matchStart));
      if (!element && !appSetting) return false;
      const kind = NAME_TESTS.find((t) => namesSecret(name, t.re))?.kind;
      if (!kind || /^\$|^%|^\{/.test(secret)) return false;
      if (kind !== 'password' && secret.length < 8) return false;
      return secretValue(secret, name, '=', true) && kind;
    },
  },
  {
    id: 'password',
    keywords: ['pass', 'pin', 'pw'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b${PASSWORD_WORDS}${PASSWORD_IS}${PROSE_VALUE}`,
    accept: (s) => proseValue(s, true),
  },
  {
    // A password named in another language: "Passwort: Abc12345x", "パスワード：hunter2xyz!",
    // "密码是Abc12345x", "비밀번호는 Abc12345x 입니다". Judged as English prose is.
    id: 'password',
    keywords: [
      'kennwort',
      'mot de passe',
      'contraseña',
      'senha',
      'wachtwoord',
      'hasło',
      'пароль',
      'パスワード',
      '暗証番号',
      '密码',
      '密碼',
      '비밀번호',
      '패스워드',
      'pass',
    ],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`${PASSWORD_WORDS_INTL}${PASSWORD_IS_INTL}${PROSE_VALUE_INTL}`,
    accept: (s) => proseValue(s, true),
  },
  {
    // A password given by what was done to it: "I set the wifi password to Xk93-Lq0Z", "changed
    // my email password to …" (not "set the password to expire after 90 days": proseValue).
    id: 'password',
    keywords: ['pass', 'pin', 'pw'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`(?<=${PASSWORD_SET})\b${PASSWORD_WORDS}(?:${SET_FOR})?\s+to(?:\s+be)?\s+${PROSE_VALUE}`,
    accept: (s) => proseValue(s, true),
  },
  {
    // The value before the word: "I use Summer2024! as my password", "Tr0ub4dor&3 is the wifi
    // password" (not "1Password is my password manager": what the password word names decides).
    id: 'password',
    keywords: ['pass', 'pw'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`(?<=${VALUE_BEFORE})${PASSWORD_WORDS}\b(?!\s+(?:${NOT_A_PASSWORD})\b)`,
    // Quoted, it is given as a value: judged as one after "is" is.
    accept: (s, at) => (/["'“‘]/.test(at.text[at.start - 1] ?? '') ? proseValue(s, true) : strongValue(s)),
  },
  {
    // A session cookie, which logs whoever holds it in: `Cookie: sessionid=…`, `Set-Cookie:
    // session=…; HttpOnly`, `PHPSESSID=…`, `_myapp_session=…`. Random values only.
    id: 'session-cookie',
    keywords: ['session', 'sid', 'phpsessid', 'jsessionid', 'remember_'],
    ignoreCase: true,
    prefix: 40,
    secretGroup: 1,
    regex: raw`(?:session(?:id|_id)?|sid|phpsessid|jsessionid|remember_(?:user_)?token)=([^;,\s"'<>]{16,})`,
    accept: (s, at) =>
      /^(?:[\w.-]*_)?$|^connect\.$/i.test(at.match.slice(0, at.match.search(/session|sid|phpsessid|jsessionid|remember_/i))) &&
      !isWordish(s) &&
      !isPhraseLike(s) &&
      shannonEntropy(s) >= 3,
  },
  {
    // A .netrc entry: "machine api.example.com login deploy password Xk93Lq0Zp2" (also on
    // lines of their own, as the file is often written).
    id: 'password',
    keywords: ['pass'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`(?<=\b(?:machine\s+\S+|default)\s+login\s+\S+\s+)password\s+(\S+)`,
    accept: (s) => !isPlaceholder(s) && !/^\$/.test(s) && s.length >= 3,
  },
  {
    // A user name and its password said together, without "password is": "user admin pass
    // hunter2xyz", "username deploy pwd Zq8#kd92", "login admin / pw Tr0ub4dor&3". The user
    // name stays.
    id: 'password',
    keywords: ['user', 'usr', 'login'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:user(?:[ _-]?name)?|usr|login)${USER_NAME}${PAIRED_PASSWORD}${PROSE_VALUE}`,
    accept: pairedValue,
  },
  {
    // A user name and its password joined by `:` after "login" or "username" (or "user:"):
    // "login admin:hunter2xyz". The user name stays; a value holding another `:` is a record of
    // fields (`user: nobody:x:65534:65534`), not a password.
    id: 'password',
    keywords: ['user', 'usr', 'login'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:login|user[ _-]?name|(?:user|usr)(?=[ \t]*[:=]))[ \t]*[:=]?[ \t]*["'\x60]?[^\s"'\x60,;/:=]{1,64}:${PROSE_VALUE}`,
    accept: (s, at) => !s.includes(':') && pairedValue(s, at),
  },
  {
    // Credentials as `user/password` or `user:password`: "creds admin/S3cr3t!x", "credentials
    // are deploy:Zq8kd92x". The user name stays.
    id: 'password',
    keywords: ['cred'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`${CREDS_ARE}["'\x60]?[^\s"'\x60/:]{1,64}[ \t]?[/:][ \t]?${PROSE_VALUE}`,
    accept: pairedValue,
  },
  {
    // A `.pgpass` line, `hostname:port:database:username:password` (`*` for any of the first
    // four), alone on its line or in a sentence ("my pgpass line is db.example.com:5432:…"): no
    // keyword announces it, so the rule reads the whole text. It starts at `:port:`, literal
    // enough for the regex engine to skip ahead to, and looks back for the host only there
    // (looking back first, at every position, made a pass over MemAware's 16 MB 1.5 s slower).
    // Exactly five fields and a numeric port or `*`: not a time (`12:30:45`), an IPv6 address or
    // a log prefix of words (`INFO:app:db:x:y`).
    id: 'password',
    keywords: [],
    anchor: 'text',
    regex: raw`${PGPASS_PORT}(?:${PGPASS_ALONE}|${PGPASS_IN_TEXT})`,
    accept: pgpassLine,
  },
  {
    // A wifi network's key: "the wifi key is …", "WPA2 key: …".
    id: 'password',
    keywords: ['wifi', 'wi-fi', 'wpa', 'wlan', 'network'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:wi-?fi|wpa2?|wlan|network)\s+(?:key|passkey|code)${PASSWORD_IS}${PROSE_VALUE}`,
    accept: (s) => proseValue(s, true),
  },
  {
    // A wifi network's key named a little after the network: "my wifi is HomeNet and the key is
    // Xk92-pqlm-77", "guest wifi: CafeNet, key: …". Only "the key", "its key" or ", key" in the
    // same sentence (not "the ssh key is …"), and only a value of letters with digits, 8
    // characters or more as WPA asks: a word, a number or a key's name there is as likely
    // something else ("the key is 2024 budget talks", "key: Fn+F2").
    id: 'password',
    keywords: ['wifi', 'wi-fi', 'wlan', 'ssid', 'hotspot'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:wi-?fi|wlan|ssid|hotspot)\b[^.!?\n]{0,60}?${THE_KEY}${SAID_AS}${PROSE_VALUE}`,
    accept: (s) => s.length >= 8 && proseValue(s, true) && /\p{L}/u.test(s) && /\d/.test(s),
  },
  {
    // The answer to a security question, which opens the account as a password does: "my secret
    // answer is Fluffy2009", "security answer: …", "the answer to my security question is …".
    // Judged as a password in prose is, so "the security answer is case-sensitive" stays.
    id: 'password',
    // Found at "answer" ("secret" and "security" are far more frequent), the words before it looked back for.
    keywords: ['answer'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`(?:${SECURITY_ANSWER})(?:${PASSWORD_IS_ANSWER})${PROSE_VALUE}`,
    accept: (s) => proseValue(s, true) && !/^v?\d+(?:\.\d+)+/i.test(s),
  },
  {
    // A password named after "with" or "using", no verb: "ssh root@host with password P@ssw0rd1",
    // "log in using the admin password Xk93-Lq0Z" (strongValue: not "with password authentication").
    id: 'password',
    keywords: ['pass', 'pw'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`(?<=\b(?:with|using|use|via)\s+(?:[A-Za-z-]{1,20}\s+){0,2})\b${PASSWORD_WORDS}\s+${PROSE_VALUE}`,
    accept: strongValue,
  },
  {
    // A code that opens a door, said in prose: "the gate code is 4821", "garage code: 7734#",
    // "door code 1948 for the side entrance". Digits only, four to eight of them.
    id: 'password',
    keywords: ['code'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`(?<=\b(?:${CODE_PLACES})\s+)code${PASSWORD_FOR}(?:\s+(?:is now|is|was)\s+|\s*[:=]\s*|\s+)#?(\d{4,8})${NOT_A_CODE}`,
  },
  {
    // An environment variable named as a secret given a value in prose: "set PGPASSWORD to …",
    // "export the GITHUB_TOKEN env var to …". Its name in capitals, so the case matters here.
    id: 'password',
    keywords: ['pass', 'pw', 'token', 'secret', 'key'],
    prefix: 40,
    secretGroup: 1,
    // The name is tested before the verb is looked back for: most hits are a lower-case "key".
    regex: raw`(?:${ENV_NAMES})(?<=${ENV_SET}\b[A-Z0-9_]*[A-Z]{2,10})\x60?(?:\s+env(?:ironment)?\s+var(?:iable)?)?\s+to\s+${PROSE_VALUE}`,
    accept: (s, at) => {
      if (!proseValue(s, true)) return false;
      const name = /^[A-Z0-9_]+/.exec(at.match)?.[0] ?? '';
      return NAME_TESTS.find((t) => namesSecret(name, t.re))?.kind ?? false;
    },
  },
  {
    // A quoted value, words too: "the wifi password is 'sunflower'", a passphrase of several
    // words ("correct horse battery staple").
    id: 'password',
    keywords: ['pass', 'pin', 'pw'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b${PASSWORD_WORDS}(?:${PASSWORD_IS}|\s+)["“'‘]([^"”'’\n]{4,80})["”'’]`,
    accept: (s, at) => {
      if (isPlaceholder(s) || /^(?:your|my|the|a|an) /i.test(s)) return false;
      // Quoted right after the word, with no "is": a passphrase of words or a password-like value,
      // not a label (`the password "Show" toggle`).
      if (/^\S+\s+["“'‘]/.test(at.match)) return (s.trim().split(/\s+/).length >= 3 && passphrase(s)) || proseValue(s, true);
      return true;
    },
  },
  {
    // A PIN or passcode given without "is": "my PIN 4821 for the garage" (not "pin 2024 as the
    // release year": whose PIN it is says it is one).
    id: 'password',
    keywords: ['pin', 'passcode'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`(?:(?<=\b(?:${PIN_OWNERS})\s)pin|\bpasscode)(?: code| number)?\s+#?(\d{4,8})(?![\d.,:/-])`,
  },
  {
    // A payment card number in groups (4-4-4-4, Amex's 4-6-5). No word announces one, so the
    // rule reads the whole text; a run of digits is a card only when it passes Luhn's check.
    id: 'card-number',
    keywords: [],
    anchor: 'text',
    secretGroup: 1,
    regex: raw`(?<![\d/-]|\d[.,])(\d{4}([ -])\d{4}\2\d{4}\2\d{1,4}(?:\2\d{1,3})?|\d{4}([ -])\d{6}\3\d{5})(?![\d/]|[.,][\d]|[ -]\d)`,
    accept: cardNumber,
  },
  {
    // A bank account's IBAN, grouped by four or whole (`DE89 3704 0044 0532 0130 00`): like a
    // card number no word announces it, and its check digits tell it from other codes.
    id: 'iban',
    keywords: [],
    anchor: 'text',
    secretGroup: 1,
    regex: raw`\b([A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?))(?![A-Za-z0-9])`,
    accept: ibanChecks,
  },
  {
    // A one-time-password generator's seed, in base32: "TOTP seed: JBSWY3DPEHPK3PXP".
    id: 'secret',
    keywords: ['totp', '2fa', 'mfa', 'otp'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:totp|2fa|mfa|otp)\s+(?:seed|secret|key)${SAID_AS}([A-Za-z2-7]{16,}=*)(?![A-Za-z0-9])`,
  },
  {
    // Written whole, a card number needs a word that says what it is.
    id: 'card-number',
    keywords: ['card', 'visa', 'mastercard', 'amex', 'credit', 'debit'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`(?:card|visa|mastercard|amex|credit|debit)\b[^\n\d]{0,40}?(?<!\d)(\d{13,19})(?!\d)`,
    accept: cardNumber,
  },
  {
    id: 'card-code',
    keywords: ['cvv', 'cvc', 'security code'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:cvv2?|cvc2?|card security code|security code)\b\s*(?:is|was|:|=|#|-)?\s*(\d{3,4})(?!\d)`,
  },
  {
    // A wallet's seed phrase, which is the wallet: 12 to 24 lower-case words after its name
    // ("seed phrase: abandon ability …", "my recovery phrase is witch collapse …").
    id: 'seed-phrase',
    keywords: ['seed', 'recovery phrase', 'mnemonic', 'secret phrase', 'backup phrase', 'wallet phrase'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:${SEED_NAMES})${SAID_AS}["“'‘]?((?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8})\b`,
    accept: (s) => [12, 15, 18, 21, 24].includes(s.split(/\s+/).length),
  },
  {
    // Codes that stand in for a second factor or reopen an account: "the recovery code is
    // 8F3K-2M9Q-7T1Z", "backup codes: 83921047 19283746". Each code holds a digit.
    id: 'recovery-code',
    keywords: ['recovery', 'backup', '2fa', 'mfa'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:recovery|backup|2fa|mfa)(?: code| codes| key)(?:${CODES_ARE})\s+(${RECOVERY_CODE}(?:,?[ \t]+${RECOVERY_CODE})*)`,
    accept: (s) => s.split(/[,\s]+/).every((c) => /\d/.test(c) && c.replace(/-/g, '').length >= 6 && !/^\d{4}-\d{2}-\d{2}$/.test(c)),
  },
  {
    // A US Social Security number, where the text says it is one ("my social is …" too).
    id: 'ssn',
    keywords: ['ssn', 'social'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:${SSN_NAMES})\b[^\n\d]{0,20}?(?<!\d)(\d{3}([- ]?)\d{2}\2\d{4})(?!\d)`,
    accept: (s) => !/^(?:000|666|9)/.test(s),
  },
  {
    id: 'secret',
    keywords: ['api', 'access', 'secret', 'private', 'token', 'cred'],
    ignoreCase: true,
    secretGroup: 1,
    regex: raw`\b(?:${PROSE_SECRET_NAMES})(?:\s+(?:is now|is|was)(?:\s*:)?|\s*[:=])\s*["'\x60]?([A-Za-z0-9_\-./+=]{11,}[A-Za-z0-9_\-/+=])`,
    accept: (s) => proseValue(s, false),
  },
];
