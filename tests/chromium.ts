/**
 * How every Playwright suite starts Debian's Chromium here (e2e, production smoke, the software
 * WebGPU specs): no sandbox (root), no GPU, nothing of Chromium's own traffic (updates, sync,
 * QUIC), so a test sees only the app's requests.
 */
export const CHROMIUM_PATH = process.env.LOCI_CHROMIUM ?? '/usr/bin/chromium';

const QUIET = [
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Launch arguments without a GPU. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', ...QUIET];

/** Launch arguments with SwiftShader's software WebGPU adapter. */
export const SOFTWARE_WEBGPU_ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-angle=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  ...QUIET,
];
