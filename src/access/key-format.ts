// What an API key looks like: `sk_live_` + 32 base62 characters (about 190 bits of entropy), so
// it is recognisable in a leaked log line or a secret scanner, and unguessable. Only its SHA-256 is
// stored; the first characters (the prefix) are kept to tell keys apart in listings.
import { hash, randomInt, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'sk_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32;
/** characters of the key kept in clear: the marker and 4 of the secret */
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 4;

export const API_KEY_PATTERN = /^sk_live_[0-9A-Za-z]{32}$/;
/** anywhere in a text (a URL, a log line) */
export const API_KEY_IN_TEXT = /sk_live_[0-9A-Za-z]{32}/g;

/** `value` (text, or anything JSON) with every key-shaped string replaced: for what goes back to a caller or into a log. */
export function redactApiKeys<T>(value: T): T {
  if (value === undefined || value === null) return value;
  return JSON.parse(JSON.stringify(value).replace(API_KEY_IN_TEXT, '[redacted]')) as T;
}

export function generateApiKey(): string {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i++) secret += BASE62[randomInt(BASE62.length)];
  return KEY_PREFIX + secret;
}

/** SHA-256 of the key, hex (the one-shot hash: a third of createHash's cost, on every request) */
export const hashApiKey = (key: string) => hash('sha256', key, 'hex');

export const displayPrefix = (key: string) => key.slice(0, DISPLAY_PREFIX_LENGTH);

export const looksLikeApiKey = (value: string) => value.startsWith(KEY_PREFIX);

/** Constant-time comparison of two hex digests (the stored hash and the presented key's). */
export function sameHash(storedHex: string, presentedHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const presented = Buffer.from(presentedHex, 'hex');
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}
