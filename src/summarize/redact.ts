// Secret redaction: runs on every text before it reaches a node, an index or an LLM.
// Patterns match the *shape of the value* (a provider's key prefix and length, a PEM block, a
// JWT's three base64url parts, a URL's password) and replace only the value, so the sentence
// around it survives: "deploy key is [REDACTED:github-token]".

export interface Redaction {
  text: string;
  /** How many values were replaced, by kind. */
  counts: Record<string, number>;
}

interface Rule {
  kind: string;
  re: RegExp;
  /** A cheap test that must pass before the full pattern runs (most text has no secrets). */
  hint?: RegExp;
  /** Builds the replacement from the match; defaults to the marker alone. */
  replace?: (m: RegExpExecArray, marker: string) => string;
}

const marker = (kind: string): string => `[REDACTED:${kind}]`;

/**
 * A provider token: `prefix` (an alternation of literals) then `rest`, not glued to letters or
 * digits on its left ("task-sk-..." is not an OpenAI key). The left-edge check is a lookbehind
 * placed after the literal, so the engine can scan for the literal instead of trying a
 * lookbehind at every position (10x faster on large logs).
 */
function token(prefix: string, rest: string): RegExp {
  return new RegExp(`(?:${prefix})(?<=(?:^|[^A-Za-z0-9_\\-])(?:${prefix}))${rest}`, 'g');
}

const RULES: Rule[] = [
  {
    kind: 'private-key',
    // Whole PEM/OpenSSH private key blocks, body lines included; an unterminated block runs
    // to the end of its base64 body.
    hint: /-----BEGIN/,
    re: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|(?=\n\s*\n)|$)/g,
  },
  { kind: 'aws-access-key', hint: /A(?:KIA|SIA|GPA|IDA|ROA|NPA|NVA|IPA)/, re: token('AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA', '[0-9A-Z]{16}(?![0-9A-Z])') },
  {
    kind: 'aws-secret',
    hint: /secret/i,
    re: /(aws_secret_access_key|aws_secret|secret_access_key)(["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    replace: (m, k) => `${m[1]}${m[2]}${k}`,
  },
  { kind: 'anthropic-key', hint: /sk-ant-/, re: token('sk-ant-', '[A-Za-z0-9_\\-]{20,}') },
  { kind: 'openai-key', hint: /sk-/, re: token('sk-', '(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_\\-]*[0-9])(?=[A-Za-z0-9_\\-]*[A-Za-z])[A-Za-z0-9_\\-]{20,}') },
  { kind: 'stripe-key', hint: /[sr]k_(?:live|test)_/, re: token('sk_live_|sk_test_|rk_live_|rk_test_', '[A-Za-z0-9]{16,}') },
  { kind: 'github-token', hint: /gh[pousr]_|github_pat_/, re: token('ghp_|gho_|ghu_|ghs_|ghr_|github_pat_', '[A-Za-z0-9_]{30,}') },
  { kind: 'gitlab-token', hint: /glpat-/, re: token('glpat-', '[A-Za-z0-9_\\-]{20,}') },
  { kind: 'slack-token', hint: /xox[abposr]-/, re: token('xoxa-|xoxb-|xoxp-|xoxo-|xoxs-|xoxr-', '[A-Za-z0-9-]{10,}') },
  { kind: 'google-api-key', hint: /AIza/, re: token('AIza', '[0-9A-Za-z_\\-]{35}') },
  { kind: 'npm-token', hint: /npm_/, re: token('npm_', '[A-Za-z0-9]{36}') },
  { kind: 'huggingface-token', hint: /hf_/, re: token('hf_', '[A-Za-z0-9]{30,}') },
  { kind: 'jwt', hint: /eyJ/, re: token('eyJ', '[A-Za-z0-9_\\-]{8,}\\.eyJ[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{8,}') },
  {
    kind: 'url-password',
    // scheme://user:password@host — keep the user and host, drop the password.
    hint: /:\/\/[^\s@/]*@/,
    re: /\b([a-z][a-z0-9+.\-]{1,20}:\/\/)([^\s:/@]+):([^\s@/]+)@/gi,
    replace: (m, k) => (m[3]!.startsWith('[REDACTED') ? m[0] : `${m[1]}${m[2]}:${k}@`),
  },
  {
    kind: 'bearer-token',
    hint: /Bearer/,
    re: /\b(Bearer)(\s+)([A-Za-z0-9._~+/\-]{16,}=*)/g,
    replace: (m, k) => `${m[1]}${m[2]}${k}`,
  },
  {
    kind: 'auth-header',
    hint: /Authorization/i,
    re: /\b(Authorization["']?\s*[:=]\s*["']?(?:Basic|Token|Digest)\s+)([A-Za-z0-9._~+/\-]{8,}=*)/gi,
    replace: (m, k) => `${m[1]}${k}`,
  },
  {
    kind: 'password',
    // password: hunter2 / "passwd" = '...' / PGPASSWORD=... ; the value only.
    hint: /(?:pass|pwd|secret|api.?key|token|private_key)\w*["']?[ \t]*[:=]/i,
    // The keyword is matched first (a fast literal scan); whatever precedes it stays as it is.
    re: /(password|passwd|passphrase|pwd|client_secret|api_key|apikey|api-key|access_token|auth_token|secret_key|private_key)(s?["']?[ \t]*[:=][ \t]*)(["']?)([^\s"',;]{3,})\3/gi,
    replace: (m, k) => {
      const key = m[1]!.toLowerCase();
      const value = m[4]!;
      if (value.startsWith('[REDACTED')) return m[0];
      // `pwd = /home/me` is a working directory, not a password.
      if (/(^|_)pwd$/.test(key) && /^[~./$]|\//.test(value)) return m[0];
      // Placeholders and references are not secrets.
      if (/^(?:<.*|\$\{?[A-Z_]+\}?|\*+|x+|null|none|true|false|required|optional|env|process\.env\..*)$/i.test(value)) return m[0];
      return `${m[1]}${m[2]}${m[3]}${k}${m[3]}`;
    },
  },
];

export class Redactor {
  private readonly rules: Rule[];

  constructor(extraPatterns: readonly string[] = []) {
    this.rules = [...RULES, ...extraPatterns.map((p, i) => ({ kind: `custom-${i + 1}`, re: new RegExp(p, 'g') }))];
  }

  redact(text: string): Redaction {
    const counts: Record<string, number> = {};
    let out = text;
    for (const rule of this.rules) {
      // Cheap pre-checks keep large clean texts fast.
      if (rule.hint && !rule.hint.test(out)) continue;
      rule.re.lastIndex = 0;
      if (!rule.re.test(out)) continue;
      rule.re.lastIndex = 0;
      const k = marker(rule.kind);
      out = out.replace(rule.re, (...args: unknown[]) => {
        const groups = args.slice(0, -2).filter((x) => typeof x === 'string' || x === undefined) as string[];
        const m = Object.assign([...groups], { index: 0, input: '' }) as unknown as RegExpExecArray;
        const replacement = rule.replace ? rule.replace(m, k) : k;
        if (replacement !== groups[0]) counts[rule.kind] = (counts[rule.kind] ?? 0) + 1;
        return replacement;
      });
    }
    return { text: out, counts };
  }
}
