/**
 * What the model is told about a tool: its name, description, example and parameters. The step
 * schema and the prompt's tool list are built from it; the tool itself (`tools/tool.ts`) adds
 * what it does.
 */
import type { Chars } from '../units';

export type ParamType = 'string' | 'integer';

export interface ParamSpec {
  name: string;
  type: ParamType;
  required: boolean;
  description: string;
  /** Smallest allowed integer. */
  minimum?: number;
  /** Longest allowed string. */
  maxLength?: Chars;
  /**
   * The reply itself: its length is bounded by the turn's reply reserve (the step schema gives
   * it what the reserve holds), not by a fixed number a long answer would break.
   */
  fillsReserve?: boolean;
  /** Allowed values (filled per turn for block labels). */
  options?: readonly string[];
  /** `YYYY-MM-DD` strings. */
  format?: 'date';
}

export interface ToolSpec {
  name: string;
  description: string;
  example: string;
  avoid?: string;
  params: ParamSpec[];
}
