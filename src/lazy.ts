/**
 * @module Values made on first use, not at module scope (docs/operations.md startup budget): `lazy(build)`, and
 * `loadOnce(loaders)` for modules imported on first use, one per key (chrono-node's locales, the phrase tables).
 */

/** Returns a getter that calls `build` once, on first use, and then returns the same value. */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}

/**
 * A getter of each key's value, loading it on the first call for that key: each key's loader runs once and its
 * value is kept; a load that failed is tried again on the next call.
 */
export function loadOnce<K extends string, T>(loaders: Readonly<Record<K, () => Promise<T>>>): (key: K) => Promise<T> {
  const loaded = new Map<K, T>();
  return async (key) => {
    if (!loaded.has(key)) loaded.set(key, await loaders[key]());
    return loaded.get(key)!;
  };
}
