/**
 * A rough size of a stored value in bytes: UTF-16 strings count 2 bytes per char, typed arrays
 * their byte length, numbers 8, booleans 4, plus 8 per key for structure. Good enough to tell the
 * user which tier is heavy; it is not what the browser bills against the quota.
 */
export function approxBytes(value: unknown): number {
  if (value === null || value === undefined) return 0;
  switch (typeof value) {
    case 'string':
      return value.length * 2;
    case 'number':
      return 8;
    case 'boolean':
      return 4;
    case 'object': {
      if (ArrayBuffer.isView(value)) return value.byteLength;
      if (Array.isArray(value)) return value.reduce((n: number, v) => n + approxBytes(v), 8);
      let n = 8;
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        n += k.length * 2 + approxBytes(v);
      }
      return n;
    }
    default:
      return 0;
  }
}
