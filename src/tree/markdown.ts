// A linear-time scanner for the block structure of markdown: headings, fenced code, HTML
// comments, list items, paragraphs. remark is the reference (test/tree/markdown.test.ts holds the
// two side by side); this exists because remark parses about 0.7 MB/s here, and a day's raw log
// can be many megabytes. It follows CommonMark where it decides what is a heading or code, the
// two things that change meaning: a `## x` inside a fence or comment is not a section.

export type Block =
  | { kind: 'heading'; depth: number; text: string; line: number; endLine: number }
  | { kind: 'code'; lang: string; text: string; line: number; endLine: number }
  | { kind: 'html'; text: string; line: number; endLine: number }
  | { kind: 'item'; text: string; indent: number; ordered: boolean; checked: boolean | null; line: number; endLine: number }
  | { kind: 'paragraph'; text: string; line: number; endLine: number }
  | { kind: 'quote'; text: string; line: number; endLine: number }
  | { kind: 'rule'; line: number; endLine: number };

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const RULE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:([ \t]+)(.*))?$/;
const QUOTE = /^ {0,3}>[ ]?(.*)$/;
const HTML_COMMENT = /^ {0,3}<!--/;
const TASK = /^\[([ xX])\][ \t]+/;

function atxText(raw: string | undefined): string {
  if (!raw) return '';
  // A closing sequence of #s is dropped only when preceded by a space (CommonMark).
  return raw.replace(/(?:^|[ \t]+)#+[ \t]*$/, '').trim();
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Splits text into lines without their terminators; `\r\n` and `\r` count as line ends. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Scans `lines` into blocks. `offset` is added to every line number (1-based), so a body that
 * follows frontmatter reports lines of the whole file.
 */
export function scanBlocks(lines: readonly string[], offset = 0): Block[] {
  const out: Block[] = [];
  let i = 0;
  const n = lines.length;
  // The open paragraph or list item that lazy continuation lines join.
  let open: { block: Extract<Block, { kind: 'paragraph' | 'item' | 'quote' }>; contentIndent: number } | null = null;
  let prevBlank = true;

  while (i < n) {
    const line = lines[i]!;
    const lineNo = i + 1 + offset;

    if (isBlank(line)) {
      open = open && open.block.kind === 'item' ? open : null;
      prevBlank = true;
      i++;
      continue;
    }

    const fence = FENCE_OPEN.exec(line);
    if (fence && !(fence[2]![0] === '`' && fence[3]!.includes('`'))) {
      const marker = fence[2]!;
      const closeRe = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
      const body: string[] = [];
      let j = i + 1;
      while (j < n && !closeRe.test(lines[j]!)) body.push(lines[j++]!);
      const end = Math.min(j, n - 1);
      out.push({
        kind: 'code',
        lang: fence[3]!.trim().split(/\s+/)[0] ?? '',
        text: body.join('\n'),
        line: lineNo,
        endLine: end + 1 + offset,
      });
      i = j + 1;
      open = null;
      prevBlank = false;
      continue;
    }

    if (HTML_COMMENT.test(line)) {
      const body: string[] = [];
      let j = i;
      while (j < n) {
        body.push(lines[j]!);
        if (lines[j]!.includes('-->') && (j > i || lines[j]!.indexOf('-->') > lines[j]!.indexOf('<!--'))) break;
        j++;
      }
      const end = Math.min(j, n - 1);
      out.push({ kind: 'html', text: body.join('\n'), line: lineNo, endLine: end + 1 + offset });
      i = end + 1;
      open = null;
      prevBlank = false;
      continue;
    }

    const atx = ATX.exec(line);
    if (atx) {
      out.push({ kind: 'heading', depth: atx[1]!.length, text: atxText(atx[2]), line: lineNo, endLine: lineNo });
      i++;
      open = null;
      prevBlank = false;
      continue;
    }

    // Setext underline: only directly under paragraph text.
    if (open && open.block.kind === 'paragraph' && !prevBlank && SETEXT.test(line)) {
      const para = open.block;
      out.pop();
      out.push({ kind: 'heading', depth: line.trim()[0] === '=' ? 1 : 2, text: para.text.trim(), line: para.line, endLine: lineNo });
      open = null;
      i++;
      prevBlank = false;
      continue;
    }

    if (RULE.test(line)) {
      out.push({ kind: 'rule', line: lineNo, endLine: lineNo });
      open = null;
      i++;
      prevBlank = false;
      continue;
    }

    const item = ITEM.exec(line);
    const paraOpen = open?.block.kind === 'paragraph' && !prevBlank;
    // Deeper markers are nested items while a list item is open; elsewhere they would be code.
    const indentOk = item !== null && (item[1]!.length <= 3 || open?.block.kind === 'item');
    // An item interrupts a paragraph only when it has text and, if ordered, starts at 1.
    const canStart = indentOk && (!paraOpen || ((item![4] ?? '') !== '' && (!/^\d/.test(item![2]!) || /^1[.)]$/.test(item![2]!))));
    if (item && canStart) {
      let text = item[4] ?? '';
      let checked: boolean | null = null;
      const task = TASK.exec(text);
      if (task) {
        checked = task[1] !== ' ';
        text = text.slice(task[0].length);
      }
      const indent = item[1]!.length;
      const block = { kind: 'item' as const, text, indent, ordered: /^\d/.test(item[2]!), checked, line: lineNo, endLine: lineNo };
      out.push(block);
      open = { block, contentIndent: indent + item[2]!.length + Math.min((item[3] ?? ' ').length, 4) };
      i++;
      prevBlank = false;
      continue;
    }

    const quote = QUOTE.exec(line);
    if (quote) {
      if (open && open.block.kind === 'quote') {
        open.block.text += '\n' + quote[1];
        open.block.endLine = lineNo;
      } else {
        const block = { kind: 'quote' as const, text: quote[1]!, line: lineNo, endLine: lineNo };
        out.push(block);
        open = { block, contentIndent: 0 };
      }
      i++;
      prevBlank = false;
      continue;
    }

    // Continuation of an open item (indented, or lazy right after it) or paragraph.
    const indent = line.length - line.trimStart().length;
    if (open && (open.block.kind === 'item' ? !prevBlank || indent >= open.contentIndent : !prevBlank)) {
      open.block.text += (open.block.text ? '\n' : '') + line.trim();
      open.block.endLine = lineNo;
      i++;
      prevBlank = false;
      continue;
    }

    const block = { kind: 'paragraph' as const, text: line.trim(), line: lineNo, endLine: lineNo };
    out.push(block);
    open = { block, contentIndent: 0 };
    i++;
    prevBlank = false;
  }
  return out;
}

/** A heading and everything under it up to the next heading of the same or higher rank. */
export interface Section {
  heading: string;
  depth: number;
  /** Headings from the outermost section down to this one. */
  path: string[];
  line: number;
  endLine: number;
  /** Blocks directly in this section (not in sub-sections). */
  blocks: Block[];
  children: Section[];
}

/**
 * Groups blocks into a section tree. Text before the first heading goes into a section with an
 * empty heading and depth 0, which is also the root of the tree.
 */
export function sectionTree(blocks: readonly Block[], totalLines: number, offset = 0): Section {
  const root: Section = { heading: '', depth: 0, path: [], line: 1 + offset, endLine: totalLines + offset, blocks: [], children: [] };
  const stack: Section[] = [root];
  for (const b of blocks) {
    if (b.kind === 'heading') {
      while (stack.length > 1 && stack[stack.length - 1]!.depth >= b.depth) {
        const done = stack.pop()!;
        done.endLine = b.line - 1;
      }
      const parent = stack[stack.length - 1]!;
      const s: Section = {
        heading: b.text,
        depth: b.depth,
        path: [...parent.path, b.text],
        line: b.line,
        endLine: totalLines + offset,
        blocks: [],
        children: [],
      };
      parent.children.push(s);
      stack.push(s);
    } else {
      stack[stack.length - 1]!.blocks.push(b);
    }
  }
  return root;
}

/**
 * `text` without the sections `drop` picks, each with everything under it. `drop` gets the
 * text's lines too, for a rule that reads a section's own text.
 */
export function withoutSections(text: string, drop: (s: Section, lines: readonly string[]) => boolean): string {
  const lines = splitLines(text);
  const gone: [number, number][] = [];
  const visit = (s: Section): void => {
    for (const c of s.children) {
      if (drop(c, lines)) gone.push([c.line, c.endLine]);
      else visit(c);
    }
  };
  visit(sectionTree(scanBlocks(lines), lines.length));
  if (!gone.length) return text;
  return lines.filter((_, i) => !gone.some(([a, b]) => i + 1 >= a && i + 1 <= b)).join('\n');
}

/** Demotes every ATX heading outside fences by `by` levels (capped at 6), for nesting a document. */
export function demoteHeadings(text: string, by: number): string {
  const lines = splitLines(text);
  const blocks = scanBlocks(lines);
  for (const b of blocks) {
    if (b.kind !== 'heading') continue;
    const depth = Math.min(6, b.depth + by);
    if (b.endLine > b.line) {
      // Setext: rewrite as ATX on the first line and drop the underline.
      lines[b.line - 1] = `${'#'.repeat(depth)} ${b.text.replace(/\n/g, ' ')}`;
      for (let k = b.line; k < b.endLine; k++) lines[k] = '\u0000';
    } else {
      lines[b.line - 1] = `${'#'.repeat(depth)} ${b.text}`;
    }
  }
  return lines.filter((l) => l !== '\u0000').join('\n');
}
