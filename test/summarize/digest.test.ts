// A fact's digest keeps the words that name things (names, titles, amounts, the user's own
// people and things) and drops the rest; the profile shows later facts by their digest.
import { describe, expect, it } from 'vitest';
import { factDigest } from '../../src/summarize/facts/digest.js';

describe('factDigest', () => {
  it.each([
    [
      'I recently got a new Orthopedic Memory Foam dog bed for my golden retriever, Max, about three weeks ago from Petco',
      'Orthopedic Memory Foam dog bed, my golden retriever, Max, Petco',
    ],
    ['I just got a new phone case for my Samsung Galaxy S22 from Case-Mate for $30', 'Samsung Galaxy S22, Case-Mate, $30'],
    [
      'I sold 15 jars of my homemade jam at the Homemade and Handmade Market on May 29th, earning $225.',
      '15 jars, my homemade jam, Homemade and Handmade Market, May 29th, $225',
    ],
    ['I finally beat my record in Ticket to Ride', 'my record, Ticket to Ride'],
    ['I just finished "The Seven Husbands of Evelyn Hugo" last week', '"The Seven Husbands of Evelyn Hugo"'],
    ['My commute is 45 minutes each way', 'My commute, 45 minutes'],
    ["I completed my Master's in Data Science with a GPA of 3.8", "Master's, Data Science, GPA, 3.8"],
  ])('%s', (text, digest) => {
    expect(factDigest(text)).toBe(digest);
  });

  it('gives no digest for amounts that say of nothing what they count', () => {
    expect(factDigest('I paid $50 on Wednesday')).toBe('');
    expect(factDigest('It came to $1,200 on October 30th')).toBe('');
    expect(factDigest('I paid $50 for 3 tickets on Wednesday')).toBe('$50, 3 tickets, Wednesday');
  });

  it('takes no sentence-start word for a name, and no vague "my old" alone', () => {
    expect(factDigest('Actually, my old phone broke and Back then I had no case')).toBe('my old phone');
    expect(factDigest('Recently I moved; my old one was too small')).toBe('');
  });

  it('gives no digest for a fact that only says when', () => {
    expect(factDigest('It was on June 27th')).toBe('');
    expect(factDigest('the 15th of March was great')).toBe('');
    expect(factDigest('I got a Golden Retriever three weeks ago')).toBe('Golden Retriever');
    expect(factDigest('I have been learning Italian for three weeks')).toBe('Italian, three weeks');
    expect(factDigest('I got a Golden Retriever on May 12th')).toBe('Golden Retriever, May 12th');
  });

  it('keeps side-by-side spans as the one phrase they were in the text', () => {
    expect(factDigest('I cleaned my white Adidas sneakers last month')).toBe('my white Adidas sneakers');
    expect(factDigest('I visited my friends Mark and Sarah')).toBe('my friends Mark and Sarah');
    expect(factDigest('I bought a $50 Amazon gift card')).toBe('$50 Amazon gift card');
  });

  it("reads past an owner's 's to the thing owned", () => {
    expect(factDigest("I went to my niece's high school graduation on June 15th")).toBe("my niece's high school, June 15th");
    expect(factDigest('I kept my old phone box')).toBe('my old phone');
  });

  it('takes no "my" with an abstract noun: it names nothing of the user\'s life', () => {
    expect(factDigest('I tracked my progress on my road bike')).toBe('my road bike');
    expect(factDigest('It really cleared my mind after the Berlin trip')).toBe('Berlin trip');
  });

  it('takes no pronoun at a sentence start for a name', () => {
    expect(factDigest('She told me about Paris')).toBe('Paris');
    expect(factDigest('They said it was fine')).toBe('');
  });

  it('ends a name at punctuation: two names side by side stay two', () => {
    expect(factDigest('I visited Italy, Switzerland, and Germany')).toBe('Italy, Switzerland, Germany');
    // An ampersand joins: one shop, not "Bed Bath, Beyond".
    expect(factDigest('I got my brother a gift card from Bed Bath & Beyond')).toBe('my brother, Bed Bath & Beyond');
  });

  it('keeps the one or two nouns that say what a name is', () => {
    expect(factDigest("I've been using a Philips LED bulb in my bedside lamp")).toBe('Philips LED bulb, my bedside lamp');
    expect(factDigest('I switched to a Ford F-150 pickup truck.')).toBe('Ford F-150 pickup truck');
    expect(factDigest("I just came back from Michael's engagement party at a rooftop bar")).toBe("Michael's engagement party");
    expect(factDigest('I got my highest score in Ticket to Ride, 132 points!')).toBe('my highest score, Ticket to Ride, 132 points');
    expect(factDigest('I binged four Marvel movies')).toBe('four Marvel movies');
    expect(factDigest("I went to Michael's wedding")).toBe("Michael's wedding");
    expect(factDigest('I set up my new Samsung 55-inch 4K smart TV on Saturday')).toBe('Samsung 55-inch 4K smart TV, Saturday');
  });

  it('takes no verb, adverb or preposition after a name for its noun', () => {
    // A verb after a name is its predicate: the name stands alone.
    expect(factDigest('Max loves his new bed')).toBe('Max');
    expect(factDigest('Lola eats a lot of Whiskas')).toBe('Lola, Whiskas');
    expect(factDigest('Alex helped me move')).toBe('Alex');
    expect(factDigest('Around 50 people voted')).toBe('Around 50');
    expect(factDigest('I picked it up at Petco yesterday')).toBe('Petco');
    expect(factDigest('I saw Glass Animals live in Brooklyn')).toBe('Glass Animals, Brooklyn');
    expect(factDigest('We met Sarah near the station')).toBe('Sarah');
    // The nouns must end the phrase: "wet" is followed by a noun, so it is no head noun.
    expect(factDigest('Lola likes Fancy Feast wet food in the morning')).toBe('Lola, Fancy Feast wet food');
    expect(factDigest('Lola eats wet food')).toBe('Lola');
  });

  it('says a name once: a phrase inside a longer one is left out', () => {
    expect(factDigest('I stayed at the Marriott, the Marriott Hotel downtown was great')).toBe('Marriott Hotel downtown');
    expect(factDigest('I added Spider-Man to my Spider-Man collection')).toBe('Spider-Man collection');
  });

  it('gives no digest for a day and its part: it only says when', () => {
    expect(factDigest('It is on Saturday morning')).toBe('');
    expect(factDigest('I go on Sunday evenings')).toBe('');
    expect(factDigest('I signed up for the Monday evening class')).toBe('Monday evening class');
  });
});
