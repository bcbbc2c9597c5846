import { CHROMIUM_PATH, SOFTWARE_WEBGPU_ARGS } from '../chromium';
import { test, expect } from './fixtures';

// A second browser with SwiftShader's WebGPU: a software (fallback) adapter.
test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: SOFTWARE_WEBGPU_ARGS },
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
