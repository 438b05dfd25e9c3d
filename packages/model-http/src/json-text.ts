const BACKSLASH = 0x5c;

/**
 * Whether `text`, read from between the quotes of a JSON string, is that string's value as it
 * stands: printable ASCII (0x20-0x7e) with no backslash, so no escape to decode. Providers that
 * read a few fields of a frame from its bytes, without `JSON.parse`, check each field with it and
 * parse the frame whole when it fails.
 *
 * @example
 * ```ts
 * import { isVerbatimJsonText } from '@adk/model-http';
 *
 * isVerbatimJsonText('audio/pcm;rate=24000'); // true
 * isVerbatimJsonText('line\\nbreak'); // false: an escape
 * ```
 */
export function isVerbatimJsonText(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e || code === BACKSLASH) return false;
  }
  return true;
}
