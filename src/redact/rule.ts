// The shape of one of hipo's redaction rules (rules/hipo.ts): a regular expression that finds a
// candidate, the keywords that must occur for it to run, and the checks a candidate must pass.

/** Where a candidate secret was found. */
export interface Candidate {
  /** The rule's whole match (the secret and the context around it the rule needed). */
  match: string;
  /** Where the match starts in `text`. */
  matchStart: number;
  text: string;
  /** The secret's offsets in `text`. */
  start: number;
  end: number;
}

export interface ScannerRule {
  /** The kind named in the marker: `[REDACTED:<id>]`. */
  id: string;
  /** JavaScript regular expression source, without flags. */
  regex: string;
  /** Lower-case literals the rule is found by (see `anchor`). */
  keywords: readonly string[];
  /**
   * How the rule's matches are found, so that its regex never runs over a whole text:
   * - `keyword` (the default): every match begins where one of `keywords` occurs (lookbehinds
   *   may look further back); the regex is tried at those places only;
   * - `line`: a keyword occurs in every match's line; the regex runs over those lines;
   * - `token`: no keyword; every match is a run of at least `minLength` token characters
   *   (`[A-Za-z0-9+/=_.-]`), and lookarounds at its ends test only characters of that set; the
   *   regex runs over such runs;
   * - `text` (the default without keywords): the regex runs over the whole text (the workspace's
   *   own patterns).
   */
  anchor?: 'keyword' | 'line' | 'token' | 'text';
  /**
   * The match may begin up to this many identifier characters (`[\w.-]`) before what the regex
   * matched (`my_service_api_key`): found by looking back instead of by the regex, which would
   * otherwise try it at every position of the text.
   */
  prefix?: number;
  /** The shortest match (for `token` rules, required). */
  minLength?: number;
  /** The capture group holding the secret; default the first group that matched, else all. */
  secretGroup?: number;
  /** The context check: false leaves the candidate alone; a string names its kind. */
  accept?: (secret: string, at: Candidate) => boolean | string;
  ignoreCase?: boolean;
}
