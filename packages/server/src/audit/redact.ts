/** The value stored in place of a secret. */
export const REDACTED = '[redacted]';

/** Key names (lower-cased, `_` and `-` removed) that are secrets by themselves. */
const SECRET_NAMES: ReadonlySet<string> = new Set(['code', 'codeverifier', 'otp', 'apikey', 'privatekey']);

/**
 * Endings that make a key a secret: `password`, `newPassword`, `client_secret`, `refreshToken`,
 * `access_token`, `mfaToken`… `code` is matched only as a whole name because `errorCode`, `statusCode`
 * and `countryCode` are ordinary detail.
 */
const SECRET_SUFFIXES = ['password', 'secret', 'token'] as const;

/** Nesting deeper than this is cut: audit detail is a few flat fields, never a whole object graph. */
const MAX_DEPTH = 8;

/** True when a key of audit `data` names a secret (case-insensitive; `client_secret` and `clientSecret` alike). */
export function isSecretKey(key: string): boolean {
  const name = key.toLowerCase().replace(/[_-]/g, '');
  return SECRET_NAMES.has(name) || SECRET_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

export interface Redacted {
  /** A JSON-safe copy with secret values replaced. */
  readonly value: Record<string, unknown>;
  /** Dotted paths of what was replaced, for a log line that never contains the values. */
  readonly redactedPaths: string[];
}

/**
 * Copies audit `data` into plain JSON: secret-named keys at any depth (including inside arrays) become
 * "[redacted]", dates become ISO strings, bigints strings, functions and undefined are dropped, cycles
 * and excessive depth become markers. Writing must not fail on odd detail, and must not leak a secret
 * that a capability passed by mistake.
 */
export function redactSecrets(data: Readonly<Record<string, unknown>>): Redacted {
  const redactedPaths: string[] = [];
  const seen = new WeakSet<object>();

  const walk = (value: unknown, path: string, depth: number): unknown => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
    if (typeof value === 'bigint') return value.toString();
    if (typeof value !== 'object') return undefined; // functions, symbols, undefined
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    // URL, Buffer and the like say how they want to be serialized.
    const toJson = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') return walk(toJson.call(value), path, depth + 1);
    if (seen.has(value)) return '[circular]';
    if (depth >= MAX_DEPTH) return '[truncated]';
    seen.add(value);
    try {
      if (Array.isArray(value))
        return value.map((item, index) => walk(item, `${path}[${index}]`, depth + 1) ?? null);
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const itemPath = path === '' ? key : `${path}.${key}`;
        if (isSecretKey(key)) {
          if (item !== undefined && item !== null) {
            out[key] = REDACTED;
            redactedPaths.push(itemPath);
          } else if (item === null) {
            out[key] = null;
          }
          continue;
        }
        const copied = walk(item, itemPath, depth + 1);
        if (copied !== undefined) out[key] = copied;
      }
      return out;
    } finally {
      // Only ancestors count as cycles: the same object twice side by side is copied twice.
      seen.delete(value);
    }
  };

  return { value: walk(data, '', 0) as Record<string, unknown>, redactedPaths };
}
