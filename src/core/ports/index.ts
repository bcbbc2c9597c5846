export type * from './clock';
export type * from './embedder';
export type * from './lexical-index';
export type * from './llm-engine';
export type * from './memory-store';
export type * from './tokenizer';
export type * from './vector-index';
export type * from './memory-search';
