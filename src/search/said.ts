// What the user said about themselves in the conversation a search hit fell in. A request rarely
// names the fact it depends on: "throw pillows for my rest area" shares no word with "I
// repainted my bedroom walls a lighter shade of gray". A keyword search often finds the right
// conversation by its other words, and then its snippet shows the lines that share them, most
// often the assistant's advice. What the user said of themselves in that conversation is what an
// agent should be reminded of: said-index.ts reads the statements from the index (redacted text,
// never the files), said-pick.ts chooses those worth the room, and this module says how they
// are shown (it loads nothing: every output formats them).

export interface Said {
  /** The file line it was said on. */
  line: number;
  text: string;
}

/** Characters of statements a search hit or a recall passage brings beside its own lines. */
export const SAID_ROOM = 300;

/** A statement as every output shows it (the prompt hook, search, recall). */
export const saidLine = (s: Said): string => `the user, line ${s.line}: ${s.text}`;
