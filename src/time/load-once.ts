/**
 * @module Modules imported on first use, one per key (chrono-node's locales, the phrase tables): each key's
 * loader runs once and its value is kept; a load that failed is tried again on the next call.
 */

/** A getter of each key's value, loading it on the first call for that key. */
export function loadOnce<K extends string, T>(loaders: Readonly<Record<K, () => Promise<T>>>): (key: K) => Promise<T> {
  const loaded = new Map<K, T>();
  return async (key) => {
    if (!loaded.has(key)) loaded.set(key, await loaders[key]());
    return loaded.get(key)!;
  };
}
