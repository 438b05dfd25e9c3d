import { describe, expect, it } from 'vitest';

import { InvalidArgumentError } from '../errors';
import { createEventActions, type Event } from '../events';
import { copyValidEventForStorage, validateEventForAppend } from './append-helpers';
import { IllFormedTextError, frozenCopy, frozenCopyReplacing, shareFrozen } from './frozen-copy';

function everyObjectFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(everyObjectFrozen);
}

describe('frozenCopy', () => {
  it('deep-copies JSON-like data and freezes every level, leaving the input untouched', () => {
    const input = {
      id: 'e1',
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'f', args: { city: 'Paris', n: [1, { x: 2 }] } } }],
      },
      flag: true,
      missing: undefined,
    };
    const copy = frozenCopy(input);
    expect(copy).toStrictEqual(input);
    expect(copy).not.toBe(input);
    expect(copy.content.parts[0]).not.toBe(input.content.parts[0]);
    expect(everyObjectFrozen(copy)).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input.content.parts[0]!.functionCall.args)).toBe(false);
    input.content.parts[0]!.functionCall.args.city = 'Rome';
    expect(copy.content.parts[0]!.functionCall.args.city).toBe('Paris');
    expect(() => {
      (copy.content.parts as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it('copies non-plain values with structuredClone and freezes them', () => {
    const when = new Date(0);
    const copy = frozenCopy({ when, list: [new Map([['k', 1]])] });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(0);
    expect(Object.isFrozen(copy.when)).toBe(true);
    expect(copy.list[0]!.get('k')).toBe(1);
  });

  it('handles cycles and very deep data through the structuredClone path', () => {
    const cyclic: Record<string, unknown> = { name: 'root' };
    cyclic.self = cyclic;
    const copy = frozenCopy(cyclic);
    expect(copy.self).toBe(copy);
    expect(copy).not.toBe(cyclic);
    expect(Object.isFrozen(copy)).toBe(true);

    let deep: Record<string, unknown> = { leaf: true };
    for (let index = 0; index < 500; index++) deep = { next: deep };
    const deepCopy = frozenCopy(deep);
    expect(deepCopy).toStrictEqual(deep);
    expect(everyObjectFrozen(deepCopy)).toBe(true);
  });

  it('refuses functions and symbols with InvalidArgumentError', () => {
    expect(() => frozenCopy({ a: [() => 1] })).toThrow(InvalidArgumentError);
    expect(() => frozenCopy({ a: Symbol('s') })).toThrow(InvalidArgumentError);
  });

  it('keeps an own "__proto__" key as data without changing the prototype', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as Record<
      string,
      unknown
    >;
    const copy = frozenCopy(input);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'ok']);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('gives empty objects and arrays as frozen, still-empty values', () => {
    const copy = frozenCopy({ a: {}, b: [] as unknown[] });
    expect(copy).toStrictEqual({ a: {}, b: [] });
    expect(Object.isFrozen(copy.a) && Object.isFrozen(copy.b)).toBe(true);
  });

  it('hands out constants registered with shareFrozen as they are, deep-frozen', () => {
    const constant = shareFrozen({ inner: { list: [1] } });
    expect(Object.isFrozen(constant.inner.list)).toBe(true);
    const copy = frozenCopy({ a: constant, b: { inner: { list: [1] } } });
    expect(copy.a).toBe(constant);
    expect(copy.b).not.toBe(constant);
    expect(copy.b).toStrictEqual(constant);
  });
});

describe('frozenCopyReplacing', () => {
  it('copies with one key replaced (or added last), deeply frozen, the source untouched', () => {
    const source = {
      id: 'e1',
      actions: { stateDelta: { a: 1 } },
      content: { parts: [{ text: 'hi' }] },
    };
    const replacement = { stateDelta: { b: 2 } };
    const copied = frozenCopyReplacing(source, 'actions', replacement);
    expect(copied).toEqual({
      id: 'e1',
      actions: { stateDelta: { b: 2 } },
      content: source.content,
    });
    expect(Object.keys(copied)).toEqual(['id', 'actions', 'content']);
    expect(Object.isFrozen(copied.content.parts[0])).toBe(true);
    expect(copied.content).not.toBe(source.content);
    replacement.stateDelta.b = 3;
    expect(copied.actions).toEqual({ stateDelta: { b: 2 } });
    expect(source.actions).toEqual({ stateDelta: { a: 1 } });

    const added = frozenCopyReplacing({ id: 'e2' }, 'actions', replacement);
    expect(Object.keys(added)).toEqual(['id', 'actions']);
    expect(Object.isFrozen((added as unknown as { actions: object }).actions)).toBe(true);
  });

  it('refuses functions like frozenCopy', () => {
    expect(() => frozenCopyReplacing({ id: 'e3' }, 'actions', { run: () => 1 })).toThrow(
      InvalidArgumentError,
    );
  });
});

describe('ill-formed text', () => {
  const LONE = 'a \uD800 b';

  it('refuses a lone surrogate in a value or a key at any depth, naming no path', () => {
    for (const value of [LONE, { a: [{ b: LONE }] }, { a: { [LONE]: 1 } }, [[LONE]]]) {
      expect(() => frozenCopy(value)).toThrow(IllFormedTextError);
    }
    expect(() => frozenCopyReplacing({ a: 1 }, 'b', { c: LONE })).toThrow(IllFormedTextError);
    expect(() => frozenCopyReplacing({ [LONE]: 1 }, 'b', 2)).toThrow(IllFormedTextError);
  });

  it('keeps paired surrogates, astral characters and U+FFFD', () => {
    const text = '😀 \uD83D\uDE00 \uFFFD';
    expect(frozenCopy({ [text]: [text] })).toStrictEqual({ [text]: [text] });
  });
});

describe('copyValidEventForStorage', () => {
  const event = (init: Partial<Event>): Event => ({
    id: 'e1',
    invocationId: 'i1',
    author: 'user',
    timestamp: 1,
    actions: createEventActions(),
    ...init,
  });

  it('names where the lone surrogate is, as validateEventForAppend does', () => {
    const bad = event({ content: { role: 'user', parts: [{ text: 'ok' }, { text: 'x\uDC00' }] } });
    for (const check of [() => copyValidEventForStorage(bad), () => validateEventForAppend(bad)]) {
      expect(check).toThrow(InvalidArgumentError);
      expect(check).toThrow(/^event\.content\.parts\[1\]\.text holds a lone UTF-16 surrogate/);
    }
  });

  it('refuses what validateEventForAppend refuses before looking at the text', () => {
    expect(() => copyValidEventForStorage(event({ id: '' }))).toThrow(/non-empty string id/);
    expect(() => copyValidEventForStorage(event({ partial: true }))).toThrow(/partial/);
  });

  it('stores a lone surrogate in a temp: state key nowhere, so does not refuse it', () => {
    const stored = copyValidEventForStorage(
      event({ actions: createEventActions({ stateDelta: { 'temp:x': 'a\uD800', kept: 1 } }) }),
    );
    expect(stored.actions.stateDelta).toStrictEqual({ kept: 1 });
  });
});
