/**
 * Brands let `isInstance` checks work across copies of this package in one
 * process (the host loads several packages, each may resolve its own copy),
 * where `instanceof` would silently fail.
 */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

/** Marks an object with a brand, invisibly: not enumerable, not serialised. */
export function markBranded(value: object, brand: symbol): void {
  Object.defineProperty(value, brand, { value: true, enumerable: false });
}
