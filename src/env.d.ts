/// <reference types="svelte" />
/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

/** True in the e2e build (`vite build --mode e2e`), which adds the test doubles. */
declare const __LOCI_E2E__: boolean;

/** `LOCI_MODEL_SERVERS` at build time: extra model-server origins the LLM worker may call (ADR 0120). */
declare const __LOCI_MODEL_SERVERS__: string;
