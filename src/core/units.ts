/** A count of model tokens. Branded so it is never mixed up with characters or bytes. */
export type Tokens = number & { readonly __unit?: 'tokens' };
/** A count of UTF-16 characters (what `string.length` measures). */
export type Chars = number & { readonly __unit?: 'chars' };
/** Milliseconds since the Unix epoch. */
export type EpochMs = number & { readonly __unit?: 'epoch_ms' };
