// Renders public/icon.svg into the raster icons browsers still ask for: public/favicon.ico
// (16, 32 and 48 px PNGs in an ICO container) and public/apple-icon.png (180 px, square). Uses the
// Chromium the browser tests use. Run after changing the SVG: `node scripts/make-icons.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const svg = readFileSync('public/icon.svg', 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage();

async function png(size, source = svg) {
  await page.setViewportSize({ width: size, height: size });
  const url = `data:image/svg+xml;base64,${Buffer.from(source).toString('base64')}`;
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}</style><img src="${url}" width="${size}" height="${size}">`,
  );
  await page.waitForFunction(() => document.images[0]?.complete);
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

// ICO: a 6-byte header, a 16-byte directory entry per image, then the PNGs themselves.
const sizes = [16, 32, 48];
const images = [];
for (const size of sizes) images.push(await png(size));
const header = Buffer.alloc(6 + 16 * sizes.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(sizes.length, 4);
let offset = header.length;
sizes.forEach((size, i) => {
  const entry = 6 + 16 * i;
  header.writeUInt8(size, entry);
  header.writeUInt8(size, entry + 1);
  header.writeUInt16LE(1, entry + 4); // colour planes
  header.writeUInt16LE(32, entry + 6); // bits per pixel
  header.writeUInt32LE(images[i].length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += images[i].length;
});
writeFileSync('public/favicon.ico', Buffer.concat([header, ...images]));
// iOS rounds the corners itself and shows transparent ones black: the touch icon is a full square.
writeFileSync('public/apple-icon.png', await png(180, svg.replace('rx="14"', 'rx="0"')));
await browser.close();
console.log('wrote public/favicon.ico and public/apple-icon.png');
