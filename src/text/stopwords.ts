// English stop words: function words, the fragments the index's tokenizer leaves of contractions
// ("don't" → don, t), and the request phrasing of questions put to an assistant ("can you help me
// …", "I need", "tell me"). They are kept in the index but dropped from queries and word-vector
// averages: they carry no topic, and in a plain-English question they are most of the words.
const WORDS = `
a about above after again against all also am an and any are aren as at
be because been before being below between both but by
can cannot could couldn
d did didn do does doesn doing don down during
each either etc even ever every
few for from further
get gets getting got
had hadn has hasn have haven having he her here hers herself him himself his how however
i if in into is isn it its itself
just
let ll
m may me might mightn more most much must mustn my myself
need needs no nor not now
o of off on once one only or other others our ours ourselves out over own
please
re really
s same shall shan she should shouldn since so some still such
t than that the their theirs them themselves then there these they this those though through to too
under until up upon us
ve very via
was wasn we were weren what whatever when where whether which while who whom whose why will with won would wouldn
y yet you your yours yourself yourselves
able actually anyone anything anyway around certain else going gonna hey hi hello like lot lots maybe
okay ok sure thank thanks tell want wanted wants wanna wondering know think thought help helping
`;

const STOP = new Set(WORDS.split(/\s+/).filter(Boolean));

export function isStopWord(word: string): boolean {
  return STOP.has(word);
}
