/** @module Bounded answer caches for the time engine's parsers and plans (a full cache is emptied, not evicted). */

/** The value kept in `map` for `key`, made by `make` the first time; the map is emptied when it holds `limit`. */
export function remember<K, V>(map: Map<K, V>, key: K, make: () => V, limit = 1000): V {
  let value = map.get(key);
  if (value === undefined) {
    if (map.size >= limit) map.clear();
    value = make();
    map.set(key, value);
  }
  return value;
}
