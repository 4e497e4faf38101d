import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { assertSafeInput } from './safe-input';

function refusal(value: unknown) {
  try {
    assertSafeInput(value);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).details.errors;
  }
}

describe('assertSafeInput', () => {
  it('refuses lone surrogates in values and keys (PostgreSQL jsonb cannot hold them: a 500 before)', () => {
    expect(refusal(JSON.parse('{"metadata":{"x":"\\ud800"}}'))).toEqual([
      { path: 'metadata.x', message: 'Must be valid Unicode text (a lone surrogate is not)' },
    ]);
    expect(refusal(JSON.parse('{"metadata":{"\\udc00":1}}'))?.[0].path).toBe('metadata.\udc00');
  });

  it('accepts paired surrogates (emoji) and ordinary text', () => {
    expect(refusal({ name: 'Zoë 🙂', metadata: { '🙂': ['é'] } })).toBeNull();
  });
});
