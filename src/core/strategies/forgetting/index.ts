/** The forgetting-curve strategy (seed 001): the strategy, its state and the UI's operations. */
export { createForgettingStrategy } from './forgetting-strategy';
export type { ForgettingStrategyOptions } from './forgetting-strategy';
export { defaultForgettingSettings } from './default-forgetting-settings';
export { forgettingRound, FRESH_FORGET_VALUE } from './forgetting-round';
export {
  emptyForgettingState,
  parseForgettingState,
  itemBody,
  itemPromptText,
} from './forgetting-state';
export type {
  ForgettingItem,
  ForgettingLine,
  ForgettingMoves,
  ForgettingState,
} from './forgetting-state';
export { forgetMemoryNow, pinMemory, promoteMemory, unpinMemory } from './forgetting-operations';
export type { ForgettingOperationError } from './forgetting-operations';
export { relevanceScores, sigmoid } from './relevance';
export type { RelevanceScore } from './relevance';
export { countUnits, segmentUnits } from './segment-units';
export { forgettingRows } from './forgetting-rows';
export type { ForgettingContainer, ForgettingRow } from './forgetting-rows';
