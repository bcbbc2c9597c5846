import { test, expect } from './fixtures';

// A second browser with SwiftShader's WebGPU: a software (fallback) adapter.
test.use({
  launchOptions: {
    executablePath: process.env.LOCI_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--enable-unsafe-webgpu',
      '--enable-features=Vulkan',
      '--use-angle=swiftshader',
      '--use-webgpu-adapter=swiftshader',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  },
});

test('P3: with --enable-unsafe-webgpu the probe finds a software adapter and keeps the LLM off', async ({
  page,
  shoot,
  externalRequests,
}) => {
  await page.goto('/');
  const report = page.getByTestId('device-report');
  await expect(report).toHaveAttribute('data-llm', 'software_adapter');
  await expect(report).toContainText('software GPU only');
  await expect(report).toContainText('(software fallback)');
  await expect(report).toContainText('Embedding model');
  await expect(report).toContainText('WebGPU');
  await shoot(page, 'home-1280x720-software-webgpu');
  expect(externalRequests).toEqual([]);
});
