/**
 * How much one share may bring into the "Shared with Loci" inbox, and how long an unconfirmed
 * share waits (U202, ADR 0131). `public/share-target-sw.js` carries the same numbers (it cannot
 * import this module); `share-inbox.test.ts` checks they are equal.
 */
export const SHARE_LIMITS = {
  /** Longer titles are cut: a title goes into the agent's queue as an event. */
  titleChars: 200,
  /** About 5,000 tokens: a note, not a book (share a file for that). */
  textChars: 20_000,
  urlChars: 2_000,
  files: 10,
  fileBytes: 30 * 1024 * 1024,
  shareBytes: 60 * 1024 * 1024,
  /** Shares waiting at once; more are refused until some are added or dismissed. */
  pending: 20,
} as const;

/** An unconfirmed share is removed after a day. */
export const SHARE_EXPIRY_MS = 24 * 60 * 60 * 1000;
