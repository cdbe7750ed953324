// What a user fact is about, for grouping a profile: the kinds of things people tell an
// assistant about themselves. Decided by the words of the statement, first match wins, in an
// order that puts the most identifying kinds first ("my sister's dog" is about a pet... of the
// sister's; "my sister" alone is about people).

import { FACT_CATEGORIES, type FactCategory } from '../../tree/fact.js';
import { anyOf, wordsOf, wordsRegex } from './alternation.js';

export const CATEGORIES = FACT_CATEGORIES;
export type Category = FactCategory;

/** Headings a profile shows for each category. */
export const CATEGORY_TITLES: Record<Category, string> = {
  identity: 'Identity',
  work: 'Work and study',
  people: 'Family and people',
  pets: 'Pets',
  home: 'Home and places',
  health: 'Health',
  possessions: 'Possessions',
  routines: 'Routines',
  plans: 'Plans and dates',
  tastes: 'Tastes',
  pastimes: 'Pastimes',
  other: 'Other',
};

const DAYS = 'monday tuesday wednesday thursday friday saturday sunday';

/** "got" as in "got a bike", not "got back", "got home", "got married". */
const GOT_A_THING = 'got(?!\\s(?:back|home|up|in|out|off|into|to|married|engaged|sick|lost|stuck)\\b)';

const RULES: [Category, RegExp][] = [
  // What someone does for a living or studies, said outright, decides before the place or the
  // people it involves ("I work as a nurse at St. Mary Hospital" is about work, not health).
  [
    'work',
    wordsRegex(
      anyOf(
        "i(?:'ve| have)? work(?:ed)? (?:as|at|for|in)",
        // "my previous role as a marketing specialist"
        `my (?:${wordsOf('previous current new old first last former')}\\s)?${wordsOf(
          'job role position boss manager employer career colleagues? co-?workers? degree major thesis',
        )}`,
        "i(?:'m| am) (?:a|an) [a-z]+ (?:at|for|by profession)",
        'i graduated',
        "i(?:'m| am) studying",
        'i study',
      ),
    ),
  ],
  [
    'identity',
    wordsRegex(
      anyOf(
        "my name(?:'s| is)",
        "i(?:'m| am) \\d{1,3}\\b",
        // The user's own age, not a computer's, a customer's or a child's ("my 9-year-old").
        "(?:i(?:'m| am)(?: currently| now| turning)?|as|i turned|i(?:'ll| will) be) (?:a |an )?\\d{1,3}[- ]years?[- ]old",
        "i(?:'m| am) [a-z]+, (?:a |an )?\\d{1,3}[- ]years?[- ]old",
        'i was born',
        // The date, not a present or a party ("a cookbook for my birthday").
        "my birthday(?:'s| is| falls)",
        'native (?:language|speaker)',
        'my (?:first|native) language',
        'nationality',
        "i(?:'m| am) (?:originally )?from",
        'grew up in',
        'my pronouns',
      ),
    ),
  ],
  [
    'pets',
    // Not every dog, fish, bird or tank is an animal of the user's: "hot dogs", "the fish
    // market", "bird watching" (a pastime), "the gas tank", "a Think Tank bag" are not.
    wordsRegex(
      anyOf(
        '(?<!\\b(?:hot|corn|chili|chilli|bird)[\\s-])dogs?',
        'fish(?![\\s-](?:market|tacos?|sauce|fillets?|sticks?|and\\schips)\\b)',
        // One bird is likely a pet; birds are what a bird watcher counts.
        'bird(?![\\s-](?:watch\\w*|feeders?|dogs?|species|seeds?|baths?|guides?)\\b)',
        '(?:\\d+[\\s-]gallon|fish|freshwater|saltwater|community|reef|planted) tanks?',
        wordsOf(`
    puppy puppies cats? kitten kitty pets? aquarium hamster guinea\\spig parrot budgie rabbit bunny horse pony tortoise
    turtle lizard gecko snake ferret vet veterinarian leash litter goldfish betta guppy guppies tetras? gouramis? cichlids?
    nitrites? nitrates? ammonia heartworm kibble`),
        // Flea and tick care, not a flea market.
        'flea\\s(?:and\\stick|collars?|medications?|treatments?|shampoo|combs?|drops|prevention)',
      ),
    ),
  ],
  [
    'people',
    wordsRegex(
      `(?:my|our) (?:${wordsOf('older younger little big best oldest youngest new late')}\\s)?${wordsOf(`
    wife husband spouse partner boyfriend girlfriend fianc[ée]e? mom mum mother dad father parents? sister brother
    siblings? sons? daughters? kids? children child baby grandma grandmother grandpa grandfather grandparents? aunt
    uncle cousins? niece nephew friends? colleagues? co-?workers? boss manager team\\s?mates? roommates? neighbou?rs?
    family in-laws? mother-in-law father-in-law twins? bestie \\d{1,2}[- ]years?[- ]old`)}`,
    ),
  ],
  [
    'health',
    wordsRegex(
      wordsOf(`
    doctor dentist therapist therapy allerg\\w* diet vegan vegetarian gluten lactose intoleran\\w* sleep(?:s|ing)? slept insomnia
    anxiety depress\\w* medication meds prescription injur\\w* surgery physio\\w* blood\\spressure diabet\\w* cholesterol
    pregnan\\w* weight calorie\\w* symptoms? migraines? asthma knee back\\spain hospital diagnosed recovering
    mental\\shealth bronchitis pneumonia flu covid infections? fever cough\\w* strep a\\scold concussion sprain\\w*
    fractur\\w* broke\\s(?:my|an?)\\s(?:arm|leg|wrist|ankle|toe|finger|rib)`),
    ),
  ],
  [
    'work',
    wordsRegex(
      anyOf(
        'i work(?:ed)?',
        `my ${wordsOf(`job work role position career company team office boss manager employer business startup clients?
      colleagues? shift internship degree major thesis classes course studies school university college`)}`,
        wordsOf(`job promot\\w+ hired interview\\w* salary degree graduat\\w+ university college school studying student
      course class(?:es)? certificat\\w+ internship thesis phd master'?s bachelor'?s professor teacher engineer developer
      designer manager nurse accountant lawyer consultant freelanc\\w+ coworkers? colleagues?`),
      ),
    ),
  ],
  [
    'plans',
    wordsRegex(
      anyOf(
        `i(?:'m| am) ${wordsOf('planning going\\sto about\\sto getting\\smarried moving starting taking attending hosting running organi[sz]ing')}`,
        'i plan',
        "we(?:'re| are) (?:planning|going to|getting)",
        `next ${wordsOf(`week month year weekend summer spring fall winter ${DAYS}`)}`,
        'upcoming',
        'this (?:weekend|summer|fall|winter|spring)',
        // A date to keep, not a present ("a cookbook for my birthday" is about the cookbook).
        `(?<!\\bfor\\s(?:my|our|his|her)\\s)${wordsOf('birthday anniversary')}`,
        wordsOf('wedding appointment deadline reservation booked signed\\sup registered'),
      ),
    ),
  ],
  [
    'home',
    wordsRegex(
      anyOf(
        'i live',
        "i(?:'ve| have)? moved",
        'we moved',
        `my ${wordsOf('apartment flat house home place room bedroom kitchen living\\sroom garden backyard balcony neighbou?rhood city town street commute')}`,
        wordsOf(`apartment neighbou?rhood hometown relocat\\w+ rent(?:ed|ing)? mortgage landlord trip travel\\w* visit\\w*
      vacation holiday flew flight hotel hostel stayed\\s(?:at|in) road\\strip abroad`),
      ),
    ),
  ],
  [
    'possessions',
    wordsRegex(
      anyOf(
        // "I just got back", "I got home" say where the user went, not what they have.
        `i (?:just |recently |finally )?${wordsOf(`bought purchased ordered ${GOT_A_THING} own have\\sowned received upgraded sold
      collect`)}`,
        `my ${wordsOf(`car bike bikes laptop computer pc phone camera watch tablet console guitar piano tv headphones collection
      wardrobe shoes jacket bag ring necklace furniture couch sofa desk printer router truck motorcycle`)}`,
        'collection of',
      ),
    ),
  ],
  [
    'routines',
    wordsRegex(
      anyOf(
        `every ${wordsOf(`day morning evening night week weekend month ${DAYS}`)}`,
        'each (?:day|morning|week)',
        'daily',
        'weekly',
        'usually',
        'routine',
        'habit',
        'commute',
        `on ${wordsOf('mondays tuesdays wednesdays thursdays fridays saturdays sundays weekends')}`,
        'times a (?:day|week|month)',
        '(?:once|twice) a (?:day|week|month)',
        `i(?:'ve| have) been ${wordsOf('doing going taking practicing running training playing using listening reading volunteering working\\sout')}`,
      ),
    ),
  ],
  [
    'tastes',
    wordsRegex(
      anyOf(
        'favou?rite',
        "i (?:really |absolutely )?(?:love|like|enjoy|prefer|adore|hate|dislike|can't stand|am into|'m into)",
        "i(?:'m| am) (?:a (?:big |huge )?fan|obsessed|into)",
        'fan of',
        'my go-to',
        'taste in',
      ),
    ),
  ],
  [
    // What the user does for its own sake: reading, watching, music, games, making things,
    // sports. Last but one: "every morning", "I love", "my guitar" decide before it.
    'pastimes',
    wordsRegex(
      wordsOf(`
    books? novels? reading audiobooks? kindle authors? bookstore book\\sclub
    movies? films? documentar\\w* tv\\sshows? episodes? netflix hulu hbo watched watching re-?watch\\w* binge\\w*
    music songs? albums? bands? playlists? concerts? gigs? singer spotify vinyl podcasts?
    games? gaming playstation xbox nintendo dlc chess puzzles?
    photograph\\w* photos? lens(?:es)?
    cooking baking baked recipes? sourdough
    gardening knitting crochet\\w* sewing painting drawing sketch\\w* crafts? crafting pottery scale\\smodels?
    hik(?:e|ed|es|ing) camping marathons? triathlons? 5k 10k cycling yoga pilates gym workouts? swimming tennis golf
    soccer basketball volleyball climbing skiing surfing
    collect(?:ing|ion|or|ors) guitar piano drums violin`),
    ),
  ],
];

/** Two or more capitalised words in a row: a title, a brand or a place ("Doctor Strange", "Crazy Horse Memorial"). */
const TITLE = /\b(?!(?:My|Our|I|The|A|An|This|That|We)\b)[A-Z][\p{L}'’]*(?:\s+(?:(?:of|the|and|&)\s+)?[A-Z][\p{L}'’]*)+/gu;

export function categoryOf(statement: string): Category {
  // A health or animal word inside a title names no one's health or pet ("Doctor Strange",
  // "the Crazy Horse Memorial").
  const untitled = statement.replace(TITLE, ' ');
  for (const [c, re] of RULES) if (re.test(c === 'health' || c === 'pets' ? untitled : statement)) return c;
  return 'other';
}
