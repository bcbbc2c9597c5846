// Renders scripts/icon.svg into the PWA's PNG icons with Debian's Chromium (no network needed).
// Run: node scripts/make-icons.mjs   (outputs are committed under public/icons/)
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const svg = readFileSync(new URL('./icon.svg', import.meta.url), 'utf8');
const out = (name) => new URL(`../public/icons/${name}`, import.meta.url).pathname;

// The maskable icon keeps its content inside the central 80 % "safe zone" on a full-bleed background.
const maskable = svg
  .replace(
    '<rect width="512" height="512" rx="112" fill="url(#bg)"/>',
    '<rect width="512" height="512" fill="url(#bg)"/><g transform="translate(51.2 51.2) scale(0.8)">',
  )
  .replace('</svg>', '</g></svg>');

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
const page = await browser.newPage();
const shots = [
  [svg, 192, 'icon-192.png', true],
  [svg, 512, 'icon-512.png', true],
  [maskable, 512, 'icon-maskable-512.png', false],
  [maskable, 180, 'apple-touch-icon.png', false],
];
for (const [source, size, name, transparent] of shots) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${source.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
  );
  await page.screenshot({ path: out(name), omitBackground: transparent });
}
await browser.close();
console.log('icons written to public/icons/');
