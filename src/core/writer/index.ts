/** The writing mode (RecurrentGPT, seed 000) and its interactive-fiction variant. */
export { startProject } from './start-project';
export { writeStep, runWriterStep, resolvePlanChoice, WRITER_TAG } from './write-step';
export type { PlanChoice, WriterStep, WriterStepOutcome } from './write-step';
export { simulateHuman, SIMULATOR_MAX_TOKENS } from './simulate-human';
export type { SimulatedChoice } from './simulate-human';
export { runAutonomous } from './run-autonomous';
export type { AutonomousRun, AutonomousStep } from './run-autonomous';
export { exportMarkdown } from './export-markdown';
export { editSection } from './edit-section';
export { loadWriterState, saveWriterState, writerStateKey } from './writer-persistence';
export { createWriterState, withPlan, withShortTermMemory, writerModeOf } from './writer-state';
export type {
  MemoryUpdate,
  NewWriterProject,
  PlanSource,
  WriterMode,
  WriterSection,
  WriterState,
} from './writer-state';
export { resolveWriterOptions } from './writer-deps';
export type { WriterDeps, WriterOptions } from './writer-deps';
export { buildStepPrompt } from './build-step-prompt';
export type { StepPrompt, TrimmedPart } from './build-step-prompt';
export { HUMAN_SIMULATOR_SCHEMA, PLAN_COUNT, PLAN_KEYS, WRITER_STEP_SCHEMA } from './step-schema';
export type { WriterStepOutput } from './step-schema';
export { WriterSession } from './writer-session';
export { partialSection } from './partial-section';
