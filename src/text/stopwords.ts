// Stop words: English function words and the small talk of a chat, which carry no topic. One
// list, used by everything that reads words: the summarizer's keywords and topic names, the
// digests of facts, search queries and word-vector averages. A reader whose tokenizer or purpose
// leaves more empty words adds them by name (`stopWords(extra)`), so each set says why it differs.
const COMMON = `
a able about above actually after again against all also am an and any anyone anything anyway are
around as at be because been before being below between both but by can cannot could did do does
doing down during each either else etc even ever every few for from further get gets getting going
got had has have having he help her here hers herself him himself his how however i if in into is
it its itself just know let like lot lots may maybe me might more most much must my myself need
needs no nor not now of off ok okay on once one only or other others our ours ourselves out over
own please really same shall she should since so some still such sure tell than thank thanks that
the their theirs them themselves then there these they think this those though through to too under
until up upon us very via want wants was we were what whatever when where whether which while who
whom whose why will with would yet you your yours yourself yourselves
`;

/** The common list and `extra` (whitespace-separated words) as one set. */
export function stopWords(extra = ''): ReadonlySet<string> {
  return new Set(`${COMMON} ${extra}`.split(/\s+/).filter(Boolean));
}

/**
 * What the search index's tokenizer leaves of contractions ("don't" → don, t), and the greetings
 * and request phrasing of questions put to an assistant ("hey, I was wondering …"): kept in the
 * index, dropped from queries and word-vector averages, where they are most of the words.
 */
const QUERY_EXTRA = `
aren certain couldn d didn doesn don gonna hadn hasn haven hello helping hey hi isn ll m mightn
mustn o re s shan shouldn t thought ve wanna wanted wasn weren won wondering wouldn y
`;

const QUERY_STOP = stopWords(QUERY_EXTRA);

/** A stop word of a query (search, word-vector averages). */
export function isStopWord(word: string): boolean {
  return QUERY_STOP.has(word);
}
