import type { Event } from './event';

/** Deeper values are counted as a flat guess (events are JSON-like and shallow in practice). */
const MAX_DEPTH = 64;
const DEEP_VALUE_BYTES = 64;
/** A string with a character above U+00FF takes two bytes per character in V8. */
const TWO_BYTE = /[\u0100-\uffff]/;

/** Sizes of frozen events, computed once per event (they never change). */
const eventSizes = new WeakMap<Event, number>();

function valueBytes(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      return 16 + (TWO_BYTE.test(value) ? 2 * value.length : value.length);
    case 'number':
    case 'bigint':
      return 16;
    case 'object': {
      if (value === null) return 0;
      if (depth >= MAX_DEPTH) return DEEP_VALUE_BYTES;
      if (ArrayBuffer.isView(value)) return 64 + value.byteLength;
      if (Array.isArray(value)) {
        let bytes = 16 + 8 * value.length;
        for (const item of value) bytes += valueBytes(item, depth + 1);
        return bytes;
      }
      let bytes = 24;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        bytes += 24 + valueBytes((value as Record<string, unknown>)[key], depth + 1);
      }
      return bytes;
    }
    default:
      return 0; // booleans, undefined: a slot counted by the holder
  }
}

/**
 * About how many bytes of JavaScript heap `value` holds: strings by length (two bytes per character
 * when V8 must store them so), numbers, arrays and plain objects with a per-slot overhead. An
 * estimate for bounding caches by memory, not an exact measure; shared values are counted at each
 * place they appear, so it errs on the high side.
 */
export function approximateBytes(value: unknown): number {
  return valueBytes(value, 0);
}

/**
 * {@link approximateBytes} of an event, remembered for frozen events (the ones session stores hand
 * out), so that every cache holding the same event pays for the estimate once.
 */
export function approximateEventBytes(event: Event): number {
  const known = eventSizes.get(event);
  if (known !== undefined) return known;
  const bytes = valueBytes(event, 0);
  if (Object.isFrozen(event)) eventSizes.set(event, bytes);
  return bytes;
}
