import { type Random, pickOne, randomInt } from './deterministic-random';

/**
 * Plausible values for a JSON property from its name alone, as a model
 * fills in tool arguments and structured outputs: a `city` gets a city
 * (the one the user named, when the prompt names a known one), an `email`
 * an address, a `start_date` an ISO date, a `query` the user's words, a
 * `count` a small number. Names are read by their words (`departureCity`,
 * `departure_city` and `departure-cities` all end in "city"). A name no
 * rule knows gets a short generic phrase.
 */

export interface PropertyHint {
  /** The property's name; for an array's items, the array's. */
  name: string | undefined;
  /** What the user wrote, directives removed, when the caller knows it. */
  prompt: string | undefined;
  /** Whether this is a second or later item of an array, which should not repeat what the user named. */
  laterItem: boolean;
}

export interface NumberRange {
  min: number;
  max: number;
}

const CITIES = ['Paris', 'Tokyo', 'Lisbon', 'Toronto', 'Nairobi', 'Melbourne', 'Berlin', 'Buenos Aires', 'Seoul', 'Cape Town', 'Oslo', 'Mexico City'];
const COUNTRIES = ['France', 'Japan', 'Portugal', 'Canada', 'Kenya', 'Australia', 'Germany', 'Argentina'];
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Katherine', 'Linus', 'Margaret', 'Tim', 'Hedy'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Torvalds', 'Hamilton', 'Berners-Lee', 'Lamarr'];
const COMPANIES = ['Acme Corporation', 'Globex Ltd', 'Initech', 'Northwind Traders', 'Contoso'];
const PRODUCTS = ['Trail running shoes', 'Ceramic coffee mug', 'Noise-cancelling headphones', 'Wool scarf', 'Desk lamp'];
const TITLES = ['Quarterly planning notes', 'Weekly team update', 'Trip to the coast', 'Release checklist', 'Project kickoff'];
const QUERIES = ['best hiking trails near Lisbon', 'how to brew green tea', 'history of the printing press', 'quiet cafes in Berlin'];
const COLORS = ['blue', 'green', 'red', 'yellow', 'purple'];
const CATEGORIES = ['general', 'travel', 'work', 'personal', 'finance'];
const STATUSES = ['active', 'pending', 'done'];
const STREETS = ['12 Rue de Rivoli', '221B Baker Street', '350 Fifth Avenue', '1 Market Street'];
const TIME_ZONES = ['Europe/Paris', 'Asia/Tokyo', 'America/Toronto', 'Africa/Nairobi'];
/** For a description, a message, a note: one plain sentence. */
const TEXT_VALUES = [
  'A short example written by the simulator.',
  'Everything went as planned.',
  'The results look good so far.',
  'Nothing urgent; this can wait until next week.',
  'Please review the notes before the meeting.',
  'A made-up value that fits the schema.',
];
const GENERIC_PHRASES = ['example value', 'sample text', 'placeholder', 'short note', 'first draft'];

/** Words of the prompt kept for a query. */
const QUERY_WORDS = 8;

type StringRule = [test: (words: Set<string>) => boolean, value: (random: Random, hint: PropertyHint, words: Set<string>) => string];

const has =
  (...names: string[]) =>
  (words: Set<string>) =>
    names.some((name) => words.has(name));

const ID_WORDS = new Set(['id', 'identifier', 'key', 'reference', 'ref']);

const fullName = (random: Random) => `${pickOne(random, FIRST_NAMES)} ${pickOne(random, LAST_NAMES)}`;

/** The first rule whose words the name has wins, so the more specific come first (`city_name` is a city, `file_name` a file). */
const STRING_RULES: StringRule[] = [
  [has('email', 'mail'), (random) => `${fullName(random).toLowerCase().replace(' ', '.')}@example.com`],
  [has('url', 'uri', 'link', 'website', 'homepage', 'href', 'endpoint'), (random) => `https://example.com/${pickOne(random, CATEGORIES)}`],
  [has('uuid', 'guid'), () => '123e4567-e89b-42d3-a456-426614174000'],
  [has('id', 'identifier', 'key', 'reference', 'ref'), (random, _, words) => `${[...words].find((word) => !ID_WORDS.has(singular(word))) ?? 'item'}_${randomInt(random, 1000, 9999)}`],
  [has('phone', 'tel', 'telephone', 'mobile'), (random) => `+1-555-01${String(randomInt(random, 0, 99)).padStart(2, '0')}`],
  [has('timezone', 'tz', 'zone'), (random) => pickOne(random, TIME_ZONES)],
  [has('datetime', 'timestamp', 'at'), () => '2026-01-15T09:30:00Z'],
  [has('birth', 'birthday', 'dob'), () => '1990-05-17'],
  [has('date', 'day', 'deadline', 'due'), () => '2026-01-15'],
  [has('time'), () => '09:30'],
  [has('city', 'town', 'location', 'place', 'destination', 'origin', 'where', 'locality'), (random, hint) => namedInPrompt(CITIES, hint) ?? pickOne(random, CITIES)],
  [has('country', 'nation'), (random, hint) => namedInPrompt(COUNTRIES, hint) ?? pickOne(random, COUNTRIES)],
  [has('address', 'street'), (random) => pickOne(random, STREETS)],
  [has('zip', 'postal', 'postcode'), (random) => String(randomInt(random, 10000, 99999))],
  [has('language', 'lang'), () => 'English'],
  [has('locale'), () => 'en-US'],
  [has('currency'), () => 'EUR'],
  [has('company', 'organization', 'organisation', 'org', 'employer', 'business'), (random) => pickOne(random, COMPANIES)],
  [has('file', 'filename', 'path'), (random) => `${pickOne(random, CATEGORIES)}-notes.md`],
  [has('username', 'handle', 'login'), (random) => fullName(random).toLowerCase().replace(' ', '_')],
  [has('first', 'given'), (random) => pickOne(random, FIRST_NAMES)],
  [has('last', 'surname', 'family'), (random) => pickOne(random, LAST_NAMES)],
  [has('product', 'item'), (random) => pickOne(random, PRODUCTS)],
  [has('project', 'task', 'event', 'meeting', 'book', 'course'), (random) => pickOne(random, TITLES)],
  [
    has('name', 'author', 'person', 'people', 'customer', 'user', 'owner', 'assignee', 'contact', 'recipient', 'sender', 'attendee', 'guest', 'traveller', 'traveler', 'passenger', 'member', 'participant', 'employee', 'student', 'friend'),
    (random) => fullName(random),
  ],
  [has('color', 'colour'), (random) => pickOne(random, COLORS)],
  [has('status', 'state'), (random) => pickOne(random, STATUSES)],
  [has('category', 'type', 'kind', 'tag', 'label', 'genre', 'group'), (random) => pickOne(random, CATEGORIES)],
  [has('version'), () => '1.0.0'],
  [has('host', 'hostname', 'domain'), () => 'example.com'],
  [has('query', 'q', 'search', 'keyword', 'term', 'prompt', 'question', 'topic'), (random, hint) => promptWords(hint) ?? pickOne(random, QUERIES)],
  [has('title', 'subject', 'headline', 'heading'), (random) => pickOne(random, TITLES)],
  [
    has('description', 'summary', 'text', 'content', 'body', 'message', 'comment', 'note', 'reason', 'explanation', 'answer', 'detail', 'instruction', 'response', 'output', 'result', 'feedback', 'review'),
    (random) => pickOne(random, TEXT_VALUES),
  ],
];

type NumberRule = [test: (words: Set<string>) => boolean, range: NumberRange & { decimals?: number }];

const NUMBER_RULES: NumberRule[] = [
  [has('latitude', 'lat'), { min: -60, max: 60, decimals: 4 }],
  [has('longitude', 'lon', 'lng', 'long'), { min: -150, max: 150, decimals: 4 }],
  [has('age'), { min: 18, max: 80 }],
  [has('year'), { min: 2020, max: 2026 }],
  [has('month'), { min: 1, max: 12 }],
  [has('hour'), { min: 0, max: 23 }],
  [has('minute', 'second'), { min: 0, max: 59 }],
  [has('temperature', 'temp'), { min: -5, max: 35, decimals: 1 }],
  [has('percent', 'percentage', 'pct'), { min: 0, max: 100 }],
  [has('probability', 'confidence', 'ratio', 'fraction', 'share', 'weight'), { min: 0, max: 1, decimals: 2 }],
  [has('rating', 'star'), { min: 1, max: 5 }],
  [has('price', 'cost', 'amount', 'total', 'budget', 'salary', 'fee', 'balance'), { min: 5, max: 500, decimals: 2 }],
  [
    has('count', 'quantity', 'qty', 'number', 'num', 'limit', 'max', 'min', 'size', 'top', 'k', 'n', 'day', 'night', 'week', 'people', 'adult', 'child', 'guest', 'item', 'result', 'page', 'seat', 'room'),
    { min: 1, max: 10 },
  ],
];

export function stringForProperty(random: Random, hint: PropertyHint): string {
  const words = nameWords(hint.name);
  const rule = STRING_RULES.find(([test]) => test(words));
  return rule ? rule[1](random, hint, words) : pickOne(random, GENERIC_PHRASES);
}

/** A range the name suggests (an age, a year, a price), with the decimals such a value has; undefined when the name says nothing. */
export function numberRangeForProperty(name: string | undefined): (NumberRange & { decimals?: number }) | undefined {
  const words = nameWords(name);
  return NUMBER_RULES.find(([test]) => test(words))?.[1];
}

/** `departureCity`, `departure_city`, `departure-cities` -> {departure, city} (plurals kept beside their singulars: `status` is no plural). */
function nameWords(name: string | undefined): Set<string> {
  const words = (name ?? '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return new Set([...words, ...words.map(singular)]);
}

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The first of `known` that the prompt names, for the first value of its kind. */
function namedInPrompt(known: readonly string[], hint: PropertyHint): string | undefined {
  if (hint.laterItem || !hint.prompt) return undefined;
  const prompt = hint.prompt.toLowerCase();
  return known.find((value) => new RegExp(`\\b${value.toLowerCase()}\\b`).test(prompt));
}

/** The prompt's first words, as a search query: what the user asked about. */
function promptWords(hint: PropertyHint): string | undefined {
  if (hint.laterItem || !hint.prompt) return undefined;
  const words = hint.prompt.replace(/[?!.]+$/, '').split(/\s+/).filter(Boolean).slice(0, QUERY_WORDS);
  return words.length ? words.join(' ') : undefined;
}
