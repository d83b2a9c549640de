// Storefront text made fit to keep, where a storefront's bytes become text (storefront-client.ts
// decodes every answer through here): PostgreSQL refuses a NUL character in text, and a lone UTF-16
// surrogate (from a JSON escape such as "\ud800", or a string cut inside a pair) in jsonb. NUL is
// dropped, a lone surrogate becomes U+FFFD; everything else is kept as the storefront sent it.

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what it looks for
const UNFIT = /[\u0000\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** a JSON escape that can decode to NUL or a surrogate */
const UNFIT_ESCAPE = /\\u(?:0000|d[89a-f])/i;

export function cleanText(text: string): string {
  if (!UNFIT.test(text)) return text;
  return text.replace(LONE_SURROGATE, '\ufffd').replaceAll('\u0000', '');
}

/** JSON text of a storefront parsed, every string in it clean (throws as JSON.parse does). */
export function parseStorefrontJson(text: string): unknown {
  const clean = cleanText(text);
  // the reviver only when an escape could decode to unfit text: it slows a products page down
  return UNFIT_ESCAPE.test(clean)
    ? JSON.parse(clean, (_key, value: unknown) =>
        typeof value === 'string' ? cleanText(value) : value,
      )
    : JSON.parse(clean);
}

/** At most `max` UTF-16 units of `text`, never ending inside a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
