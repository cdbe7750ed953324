// What of a secretlint finding is replaced, and by which marker. A rule reports a range and names
// what it found in its message data (`{ KEY: 'ghp_…' }`). The range is usually the token itself;
// some rules report more (a whole connection string, a whole webhook URL) or a range that is off
// (the AWS rule's range starts at the key's name, not at its value). hipo replaces the value the
// data names, found where the rule reported it, and of a URL only the password or the path:
// `postgres://app:[REDACTED:url-password]@db:5432/app`.
import type { SecretlintFinding } from './rules/secretlint.js';

export interface ValueSpan {
  start: number;
  end: number;
  kind: string;
}

function stringsIn(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsIn(x, out);
  return out;
}

/** `GITHUB_TOKEN`, `AWSSecretAccessKey` → `github-token`, `aws-secret-access-key`. */
function kebab(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[_\s]+/g, '-')
    .toLowerCase();
}

/** The marker's kind: the message id, with the rule's name before it where the id lacks it. */
function kindOf(f: SecretlintFinding): string {
  const kind = kebab(f.messageId);
  const rule = f.ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  const first = rule.split('-')[0]!;
  return kind.replace(/-/g, '').includes(first) ? kind : `${rule}-${kind}`;
}

/** Where the value the rule names lies: the longest of its data strings that overlaps the range. */
function reportedValue(text: string, f: SecretlintFinding): { start: number; end: number } {
  const [a, b] = f.range;
  let best: { start: number; end: number } | null = null;
  for (const v of stringsIn(f.data)) {
    if (v.length < 8 || (best && v.length <= best.end - best.start)) continue;
    for (let i = text.indexOf(v, Math.max(0, a - v.length)); i !== -1 && i < b; i = text.indexOf(v, i + 1)) {
      if (i + v.length > a) {
        best = { start: i, end: i + v.length };
        break;
      }
    }
  }
  return best ?? { start: a, end: b };
}

const URL_USERINFO = /^[a-z][a-z0-9+.:-]*:\/\/[^\s:/@]*:([^\s@/]+)@/i;
const URL_PATH = /^[a-z][a-z0-9+.:-]*:\/\/[^\s/?#]+\/(?:[a-z]+\/)*/i;

/** The span of `text` to replace for a finding, and its kind. */
export function valueSpan(text: string, f: SecretlintFinding): ValueSpan {
  const { start, end } = reportedValue(text, f);
  const value = text.slice(start, end);
  const userinfo = URL_USERINFO.exec(value);
  if (userinfo) {
    const at = start + userinfo[0].length - 1 - userinfo[1]!.length;
    return { start: at, end: at + userinfo[1]!.length, kind: 'url-password' };
  }
  // A URL that is a credential as a whole (a webhook): keep its host and leading words.
  const path = URL_PATH.exec(value);
  if (path && path[0].length < value.length) return { start: start + path[0].length, end, kind: kindOf(f) };
  return { start, end, kind: kindOf(f) };
}
