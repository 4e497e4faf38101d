// Meta's limits on interactive messages, checked before a message leaves (./interactive.ts): each
// limit at its edge (accepted) and one past it (refused with a reason naming where).
import { describe, expect, it } from 'vitest';
import { clip, interactiveProblem, interactiveText, LIMITS } from './interactive';

const row = (i: number, over: Partial<{ id: string; title: string; description: string }> = {}) => ({
  id: `row-${i}`,
  title: `10:${String(i).padStart(2, '0')}`,
  ...over,
});
const list = (sections: Array<{ title?: string; rows: object[] }>, button = 'See times') => ({
  type: 'list',
  body: { text: 'Pick a time' },
  action: { button, sections },
});
const buttons = (replies: Array<{ id: string; title: string }>) => ({
  type: 'button',
  body: { text: 'Held for you' },
  action: { buttons: replies.map((reply) => ({ type: 'reply', reply })) },
});
const cta = (display_text: string, url = 'https://checkout.example/pay') => ({
  type: 'cta_url',
  body: { text: 'Pay to keep it' },
  action: { name: 'cta_url', parameters: { display_text, url } },
});
const x = (n: number) => 'x'.repeat(n);

describe('list messages', () => {
  it('accepts every limit at its edge', () => {
    const ten = Array.from({ length: LIMITS.rows }, (_, i) =>
      row(i, { id: `${i}${x(LIMITS.rowId - 2)}`, title: x(LIMITS.rowTitle), description: x(72) }),
    );
    const message = {
      ...list(
        [
          { title: x(LIMITS.sectionTitle), rows: ten.slice(0, 5) },
          { title: 'Tue 3 Mar', rows: ten.slice(5) },
        ],
        x(LIMITS.listButton),
      ),
      body: { text: x(LIMITS.body) },
    };
    expect(interactiveProblem(message)).toBeNull();
  });

  it.each([
    [
      '11 rows in all',
      list([
        { title: 'a', rows: [0, 1, 2, 3, 4, 5].map((i) => row(i)) },
        { title: 'b', rows: [6, 7, 8, 9, 10].map((i) => row(i)) },
      ]),
      'more than 10 rows',
    ],
    ['a row title of 25', list([{ rows: [row(0, { title: x(25) })] }]), 'rows.0.title'],
    ['a description of 73', list([{ rows: [row(0, { description: x(73) })] }]), 'rows.0.description'],
    ['a row id of 201', list([{ rows: [row(0, { id: x(201) })] }]), 'rows.0.id'],
    ['two rows with one id', list([{ rows: [row(0), row(0)] }]), 'row ids are not unique'],
    [
      'two sections, one untitled',
      list([{ title: 'Mon', rows: [row(0)] }, { rows: [row(1)] }]),
      'section title is required',
    ],
    ['a section title of 25', list([{ title: x(25), rows: [row(0)] }]), 'sections.0.title'],
    ['a button of 21', list([{ rows: [row(0)] }], x(21)), 'action.button'],
    [
      '11 sections',
      list(Array.from({ length: 11 }, (_, i) => ({ title: `d${i}`, rows: [row(i)] }))),
      'sections',
    ],
  ])('refuses %s, naming why', (_, message, why) => {
    expect(interactiveProblem(message)).toContain(why);
  });

  it('refuses a body over 1024', () => {
    expect(interactiveProblem({ ...list([{ rows: [row(0)] }]), body: { text: x(1025) } })).toContain(
      'body.text',
    );
  });
});

describe('reply buttons and CTA URL', () => {
  it('accepts 3 buttons of 20 with ids of 256, and a CTA of 20', () => {
    expect(
      interactiveProblem(buttons([0, 1, 2].map((i) => ({ id: `${i}${x(255)}`, title: `${i}${x(19)}` })))),
    ).toBeNull();
    expect(interactiveProblem(cta(x(20)))).toBeNull();
  });

  it.each([
    ['4 buttons', buttons([0, 1, 2, 3].map((i) => ({ id: `b${i}`, title: `B${i}` }))), 'action.buttons'],
    ['no button', buttons([]), 'action.buttons'],
    ['a title of 21', buttons([{ id: 'a', title: x(21) }]), 'title'],
    [
      'two titles alike',
      buttons([
        { id: 'a', title: 'Confirm' },
        { id: 'b', title: 'Confirm' },
      ]),
      'titles are not unique',
    ],
    [
      'two ids alike',
      buttons([
        { id: 'a', title: 'Yes' },
        { id: 'a', title: 'No' },
      ]),
      'ids are not unique',
    ],
    ['an id of 257', buttons([{ id: x(257), title: 'Yes' }]), 'reply.id'],
    ['a CTA label of 21', cta(x(21)), 'display_text'],
    ['a CTA without a web URL', cta('Pay', 'javascript:alert(1)'), 'url'],
    ['an unknown type', { type: 'carousel', body: { text: 'hi' } }, 'type'],
  ])('refuses %s', (_, message, why) => {
    expect(interactiveProblem(message)).toContain(why);
  });
});

describe('what a message reads as, and clipping', () => {
  it('reads a list as its body and its days with their times', () => {
    expect(interactiveText(list([{ title: 'Mon 2 Mar', rows: [row(0), row(30)] }]) as never)).toBe(
      'Pick a time\nMon 2 Mar: 10:00, 10:30',
    );
  });

  it('clips to the limit with an ellipsis, never half an emoji', () => {
    expect(clip('short', 24)).toBe('short');
    expect(clip(x(30), 24)).toHaveLength(24);
    const clipped = clip(`${x(22)}😀😀`, 24);
    expect(clipped.length).toBeLessThanOrEqual(24);
    expect(clipped).toBe(`${x(22)}…`);
  });
});
