/**
 * objectPrototypeIsClean: the cheap look at Array.prototype's length stands for the scan of its
 * keys only when it can (a planted index, even deleted again, leaves the length behind).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { objectPrototypeIsClean } from '../src/internal/detach.ts';

const arrayProto: unknown[] = Array.prototype;

afterEach(() => {
  for (const key of Object.keys(arrayProto)) Reflect.deleteProperty(arrayProto, key);
  arrayProto.length = 0;
});

describe('objectPrototypeIsClean', () => {
  it('is clean while the prototypes hold what the language defines', () => {
    expect(objectPrototypeIsClean()).toBe(true);
  });

  it('is not clean while Array.prototype holds an index', () => {
    Reflect.set(arrayProto, '2', 'planted');
    expect(arrayProto.length).toBe(3);
    expect(objectPrototypeIsClean()).toBe(false);
  });

  it('is clean again once the index is deleted, though the length stays', () => {
    Reflect.set(arrayProto, '2', 'planted');
    Reflect.deleteProperty(arrayProto, '2');
    expect(arrayProto.length).toBe(3);
    expect(objectPrototypeIsClean()).toBe(true);
  });

  it('is not clean while Array.prototype holds a low index below a longer length', () => {
    arrayProto.length = 5;
    Reflect.set(arrayProto, '0', 'planted');
    expect(objectPrototypeIsClean()).toBe(false);
  });

  it('is not clean while Object.prototype holds a key of its own', () => {
    Reflect.set(Object.prototype, 'planted', 1);
    try {
      expect(objectPrototypeIsClean()).toBe(false);
    } finally {
      Reflect.deleteProperty(Object.prototype, 'planted');
    }
  });
});
