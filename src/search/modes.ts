// The ranking modes, kept apart from the search code so the CLI can list them without loading it.
export type SearchMode = 'bm25' | 'vector' | 'hybrid';
export const SEARCH_MODES: readonly SearchMode[] = ['bm25', 'vector', 'hybrid'];
