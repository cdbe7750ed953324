// Typed facts from untyped memory: what a user says about themselves in a transcript is a `user`
// fact, a standing instruction is `feedback`, what the assistant recommended by name is a
// `reference`; the assistant's words, the user's questions and quoted text are none of these.
import { describe, expect, it } from 'vitest';
import { collectEntries, type Entry } from '../../src/summarize/entries.js';
import { ExclusionRules } from '../../src/summarize/exclusion.js';
import { factsOfEntry, isStandingInstruction, suggestedNames } from '../../src/summarize/facts/extract.js';
import { categoryOf } from '../../src/summarize/facts/category.js';
import { salience } from '../../src/summarize/facts/salience.js';
import { slotOf, userFact } from '../../src/summarize/facts/fact.js';
import { mergeFacts, nodeFacts } from '../../src/summarize/facts/profile.js';
import { userStatements } from '../../src/summarize/facts/statement.js';
import { analyzeSources } from '../../src/summarize/analyze.js';
import type { FactInfo } from '../../src/tree/fact.js';
import type { LocalDate } from '../../src/time/calendar.js';

const rules = new ExclusionRules();
const entries = (body: string, label = '2026-06-01'): Entry[] => collectEntries(label, body, rules);
const factsOf = (body: string) => entries(body).flatMap((e) => factsOfEntry(e).map((f) => f.fact));
const said = (turn: string): string[] => userStatements(turn).map((s) => s.text);
const texts = (body: string, type: 'user' | 'feedback' | 'reference') =>
  factsOf(body)
    .filter((f) => f.type === type)
    .map((f) => f.text);

const chat = (...turns: string[]): string => `# 2026-06-01\n\n## Session 4\nSession Date: 2026-06-01\n\n${turns.join('\n')}\n`;

describe('user facts in a transcript', () => {
  it('takes no statement whose value was a secret: the tree keeps only its redaction', () => {
    const body = chat(
      'User: My new API key is [REDACTED:anthropic-key], can you check why the call fails?',
      'Assistant: Sure, let me look.',
      'User: I just set the wifi password to [REDACTED:password]. I also adopted a greyhound named Comet last week.',
    );
    expect(texts(body, 'user')).toEqual(['I also adopted a greyhound named Comet last week.']);
  });

  it("takes the user's statements about themselves, trimmed of asides and comments", () => {
    const body = chat(
      'User: Can you suggest a collar brand? By the way, my dog Max is a Golden Retriever and he turned 4 last week.',
      'Assistant: Golden Retrievers love leather collars. I have a dog too and I live in the cloud.',
      "User: I've been listening to audiobooks during my daily commute, which takes 45 minutes each way.",
      "User: I just got a new phone case for my Samsung Galaxy S22 from Case-Mate for $30, and it's been working out great.",
    );
    expect(texts(body, 'user')).toEqual([
      'My dog Max is a Golden Retriever and he turned 4 last week.',
      "I've been listening to audiobooks during my daily commute, which takes 45 minutes each way.",
      'I just got a new phone case for my Samsung Galaxy S22 from Case-Mate for $30',
    ]);
  });

  it("never takes the assistant's words for a user fact", () => {
    const body = chat(
      'User: What collar should I buy?',
      'Assistant: I recommend a leather collar. My favourite brand is Ruffwear and I have used it for years.',
    );
    expect(texts(body, 'user')).toEqual([]);
  });

  it("takes a coding session's instructions for asks, and what the user says of themselves for facts", () => {
    const body = chat(
      'User: fix my failing test in src/export/csv.test.ts',
      'Assistant: Fixed: the BOM was missing.',
      'User: thanks. I prefer pnpm over npm, by the way. Now run the tests again and update my changelog.',
    );
    expect(texts(body, 'user')).toEqual(['I prefer pnpm over npm, by the way.']);
  });

  it('a statement that names nothing is not a fact: chatter and pointers back at the conversation', () => {
    for (const turn of [
      "I've heard of a few of those, but not all.",
      "I'm really excited to try out this recipe.",
      "I'll take a closer look at those resources.",
      'Now I remember!',
    ])
      expect(said(turn)).toEqual([]);
    // A word or two of its own is enough when nothing points back, or a thing of the user's is named.
    expect(said('I also need to get knee pads')).toEqual(['I also need to get knee pads']);
    expect(said("I have a bunch of shoes and it's getting hard to find what I need.")).toHaveLength(1);
    expect(said("I've been keeping it in my glovebox")).toEqual(["I've been keeping it in my glovebox"]);
  });

  it('a question or a request the user makes is not a fact about them', () => {
    for (const turn of [
      'Do you think I should repaint my bedroom walls a lighter shade of gray?',
      'Can you help me plan my trip to Lisbon next month?',
      "I'm looking for some new shows to watch on HBO Max.",
      'Write me a cover letter for my application.',
      'I was wondering if my cat could eat tuna.',
      "I'd like to ask about travel insurance for my trip.",
      "I'd like to explore the use of BERT-based models for intent detection in customer feedback.",
    ])
      expect(said(turn)).toEqual([]);
    // What a coding agent is told to do is no fact about the user, whatever "my" it holds.
    for (const turn of [
      'fix my failing test in src/export/csv.test.ts',
      'add a retry to my webhook handler and run the tests',
      'Update the README with my new install steps.',
      'Let us deploy to staging after my PR merges',
    ])
      expect(said(turn)).toEqual([]);
    expect(said('Test coverage in my repo is 80% now')).toHaveLength(1);
    expect(said('I set up my home office last week')).toHaveLength(1);
    // A wish about the user's own life is theirs.
    expect(said("I'd like to have one rest day a week, either Sunday or Monday.")).toHaveLength(1);
    expect(said("I'm hoping to run a marathon in Berlin next year.")).toHaveLength(1);
    // An adverb or an "Okay," before the ask does not hide it.
    for (const turn of [
      'Come up with 2 slow cooker recipes for me.',
      "I'm curious about the other games you mentioned earlier, like Horizon Zero Dawn and God of War.",
      "I'm hoping you can help me with my resume.",
      'Okay, can you reprint the final chapter outline you made for me',
      "I'm also looking for some advice on how to prevent damage to my vintage items.",
      'I was also wondering if there are any lifestyle changes I can make for my skin.',
    ])
      expect(said(turn)).toEqual([]);
    expect(said("I was also wondering if you could share some tips, since I've been slacking off on my daily steps.")).toEqual([
      "I've been slacking off on my daily steps.",
    ]);
    expect(said("For my Japanese Zero fighter plane, I think I'll start by adding a pilot figure.")).toEqual([]);
    // A clause that hangs on a noun of the ask is part of the ask; a reason is a statement.
    expect(said("I'm also wondering if I should repot my snake plant, which I got from my sister last month.")).toEqual([]);
    expect(said("Can you suggest paints for my model, as I've been building a Japanese Zero fighter plane.")).toEqual([
      "I've been building a Japanese Zero fighter plane.",
    ]);
    // What the user asks after telling something is not part of the fact.
    expect(said("I'm planning a trip to LA and was wondering if you could recommend coffee shops near LAX airport.")).toEqual([
      "I'm planning a trip to LA",
    ]);
    expect(said("I've been trying to cut down on plastic and I was wondering whether you have any tips.")).toEqual([
      "I've been trying to cut down on plastic",
    ]);
    // "I'd like" and a thing: something for the assistant to make.
    expect(said("My sister's wedding is in June. I'd like a few opening lines for my toast.")).toEqual(["My sister's wedding is in June."]);
    expect(said("I'm in 95123, and I'd like a 5-mile route.")).toEqual(["I'm in 95123"]);
    // A negative imperative, and asking the assistant to ask: instructions, typed in lower case too.
    expect(said("Don't mention my friend, mention myself when writing it")).toEqual([]);
    expect(said('I never saw a place where I can recycle cloth. ask if it can help our brand')).toEqual([
      'I never saw a place where I can recycle cloth.',
    ]);
    expect(said("Don't worry, my dog Max is fine.")).toHaveLength(1);
  });

  it('reads typographic apostrophes as plain ones', () => {
    // Smart punctuation (phones, macOS, many models) writes U+2019: the same statements, asks and kinds.
    const turn = "By the way, I'm a nurse at St. Mary's, I've been vegetarian since 2019 and I'd like a dinner idea.";
    const smart = turn.replace(/'/g, '\u2019');
    expect(said(smart)).toEqual(said(turn));
    expect(said(turn)).toEqual(["I'm a nurse at St. Mary's, I've been vegetarian since 2019"]);
    const [fact] = texts(chat(`User: ${smart}`), 'user').map((t) => userFact(t));
    expect(fact).toMatchObject({ category: 'work', salience: userFact(said(turn)[0]!).salience });
  });

  it('reads contractions typed without their apostrophe', () => {
    expect(said('im allergic to shellfish and ive been vegetarian since 2019. dont suggest any fish')).toEqual([
      "I'm allergic to shellfish and i've been vegetarian since 2019.",
    ]);
    expect(texts(chat('User: im a nurse at St. Mary hospital'), 'user').map((t) => userFact(t).category)).toEqual(['work']);
  });

  it('finds the same facts in every shape a transcript comes in', () => {
    const turns: [string, string][] = [
      ['user', 'Can you suggest a collar? By the way, my dog Max is a Golden Retriever.'],
      ['assistant', 'I have a dog too and I live in the cloud. Try a leather collar.'],
      ['user', 'I adopted him from a shelter in Austin in March.'],
      ['assistant', 'Shelters in Austin are busy in spring, so well done.'],
    ];
    const shapes: ((who: string, text: string) => string)[] = [
      (who, text) => `${who === 'user' ? 'User' : 'Assistant'}: ${text}`,
      (who, text) => `**${who === 'user' ? 'You' : 'ChatGPT'}:** ${text}`,
      (who, text) => `${who === 'user' ? 'Human' : 'Claude'}:\n${text}`,
      (who, text) => `### ${who === 'user' ? 'User' : 'Assistant'}\n\n${text}`,
      (who, text) => `## ${who === 'user' ? 'Prompt' : 'Response'}:\n${text}`,
      (who, text) => `${who === 'user' ? 'Dana' : 'Assistant'}: ${text}`,
    ];
    const found = shapes.map((shape) => texts(`# 2026-06-01\n\n${turns.map(([who, t]) => shape(who, t)).join('\n\n')}\n`, 'user'));
    expect(found[0]).toEqual(['My dog Max is a Golden Retriever.', 'I adopted him from a shelter in Austin in March.']);
    for (const f of found.slice(1)) expect(f).toEqual(found[0]);
  });

  it('reads a user who types without capitals', () => {
    // A lower-case "i" or "my" starts a sentence too: this was one run-on statement, fact and ask.
    const turn =
      "We saw Glass Animals live in Brooklyn, they were amazing! I'm definitely going to check out more of their music. " +
      'My sister Ana loved it. Can you suggest similar bands?';
    const lower = turn.replace(/\bI'm\b/g, "i'm").replace('My sister', 'my sister');
    expect(said(lower)).toEqual(said(turn));
    expect(said(turn)).toEqual([
      'We saw Glass Animals live in Brooklyn, they were amazing!',
      "I'm definitely going to check out more of their music.",
      'My sister Ana loved it.',
    ]);
    // All in lower case: a sentence starts after a lower-case word's full stop, or its ! or ?.
    expect(said('we adopted a beagle named rufus last spring. he is three now. any tips for his walks?')).toEqual([
      'We adopted a beagle named rufus last spring. He is three now.',
    ]);
    expect(said('My Funko POP! figure collection has 40 pieces, including the Encore! edition.')).toHaveLength(1);
    expect(said('I got 5 lbs. of flour from the mill.')).toEqual(['I got 5 lbs. of flour from the mill.']);
  });

  it("reads a weekly node's days each with its own speakers", () => {
    // Alone, each day's facts are the user's; concatenated, the first day's `User:` must not
    // make the second day's "Dana:" a stranger.
    const dana = [
      "Dana: i just adopted a greyhound named Comet, he's 4.",
      'Assistant: Congratulations!',
      'Dana: yes, and i live in a flat on the 3rd floor without a lift.',
      'Assistant: Then stairs may be hard for him at first.',
    ].join('\n');
    const marathon = '#### Session 1\nUser: I am training for the Berlin marathon.\nAssistant: Great.';
    const week = `# Weekly: 2026-W46\n\n## 2026-11-10 (Tue)\n\n${marathon}\n\n## 2026-11-12 (Thu)\n\n${dana}\n`;
    const alone = texts(`# 2026-11-12\n\n${dana}\n`, 'user');
    expect(alone).toEqual(["I just adopted a greyhound named Comet, he's 4.", 'I live in a flat on the 3rd floor without a lift.']);
    expect(texts(week, 'user')).toEqual(['I am training for the Berlin marathon.', ...alone]);
  });

  it('quoted or pasted text is not the user speaking about themselves', () => {
    expect(said('Please proofread this: I was born in Ohio in 1950 and I moved to Texas when I was ten.')).toEqual([]);
    expect(said('Here is the paragraph from my novel: "I had three brothers and I never once saw the sea until I was forty."')).toEqual([]);
    // The user's own words around a short quoted title stay.
    expect(said('I finally started "Game of Thrones" about a month ago.')).toEqual([
      'I finally started "Game of Thrones" about a month ago.',
    ]);
    // An "I" inside quotation marks is someone else speaking: a joke told, a line of dialogue.
    expect(said('The bartender asks, "Does everyone want beer?" The first logician says, "I don\'t know."')).toEqual([]);
    expect(said('My daughter said, "I want a puppy" when we visited the shelter in Austin.')).toEqual([
      'My daughter said, "I want a puppy" when we visited the shelter in Austin.',
    ]);
  });

  it('hearsay and surprise are no facts about the user', () => {
    for (const turn of [
      "I've heard great things about his writing style.",
      "I've heard it's a must-see attraction.",
      "I didn't know that some luxury watches could appreciate in value like that.",
    ])
      expect(said(turn)).toEqual([]);
    expect(said("I've heard great things about it, and my sister Ana lives in Porto.")).toEqual(['My sister Ana lives in Porto.']);
  });

  it('reactions and musings are not facts, the fact in the same sentence is', () => {
    expect(said("Thanks, that's really helpful! I'll try the Avocado Toast.")).toEqual([]);
    expect(said("I think I'm close to 1300 followers now.")).toEqual(["I'm close to 1300 followers now."]);
    expect(said('Before the RAM upgrade to 16GB, I was getting around 6-7 hours of battery life.')).toEqual([
      'Before the RAM upgrade to 16GB, I was getting around 6-7 hours of battery life.',
    ]);
  });

  it('a short follow-on sentence with something specific continues the statement', () => {
    expect(
      said("It's crazy how long it took for my asylum application to get approved. Over a year of uncertainty was really tough."),
    ).toEqual(["It's crazy how long it took for my asylum application to get approved. Over a year of uncertainty was really tough."]);
  });
});

describe('feedback in a transcript', () => {
  it('a standing instruction to the agent is a rule', () => {
    for (const s of [
      'From now on, please answer in English.',
      "I'd like you to always keep answers short.",
      'Please never use emojis in your answers.',
      'I prefer short answers with the command first.',
      'Always write dates as YYYY-MM-DD.',
      'I always want commit messages to explain the why, not the what',
      'I never want code comments that repeat the code.',
      'yes please, and from now on always give me DuckDB syntax.',
      'Sure, and please never use emojis in your answers.',
    ]) {
      expect(isStandingInstruction(s), s).toBe(true);
    }
  });

  it('a remark with "always" or "never" is no rule, nor is a one-off request', () => {
    for (const s of [
      "You're always so helpful with your recommendations.",
      "I've never really designed anything before.",
      'They will always be my best partners in life.',
      'Please make the answer shorter.',
      'Can you always answer in English?',
      'I always want my coffee black.',
      'I want the answers to these three questions.',
      'Yes please, and use the DuckDB syntax for this one.',
      'Thanks, always good to know.',
    ]) {
      expect(isStandingInstruction(s), s).toBe(false);
    }
  });

  it('is typed feedback, not a user fact', () => {
    const body = chat('User: From now on, please answer in English. I live in Seoul.');
    expect(texts(body, 'feedback')).toEqual(['From now on, please answer in English.']);
    expect(texts(body, 'user')).toEqual(['I live in Seoul.']);
  });
});

describe('references in a transcript', () => {
  it('keeps the names an assistant recommended, not the headings of its advice', () => {
    const body = chat(
      'User: Any sustainable sneaker brands?',
      'Assistant: Here are some:',
      '',
      '1. **Veja**: French sneakers from organic cotton.',
      '2. **Quality**: look for good stitching.',
      '3. Allbirds - wool runners.',
      '4. Consider the fit - try them on first.',
      '',
      'And a budget line:',
      '',
      '- Influencer marketing: $2,000',
      '- Total: $2,000',
      '',
      'The song:',
      '',
      '- **Verse 1**: the morning drive',
      '- **Chorus**: Rolling On',
    );
    const names = suggestedNames(entries(body)[0]!.items);
    expect(names).toEqual(['Veja', 'Allbirds', 'Influencer marketing: $2,000']);
    expect(texts(body, 'reference')).toEqual(['suggested: Veja; Allbirds; Influencer marketing: $2,000']);
  });

  it('reads a numbered list written as one paragraph', () => {
    const body = chat(
      'User: Language apps?',
      'Assistant: 1. Duolingo - gamified lessons. 2. Rosetta Stone - immersion. 3. Memrise - mnemonics.',
    );
    expect(suggestedNames(entries(body)[0]!.items)).toEqual(['Duolingo', 'Rosetta Stone', 'Memrise']);
  });
});

describe('typed logs', () => {
  const log = `# 2026-06-01

## onboarding [user]
- I'm Mina, backend engineer at Lindenhof Labs
- I prefer pnpm over npm

## writing style [feedback]
- rule: write dates as YYYY-MM-DD
- why: 11/12 was read two ways
- how to apply: ISO dates everywhere

## runbooks [reference]
- the team wiki is friendly
- https://wiki.example/runbooks — billing runbook

## invoice-export [project]
- decided to generate PDFs with typst
- I prefer typst over headless Chrome for this
- The user's cat is called Luna
`;

  it('a typed section gives facts of its type, whole', () => {
    expect(texts(log, 'user')).toEqual([
      "I'm Mina, backend engineer at Lindenhof Labs",
      'I prefer pnpm over npm',
      'I prefer typst over headless Chrome for this',
      "The user's cat is called Luna",
    ]);
    expect(texts(log, 'feedback')).toEqual([
      'rule: write dates as YYYY-MM-DD | why: 11/12 was read two ways | how to apply: ISO dates everywhere',
    ]);
    expect(texts(log, 'reference')).toEqual(['https://wiki.example/runbooks — billing runbook']);
  });

  it('a decision in project notes is no user fact', () => {
    expect(texts(log, 'user').some((t) => t.includes('decided'))).toBe(false);
  });

  it("reads a summary node's User Facts back with their kind and day", () => {
    const weekly =
      '# Weekly Summary: 2026-W23\n\n## User Facts\n- 06-01 · pets: My dog is called Miso\n- 06-03 · I live in Lisbon\n\n## Feedback\n- 06-02 · rule: no mocks\n';
    const found = entries(weekly, '2026-W23').flatMap((e) => factsOfEntry(e));
    expect(found.map((f) => [f.fact.type, f.fact.category, f.fact.text, f.origin])).toEqual([
      ['user', 'pets', 'My dog is called Miso', '06-01 · '],
      ['user', 'home', 'I live in Lisbon', '06-03 · '],
      ['feedback', null, 'rule: no mocks', '06-02 · '],
    ]);
  });
});

describe('kinds, salience and slots', () => {
  it.each([
    ['My dog Max is a Golden Retriever', 'pets'],
    ['I work as a nurse at St. Mary Hospital', 'work'],
    ['I graduated with a degree in Business Administration', 'work'],
    ['My sister lives in Chicago', 'people'],
    ["I'm allergic to peanuts", 'health'],
    ['My Doctor said my Blood Pressure is fine now', 'health'],
    ['I moved to Lisbon in March', 'home'],
    ['I just bought a Fitbit Versa 3', 'possessions'],
    ['I go running every morning at 6', 'routines'],
    ["I'm planning a trip to Japan next month", 'plans'],
    ['My favorite band is Radiohead', 'tastes'],
    ['My name is Dana', 'identity'],
    ['I have some gouramis in my 20-gallon tank', 'pets'],
    ['My cat Luna knocked the Blue Bottle Coffee mug off the desk', 'pets'],
    ["I'm currently 32 years old", 'identity'],
    ['I am Kadence, a 25-year-old musician from New York City', 'identity'],
    ['My birthday is on March 3', 'identity'],
    ['My 9-year-old is super excited about snorkeling', 'people'],
    ['I actually recently had a bad case of bronchitis that I initially thought was just a cold', 'health'],
    ["I've been fighting a fever and a cough since Monday", 'health'],
    // A pet's medicine is about the pet; a flea market is not.
    ['I just got a new batch of flea and tick medication for Max from Chewy.com', 'pets'],
    ['I found a brass lamp at the flea market in Lisbon', 'other'],
    ["I've used Trello in my previous role as a marketing specialist at a small startup", 'work'],
    ['I just got a cookbook for my birthday', 'possessions'],
    ["We're celebrating our anniversary in Lisbon", 'plans'],
    ['I just binge-watched the entire season of The Crown today', 'pastimes'],
    ['I recently started collecting vinyl', 'pastimes'],
    ['I finally beat that last boss in the Dark Souls 3 DLC', 'pastimes'],
    ['I ran the Midsummer 5K in 27 minutes and 42 seconds', 'pastimes'],
    // A pastime said with a more telling word keeps that word's kind.
    ['I play guitar every Sunday evening', 'routines'],
    ['I just bought a Yamaha FG800 guitar', 'possessions'],
    ['I love baking sourdough bread', 'tastes'],
  ])('%s → %s', (text, kind) => {
    expect(categoryOf(text)).toBe(kind);
  });

  it.each([
    ["I'm making some burgers and hot dogs as well", 'pets'],
    ["I've been keeping track of the birds I've seen, and I'm up to 35 species so far", 'pets'],
    ['I also filled up the gas tank, which cost $30', 'pets'],
    ['I just got back from a bird watching workshop at the Audubon society', 'pets'],
    ["I'm also planning to visit the Tsukiji Fish Market", 'pets'],
    ['I packed my camera gear in a Think Tank Urban Disguise bag', 'pets'],
    ['My current desktop computer is around 5 years old', 'identity'],
    ['My ideal customer is a female between 25-45 years old', 'identity'],
    ['I recently bought a silver necklace on my birthday', 'identity'],
    ['I just got back from a bird watching workshop at the Audubon society', 'possessions'],
    ['I picked up the Sleepy Body Lotion from Bath & Body Works', 'health'],
    ['I watched Doctor Strange and four other Marvel movies', 'health'],
    ["I'm also interested in visiting the Crazy Horse Memorial", 'pets'],
    ['We ate at the Red Rooster Cafe', 'pets'],
    ["I've been watching Unbox Therapy's reviews of the new phones", 'health'],
  ])('%s is not about %s', (text, kind) => {
    expect(categoryOf(text)).not.toBe(kind);
  });

  it('a specific statement outweighs a vague one', () => {
    expect(salience('I upgraded my internet to 500 Mbps three weeks ago')).toBeGreaterThan(salience('I have some stuff to do maybe'));
    expect(salience('By the way, I adopted a kitten named Luna last month')).toBeGreaterThan(salience('I adopted a kitten'));
  });

  it('values that change have a slot', () => {
    expect(slotOf('My daily commute takes 45 minutes each way')).toBe('commute');
    expect(slotOf('My commute takes 30 minutes now')).toBe('commute');
    expect(slotOf("My cat's name is Luna")).toBe('cat name');
    expect(slotOf('I live in Berlin')).toBe('home');
    expect(slotOf('I adopted a kitten')).toBeNull();
  });
});

describe('facts over time', () => {
  const dated = (text: string, lastSeen: string, days = 1): FactInfo => ({
    ...userFact(text),
    type: 'user',
    lastSeen: lastSeen as LocalDate,
    days,
  });

  it('a changed fact shows the newer value, and the old one is gone', () => {
    const merged = mergeFacts([
      [dated('My commute takes 45 minutes each way', '2026-04-02')],
      [dated('My commute takes 30 minutes now that I cycle', '2026-05-10')],
    ]);
    expect(merged.map((f) => f.text)).toEqual(['My commute takes 30 minutes now that I cycle']);
  });

  it('a restated fact is one fact, seen on more days, dated by its last mention', () => {
    const merged = mergeFacts([[dated('I live in Berlin', '2026-04-02')], [dated('I live in Berlin.', '2026-05-10', 2)]]);
    expect(merged).toEqual([expect.objectContaining({ text: 'I live in Berlin.', lastSeen: '2026-05-10', days: 3 })]);
  });

  it("dates a weekly node's facts by their day labels, across a new year", () => {
    const text = '# Weekly Summary: 2026-W01\n\n## User Facts\n- 12-30 · pets: My dog is called Miso\n- 01-02 · I live in Lisbon\n';
    const a = analyzeSources([{ label: '2026-W01', path: '', level: 'weekly', text, firstLine: 1 }], rules);
    const facts = nodeFacts(a, '2025-12-29' as LocalDate, '2026-01-04' as LocalDate);
    expect(facts.map((f) => [f.text, f.lastSeen])).toEqual([
      ['My dog is called Miso', '2025-12-30'],
      ['I live in Lisbon', '2026-01-02'],
    ]);
  });
});
