// The chunker's version apart from the chunker (chunk.ts): the index file records it (db.ts),
// and opening the index to search it does not load the chunker and the summarizer code it uses.

/** Bumped when chunking changes, so existing indexes are rebuilt instead of mixing two kinds. */
export const CHUNKER_VERSION = 4;
