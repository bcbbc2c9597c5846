/**
 * The names a user knows the two sides of a chat by (ADR 0090): their own display name, a
 * profile setting (empty by default), and the agent's name. Both are stored on each message as
 * `Message.author`, so recall search can find "what did Ada say about…" and a backup keeps them.
 */
import type { Agent } from '../model';
import type { MemoryStore } from '../ports/memory-store';

/** The setting key of the user's display name (a string; empty or absent means none). */
export const DISPLAY_NAME_SETTING = 'profile.displayName';

/** Longest name kept; a longer setting is cut (a name, not a paragraph). */
export const DISPLAY_NAME_CHARS = 80;

function clean(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.replace(/\s+/g, ' ').trim().slice(0, DISPLAY_NAME_CHARS).trim();
  return name === '' ? undefined : name;
}

/** The user's display name, or undefined when none is set (or the setting is not a string). */
export async function userDisplayName(store: MemoryStore): Promise<string | undefined> {
  return clean(await store.getSetting<unknown>(DISPLAY_NAME_SETTING));
}

/** The agent's name as its replies carry it, or undefined when it has none. */
export function agentDisplayName(agent: Agent): string | undefined {
  return clean(agent.name);
}
