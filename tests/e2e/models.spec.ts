import { test, expect } from './fixtures';
import { createAgent } from './helpers/loci';

test.describe('models screen', () => {
  test('U31/U32: without WebGPU it says so at the top; the catalog shows verdicts and sizes', async ({
    page,
    externalRequests,
  }) => {
    await page.goto('/#/models');
    const banner = page.getByTestId('no-webgpu-banner');
    await expect(banner).toContainText('No usable GPU here: chat runs on the processor instead');
    await expect(banner).toContainText(/Memory, documents and search (still work|stay usable)/);
    const rows = page.getByTestId('model-row');
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThan(3);
    for (const row of await rows.all()) {
      await expect(row).toHaveAttribute('data-verdict', 'wont_run');
      await expect(row).toContainText("Won't run");
      await expect(row).toContainText(/download about [\d.]+ (GB|MB)/);
    }
    await expect(page.getByTestId('storage-used')).toContainText(/of .* available|Unknown/);
    await expect(page.getByTestId('loaded-model')).toHaveText('None');
    // Without a GPU, your own model server comes before the GPU list, where nothing runs; the
    // chosen preset is marked (issue 37 item 7).
    const server = page.getByTestId('model-server');
    const serverTop = (await server.boundingBox())!.y;
    const catalogTop = (await page.getByTestId('model-catalog').boundingBox())!.y;
    expect(serverTop).toBeLessThan(catalogTop);
    const presets = server.getByRole('group', { name: 'Presets' });
    await presets.getByRole('button', { name: 'Ollama' }).click();
    await expect(server.getByTestId('server-url')).toHaveValue('http://127.0.0.1:11434/v1');
    await expect(presets.getByRole('button', { name: 'Ollama' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(presets.getByRole('button', { name: 'vLLM' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(externalRequests).toEqual([]);
  });

  test('U33: a download attempted offline fails with a clear message; online it loads and can be deleted', async ({
    page,
    context,
    externalRequests,
  }) => {
    await page.goto('/#/models');
    const row = page.getByTestId('model-row').first();
    await expect(row).toBeVisible();
    const label = (await row.locator('h3').innerText()).replace('Recommended', '').trim();
    await context.setOffline(true);
    // U159: a model that will not run here downloads only after a warning.
    await row.getByRole('button', { name: /^Download anyway…/ }).click();
    await expect(row.getByRole('alert')).toContainText('will not run here');
    await row.getByRole('button', { name: /^Confirm download of/ }).click();
    const error = page.getByTestId('model-error');
    await expect(error).toHaveAttribute('data-code', 'network_unavailable');
    await expect(error).toContainText('There is no network connection');
    await expect(error).toContainText('once downloaded, models work offline');
    await context.setOffline(false);

    // Online, the e2e build's scripted engine stands in for web-llm: the load completes at once.
    // After a failure the button offers to try again (no second warning), whatever the screen's
    // first cache read finished after the failure (E19).
    await row.getByRole('button', { name: /^Try again/ }).click();
    await expect(row.getByTestId('model-state')).toContainText('Loaded and ready to chat');
    await expect(page.getByTestId('loaded-model')).toHaveText(label);
    await expect(error).toHaveCount(0);

    // A downloaded model can be deleted. (Not clicked here: web-llm's delete reads the model's
    // tensor-cache.json, which the scripted stand-in never cached, so it would go to the network.)
    await expect(row.getByRole('button', { name: `Delete ${label}` })).toBeVisible();

    // The chat now has a model: no "go to Models" notice, and the composer is enabled.
    await createAgent(page, 'Juniper');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Chat' })
      .click();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();
    await expect(page.getByTestId('no-model')).toHaveCount(0);
    expect(externalRequests).toEqual([]);
  });
});
