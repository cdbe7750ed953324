// Tests that tell a secret from an ordinary string of the same shape. A credential is random:
// high Shannon entropy, several character classes. Words, identifiers, paths, hashes named as
// such and placeholders are not.

/** Shannon entropy of `s` in bits per character. */
export function shannonEntropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

export interface CharClasses {
  lower: boolean;
  upper: boolean;
  digit: boolean;
  symbol: boolean;
}

export function charClasses(s: string): CharClasses {
  return { lower: /[a-z]/.test(s), upper: /[A-Z]/.test(s), digit: /[0-9]/.test(s), symbol: /[^A-Za-z0-9]/.test(s) };
}

/** Words joined by `-`, `_` or `.`, such as `implementation-details` or `compatible_wrapper`. */
export function isWordish(s: string): boolean {
  return /^[A-Za-z]+(?:[-_.][A-Za-z]+)*$/.test(s);
}

/** Mixed case and a digit: what random API key bodies have and identifiers rarely do. */
export function isMixedRandom(s: string, minEntropy = 3): boolean {
  const c = charClasses(s);
  return c.lower && c.upper && c.digit && shannonEntropy(s) >= minEntropy;
}

/**
 * A lower-cased word that reads as a random token, not a word, a name or a version: letters and
 * digits changing places again and again in one part (`u3xy9qw8er7ty6ui5op4bz`; not `x86_64`,
 * `win10x64`, `covid19`), or hexadecimal with digits and letters (a hash, an id). For text whose
 * case is gone, where isMixedRandom cannot tell.
 */
export function isRandomWord(w: string): boolean {
  if (w.length >= 7 && /^[0-9a-f]+$/.test(w) && /\d/.test(w) && /[a-f]/.test(w)) return true;
  if (w.length < 8) return false;
  return w.split(/[-_.+/]+/).some((part) => part.length >= 8 && (part.match(/[a-z]+|\d+/g)?.length ?? 0) >= 5);
}

/** Only hexadecimal digits: a git SHA, a content hash, an id. */
export function isHex(s: string): boolean {
  return /^[0-9a-fA-F]+$/.test(s);
}

const PLACEHOLDER = new RegExp(
  [
    '^<[^>]*>?$',
    '^\\[[^\\]]*\\]?$',
    '^\\{\\{.*\\}\\}$',
    '^\\$\\{?[A-Za-z_][A-Za-z0-9_.]*\\}?$',
    '^\\$\\(.*\\)$',
    '^%[A-Za-z_]+%$',
    '^(?:process\\.env|os\\.environ|env|secrets|vars|ENV|import\\.meta\\.env)[.\\[(]',
    '^(?:getenv|os\\.getenv|Deno\\.env\\.get)\\(',
    '^[*xX•.#_-]+$',
    '^\\.{3}|…',
    '^(?:your|my|the|some|insert|enter|put|replace|example|sample|dummy|fake|test|placeholder)[-_ ]?(?:api[-_ ]?)?(?:key|token|secret|password|pass|value|here|creds?)(?:[-_ ]?here)?$',
    '^(?:changeme|change[-_]me|changeit|password|passwd|secret|token|redacted|hidden|masked|plaintext|plain|cleartext|encrypted|hashed|salted|generated|random|sensitive|confidential|none|null|nil|undefined|true|false|empty|unset|required|optional|string|str|number|int|integer|bool|boolean|bytes|any|unknown|object|text|default|todo|tbd|n\\/a)$',
  ].join('|'),
  'i',
);

/** A stand-in for a value rather than the value: `<token>`, `${API_KEY}`, `****`, `changeme`. */
export function isPlaceholder(s: string): boolean {
  return PLACEHOLDER.test(s);
}

/** A path, a URL or a file name: `/home/me`, `./key.pem`, `~/.ssh/id_ed25519`, `https://…`. */
export function isPathLike(s: string): boolean {
  return (
    /^(?:[~.]{0,2}\/|[A-Za-z]:\\|[a-z][a-z0-9+.-]*:\/\/)/.test(s) ||
    /^[\w.-]+\.(?:pem|key|crt|cer|p12|pfx|json|ya?ml|toml|env|txt|ini|cfg|conf|md|gpg|asc|pub)$/i.test(s)
  );
}

/** Words and short numbers joined by `-`, `_`, `.` or `/`: `sk-1234-refactor-payment-module`. */
export function isPhraseLike(s: string): boolean {
  const parts = s.split(/[-_./]+/).filter(Boolean);
  if (parts.length < 2) return false;
  return (
    parts.every((p) => /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+|\d{1,6}|v\d+|[A-Z]?[a-z]+\d{1,4})$/.test(p)) && parts.some((p) => /[a-z]{3}/i.test(p))
  );
}
