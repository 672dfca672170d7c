/** @module `lazy(build)`: a value built on first use, not at module scope (DESIGN §12 startup budget). */

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
