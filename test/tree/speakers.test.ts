// Speaker labels as transcripts write them: who is the user, who the assistant, and when a
// heading or a line's first word is not a speaker at all.
import { describe, expect, it } from 'vitest';
import { Speakers, speakersByLine } from '../../src/tree/speakers.js';

describe('speaker labels', () => {
  it('reads plain and bold labels, and says where the said text starts', () => {
    const s = new Speakers('');
    const line = '**ChatGPT:** Sure, here is a plan.';
    expect(s.turn(line)).toEqual({ speaker: 'assistant', labelLength: '**ChatGPT:** '.length });
    expect(s.turn('User: my cat Luna')).toEqual({ speaker: 'user', labelLength: 6 });
    expect(s.turn('__Human__: hi')?.speaker).toBe('user');
    for (const name of ['Assistant', 'AI', 'Claude', 'Gemini', 'Copilot', 'Codex', 'Agent'])
      expect(s.turn(`${name}: ok`)?.speaker).toBe('assistant');
    // A line that only starts with a name is no turn, nor is a name not followed by a colon.
    for (const line of ['Users: 40 a day', 'Response: 200 OK', 'Model: gpt-4o', 'user interviews went well'])
      expect(s.turn(line)).toBeNull();
  });

  it('reads a label stamped with a time or date, before or after the name', () => {
    const s = new Speakers('');
    for (const line of ['[10:42] User: hi', 'User (10:42): hi', '**User** (2023-05-30 10:42 AM): hi', '[2023-05-30 10:42] **User:** hi'])
      expect(s.turn(line)).toEqual({ speaker: 'user', labelLength: line.length - 2 });
    expect(s.turn('[link] User: hi')).toBeNull();
    expect(new Speakers('### Assistant (10:43)\nx\n### User (10:42)').heading('### Assistant (10:43)')).toBe('assistant');
  });

  it('takes "You" for the user, as ChatGPT names them, unless the user is "Me"', () => {
    expect(new Speakers('**You:** hi\n**ChatGPT:** hello').turn('**You:** hi')?.speaker).toBe('user');
    expect(new Speakers('Me: hi\nYou: hello').turn('You: hello')?.speaker).toBe('assistant');
  });

  it('reads a heading as a turn only in a document whose headings name both sides', () => {
    const chat = new Speakers('### User\n\nI have a dog.\n\n### Assistant\n\nNice.\n\n## Prompt:\nx\n## Response:\ny');
    expect(['### User', '### Assistant', '## Prompt:', '## Response:', '## **Claude**'].map((h) => chat.heading(h))).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'assistant',
    ]);
    expect(chat.heading('## User research')).toBeNull();
    expect(chat.heading('## Prompt')).toBeNull(); // without its colon, a topic
    // A note about a data model: its `## User` section is a topic.
    const note = new Speakers('# Schema\n\n## User\n- id, email\n\n## Invoice\n- total');
    expect(note.heading('## User')).toBeNull();
  });

  it('tells whether a block starts a turn on any line', () => {
    const s = new Speakers('');
    expect(s.startsTurn('some words\nAssistant: more')).toBe(true);
    expect(s.startsTurn('some words\nno one speaks')).toBe(false);
  });

  it('takes the name a transcript gives its user, where the assistant answers it', () => {
    const chat = ['Dana: I adopted a beagle.', 'Assistant: Congratulations!', 'Dana: He is three.', 'Assistant: A fine age.'].join('\n');
    const s = new Speakers(chat);
    expect(s.turn('Dana: He is three.')).toEqual({ speaker: 'user', labelLength: 6 });
    expect(s.startsTurn('more words\nDana: hi')).toBe(true);
    // Not a note's labels, not where the user is named, not a name the assistant does not answer.
    const notes = new Speakers(['Note: I adopted a beagle.', 'Assistant: ok', 'Note: he is three', 'Assistant: ok'].join('\n'));
    expect(notes.turn('Note: he is three')).toBeNull();
    expect(new Speakers(`${chat}\nUser: hi\nAssistant: hello`).turn('Dana: He is three.')).toBeNull();
    const meeting = ['Dana: ships Friday', 'Assistant: noted', 'Lee: reviews it', 'Assistant: noted', 'Dana: merges'];
    expect(new Speakers([...meeting, 'Assistant: ok', 'Lee: ok', 'Assistant: ok'].join('\n')).turn('Dana: merges')).toBeNull();
    // A label inside an answer ("Monday:") is not answered by the assistant: the user is still Dana.
    const plan = [chat, 'Dana: plan my week', 'Assistant: Here it is.', 'Monday: gym', 'Tuesday: rest', 'Dana: thanks'].join('\n');
    expect(new Speakers(plan).turn('Dana: thanks')?.speaker).toBe('user');
  });

  it("reads each source of a node on its own terms: one day's `User:` leaves another day's Dana the user", () => {
    const week = [
      '# Weekly: 2026-W46',
      '## 2026-11-10 (Tue)',
      'User: I run.',
      'Assistant: Great.',
      '```sh',
      '# 2026-11-11',
      '```',
      '### 2026-11-11 14:05',
      'Dana: hello',
      '## 2026-11-12 (Thu)',
      'Dana: I adopted a greyhound.',
      'Assistant: Congratulations!',
      'Dana: I live in a flat.',
      'Assistant: Nice.',
    ];
    const at = speakersByLine(week.join('\n'));
    expect(at(10).turn(week[10]!)?.speaker).toBe('user');
    expect(at(12).turn(week[12]!)?.speaker).toBe('user');
    // Read whole, the week names its user: Dana is no one.
    expect(new Speakers(week.join('\n')).turn(week[10]!)).toBeNull();
    // A date in code or beside a time opens no source: the first day's `User:` still speaks there.
    expect(at(8).turn(week[8]!)).toBeNull();
    expect(at(8)).toBe(at(2));
  });
});
