// Bringing the nodes hipo already wrote up to the redaction rules in force. A node is redacted
// as it is written, by the rules of the hipo that wrote it: a fixed node is never written again,
// so a secret that a newer hipo's rules (or a pattern added to `redactPatterns`) would catch
// stays in it. When the rules differ from the ones recorded (state/redaction.ts), every node is
// read once and, where the rules now find something, written again with only that redacted:
// no summary is made again, and the frontmatter's bookkeeping follows (its `body-hash`, and a
// parent's `source-hash` where it recorded its children as they were), so the node is neither
// taken for a hand edit nor regenerated. Raw logs are never touched.
//
// A node edited by hand is redacted too: the file is one hipo wrote, which people commit, and
// the secret in it most likely came from hipo. Its recorded `body-hash` is kept, so it stays a
// hand edit that hipo leaves alone, and no copy goes to `edits/` (a copy of a secret is one more).
// A file hipo did not write (no `body-hash`) is the user's own and is left as it is.
import type { Redactor } from '../redact/redactor.js';
import { replaceIfUnchanged } from '../fs/atomic.js';
import { childrenHash, rootSourceHash } from '../plan/verdict.js';
import { monthChildren, weekChildren } from '../plan/children.js';
import { bodyHashOf } from '../tree/body-hash.js';
import { documentBody, fmString, renderFrontmatter, splitFrontmatter } from '../tree/frontmatter.js';
import type { LocalDate } from '../time/calendar.js';
import { nodeKey, type NodeKey, type Period } from '../tree/layout.js';
import { readNode } from '../tree/read.js';
import { isHandEdited, type NodeInfo } from '../tree/snapshot.js';
import { decodeText } from '../tree/text.js';
import type { TreeState } from './tree-state.js';
import type { CountTokens } from '../text/tokens.js';

export interface Reredaction {
  /** Nodes (memory-relative) whose text held what the rules now redact: written again, redacted. */
  redacted: string[];
  /** Parents written again only to record their children's new body hashes. */
  rehashed: string[];
  /** Nodes that could not be brought up to the rules: looked at again next run. */
  warnings: string[];
}

export interface ReredactOptions {
  /** The counter ROOT's `tokens` was made with (compaction.tokenizer): a redacted body is counted again. */
  countTokens: CountTokens;
}

const LEVELS = ['daily', 'weekly', 'monthly', 'root'] as const;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Brings every node of `tree` up to `redactor`'s rules, children before parents. `rootSettings`:
 * what ROOT's source hash is made with (rootSettingsOf).
 */
export function reredactNodes(tree: TreeState, redactor: Redactor, rootSettings: string, opts: ReredactOptions): Reredaction {
  const out: Reredaction = { redacted: [], rehashed: [], warnings: [] };
  // The records as they were: a parent whose source hash matched its children then is current,
  // and is given the hash of its children as they are now.
  const before: ReadonlyMap<NodeKey, NodeInfo> = new Map(tree.nodes);
  const days = new Set<LocalDate>();
  for (const [date, raw] of tree.raws) if (raw.usable) days.add(date);
  for (const n of before.values()) if (n.period.level === 'daily') days.add(n.period.date);
  const months = [...before.values()]
    .map((n) => n.period)
    .filter((p) => p.level === 'monthly')
    .sort((a, b) => (a.month < b.month ? -1 : 1));
  // What the rules found in each node and below it: a parent's keywords came from its children's text.
  const secrets = new Map<NodeKey, string[]>();
  const childrenOf = (p: Period): Period[] =>
    p.level === 'weekly'
      ? weekChildren(p.week, days)
      : p.level === 'monthly'
        ? monthChildren(p.month, days)
        : p.level === 'root'
          ? months
          : [];
  for (const level of LEVELS) {
    const infos = [...before.values()].filter((n) => n.period.level === level).sort((a, b) => (a.relPath < b.relPath ? -1 : 1));
    for (const info of infos) {
      const p = info.period;
      const children = childrenOf(p);
      const below = children.flatMap((c) => secrets.get(nodeKey(c)) ?? []);
      try {
        const done = reredactNode(tree, p, info.relPath, redactor, below, opts, (old) => {
          if (p.level === 'daily') return null;
          if (p.level === 'root') {
            if (old.date === null) return null;
            const was = rootSourceHash(old.date, months, before, rootSettings);
            return old.sourceHash === was ? rootSourceHash(old.date, months, tree.nodes, rootSettings) : null;
          }
          return old.sourceHash === childrenHash(children, before) ? childrenHash(children, tree.nodes) : null;
        });
        if (done.found.length || below.length) secrets.set(nodeKey(p), [...new Set([...done.found, ...below])]);
        if (done.did === 'redacted') out.redacted.push(info.relPath);
        else if (done.did === 'rehashed') out.rehashed.push(info.relPath);
      } catch (err) {
        out.warnings.push(
          `${tree.shown(info.relPath)}: not brought up to the redaction rules (${(err as Error).message}); tried again next run`,
        );
      }
    }
  }
  return out;
}

/**
 * One node: its body redacted (and its topic keywords taken from a secret, its own or `below`,
 * its children's, dropped), its `body-hash` (unless edited by hand) and `source-hash`
 * (`sourceHash`: the new one, or null to keep it) brought in line. Returns what was done and the
 * secrets found in it, in lower case.
 */
function reredactNode(
  tree: TreeState,
  period: Period,
  relPath: string,
  redactor: Redactor,
  below: readonly string[],
  opts: ReredactOptions,
  sourceHash: (old: { sourceHash: string | null; date: LocalDate | null }) => string | null,
): { did: 'redacted' | 'rehashed' | null; found: string[] } {
  const none = { did: null, found: [] };
  // A node file that is a link leading out of the memory folder is not read or written through.
  if (!tree.writableInside(relPath)) return none;
  const { bytes, stamp } = tree.readStamped(relPath);
  const known = tree.node(period);
  const info =
    known && known.stamp.size === stamp.size && known.stamp.mtimeMs === stamp.mtimeMs ? known : readNode(period, relPath, bytes, stamp);
  // A file hipo did not write, or one it cannot read as a node, is not hipo's text.
  if (info.problem || info.recordedBodyHash === null) return none;
  const decoded = decodeText(bytes);
  if (!decoded.ok) return none;
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM) && !decoded.text.startsWith('\ufeff');
  const text = decoded.text;
  // The frontmatter is not parsed (a node's YAML costs more than its redaction): ROOT's date alone is read.
  const doc = documentBody(text);
  const head = text.slice(0, text.length - doc.body.length);
  const redacted = redactor.redact(doc.body).text;
  // Found again only where something was (a large text's findings are remembered).
  const found = redacted === doc.body ? [] : redactor.find(doc.body).map((f) => doc.body.slice(f.start, f.end).toLowerCase());
  const body = found.length || below.length ? withoutSecretKeywords(redacted, [...found, ...below]) : redacted;
  const date = period.level === 'root' ? (fmString(splitFrontmatter(text).data, 'last-updated') as LocalDate | null) : null;
  const hash = sourceHash({ sourceHash: info.sourceHash, date });
  let newHead = head;
  if (body !== doc.body && !isHandEdited(info)) newHead = withHash(newHead, 'body-hash', info.recordedBodyHash, bodyHashOf(body));
  if (hash !== null && info.sourceHash !== null) newHead = withHash(newHead, 'source-hash', info.sourceHash, hash);
  if (period.level === 'root' && body !== doc.body) newHead = withTokens(newHead, doc.body, body, opts.countTokens);
  const next = newHead + body;
  if (next === text) return { did: null, found };
  const data = Buffer.concat([bom ? UTF8_BOM : Buffer.alloc(0), Buffer.from(next, 'utf8')]);
  const written = replaceIfUnchanged(tree.abs(relPath), data, bytes, { durable: false });
  if (!written) throw new Error('it changed while being written');
  tree.noteNode(period, relPath, data, written);
  return { did: body !== doc.body ? 'redacted' : 'rehashed', found };
}

/**
 * `head` with the hash `key` records changed from `from` to `to`, its line written as hipo writes
 * it: a hash that reads as a number in YAML (`9158354825e78068`) is quoted, one that does not
 * may not be.
 */
export function withHash(head: string, key: string, from: string, to: string): string {
  if (from === to) return head;
  const line = new RegExp(`^${key}:[ \\t]*(["']?)${from}\\1([ \\t]*\\r?)$`, 'm');
  if (!line.test(head)) throw new Error(`its ${key} cannot be found in its frontmatter`);
  const written = renderFrontmatter({ [key]: to }).split('\n')[1]!;
  return head.replace(line, (_all, _quote, end: string) => written + end);
}

/**
 * ROOT's `head` with its `tokens` counted again for `body`, which was `old`: counted as the writer
 * counts it (compose/root.ts), the text it was given, which the file holds after a blank line and
 * with a line end added when it had none. A head without the field is returned as it is.
 */
function withTokens(head: string, old: string, body: string, count: CountTokens): string {
  const line = /^tokens:[ \t]*(\d+)([ \t]*\r?)$/m;
  const recorded = line.exec(head);
  if (!recorded) return head;
  const given = (b: string, trimmed: boolean): string => {
    const text = b.replace(/^\r?\n/, '');
    return trimmed ? text.replace(/\r?\n$/, '') : text;
  };
  // Whether the text given ended with its line end cannot be told from the file; the recorded count tells.
  const trimmed = count(given(old, false)) !== Number(recorded[1]);
  return head.replace(line, (_all, _n, end: string) => `tokens: ${count(given(body, trimmed))}${end}`);
}

/** A topic's keywords: a node's (`- name [type]: a, b`), ROOT's Topics Index (`… → [day](…)`) and Recent Patterns (`… · a, b`). */
const KEYWORD_LINE = /^(- [^\n]*?\](?:: on [^\n]*?\) · |: ))([^\n]*?)((?: → \[[^\]\n]*\]\([^)\n]*\))?[ \t]*\r?)$/gm;

/**
 * `body` without the topic keywords taken from a secret: a keyword is a word of the text folded to
 * lower case (`acme-482913`), which a rule or a pattern written for the secret as it is written
 * may not find. Made from redacted sources, a node never has one; one written before has.
 */
function withoutSecretKeywords(body: string, secrets: readonly string[]): string {
  const inSecret = (k: string): boolean =>
    k.length >= 3 &&
    secrets.some((s) => {
      for (let at = s.indexOf(k); at !== -1; at = s.indexOf(k, at + 1)) {
        const before = s[at - 1];
        const after = s[at + k.length];
        if ((before === undefined || !/[\p{L}\p{N}]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}]/u.test(after))) return true;
      }
      return false;
    });
  return body.replace(KEYWORD_LINE, (line, lead: string, list: string, tail: string) => {
    const words = list.split(', ');
    const kept = words.filter((w) => !inSecret(w.trim().toLowerCase()));
    if (kept.length === words.length) return line;
    if (kept.length) return `${lead}${kept.join(', ')}${tail}`;
    // No keyword left: the topic's line as it is written without any.
    return `${lead.replace(/(?:: | · )$/, '')}${tail}`;
  });
}
