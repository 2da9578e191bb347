import { describe, expect, it } from 'vitest';
import { LruMap } from './lru-map.js';

describe('LruMap', () => {
  it('drops the least recently used entry when full; a read makes an entry the most recent', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect(map.get('b')).toBeUndefined();
    expect(map.get('a')).toBe(1);
    expect(map.get('c')).toBe(3);
    expect(map.size).toBe(2);
  });

  it('replaces a value without evicting, and deletes', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 10);
    expect(map.size).toBe(2);
    expect(map.get('b')).toBe(2);
    expect(map.get('a')).toBe(10);
    map.delete('a');
    expect(map.get('a')).toBeUndefined();
    map.clear();
    expect(map.size).toBe(0);
  });
});
