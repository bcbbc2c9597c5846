/**
 * What a core block's label may be (X231, ADR 0191): a lower-case identifier, because the label
 * is the name of the block's tag in the system message (`<human …>…</human>`) and the value the
 * model types in `core_memory_append`. A label from before this rule that breaks it is kept and
 * still works; it is shown as quoted data, never as a tag name.
 */
import { quoteInline } from '../text/inline-text';

/** `human`, `persona`, `project_notes`: a letter, then up to 31 letters, digits or `_`. */
export const BLOCK_LABEL_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;

/** True when `label` may name a block (new blocks, renames and backup imports are held to it). */
export function isBlockLabel(label: string): boolean {
  return BLOCK_LABEL_PATTERN.test(label);
}

/** The label as the model reads it in text: itself, or quoted data when it breaks the rule. */
export function blockLabelText(label: string): string {
  return isBlockLabel(label) ? label : quoteInline(label);
}

/**
 * The tag a block is rendered in: `<human` … `</human>` for a valid label; `<block
 * label="…"` … `</block>` with the label quoted (`<`, `>` and line breaks escaped) for one
 * stored before the rule, so it can neither close another tag nor start a line.
 */
export function blockTag(label: string): { open: string; close: string } {
  return isBlockLabel(label)
    ? { open: `<${label}`, close: `</${label}>` }
    : { open: `<block label=${quoteInline(label)}`, close: '</block>' };
}
