import { describe, expect, it } from 'vitest';
import { hasPrefix, isUuid, newId } from './ids';

describe('ids', () => {
  it('are prefixed and sort in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 2000 }, () => newId('booking'));
    expect(ids.every((id) => hasPrefix(id, 'booking'))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('recognise UUIDs', () => {
    expect(isUuid('0b3f2f3e-9f5c-4d8e-8c1a-2b3c4d5e6f70')).toBe(true);
    expect(isUuid('0b3f2f3e9f5c4d8e8c1a2b3c4d5e6f70')).toBe(false);
  });
});
