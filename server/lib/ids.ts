// Opaque, prefixed, time-ordered ids (`bkg_01JD…`): 48-bit millisecond time then 80 random bits,
// Crockford base32 (ULID layout). Ordering by id is ordering by creation, which is what the cursor
// pagination relies on.
import { randomBytes, randomUUID } from 'node:crypto';

export const ID_PREFIXES = {
  booking: 'bkg',
  conversation: 'cnv',
  message: 'msg',
  payment: 'pay',
  webhookEndpoint: 'whe',
  event: 'evt',
  delivery: 'dlv',
  deliveryAttempt: 'att',
  apiKey: 'key',
  user: 'usr',
  channel: 'chn',
  refreshToken: 'rtk',
  refreshFamily: 'rtf',
  auditEntry: 'aud',
  invitation: 'inv',
  passwordReset: 'pwr',
  resource: 'res',
  service: 'svc',
  timeOff: 'tof',
  timer: 'tmr',
  offer: 'ofr',
  assistantSession: 'asn',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}

/** Monotonic within one process: ids minted in the same millisecond still sort in order. */
function ulid(): string {
  const now = Date.now();
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
  } else {
    lastTime = now;
    lastRandom = new Uint8Array(randomBytes(10));
  }
  return encodeTime(lastTime) + encodeRandom(lastRandom);
}

function encodeTime(time: number): string {
  let out = '';
  let t = time;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

function increment(bytes: Uint8Array): Uint8Array {
  const next: Uint8Array = new Uint8Array(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 255) {
      next[i]++;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${ID_PREFIXES[kind]}_`) && /^[a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}$/.test(id);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The id a request is logged under and answers with (X-Request-Id, problem `request_id`). */
export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}
