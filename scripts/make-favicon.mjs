// Writes app/favicon.ico from app/icon.svg: 16, 32 and 48 px PNGs drawn by Chromium, in one ICO
// (an ICO may hold PNG images; every browser since IE 11 reads them). Browsers and bookmarks ask
// for /favicon.ico whatever the page links, so it must exist beside the SVG icon. Run it again
// after changing the SVG: `node scripts/make-favicon.mjs` (needs /usr/bin/chromium).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const svg = path.join(root, "app", "icon.svg");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "favicon-"));
const sizes = [16, 32, 48];

const images = sizes.map((size) => {
  const page = path.join(work, `${size}.html`);
  const png = path.join(work, `${size}.png`);
  fs.writeFileSync(
    page,
    `<html><body style="margin:0;background:transparent"><img src="file://${svg}" width="${size}" height="${size}" style="display:block"></body></html>`,
  );
  execFileSync(
    "/usr/bin/chromium",
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--hide-scrollbars",
      "--default-background-color=00000000",
      `--window-size=${size},${size}`,
      `--screenshot=${png}`,
      `file://${page}`,
    ],
    { stdio: "ignore" },
  );
  return { size, data: fs.readFileSync(png) };
});
fs.rmSync(work, { recursive: true, force: true });

// ICONDIR (6 bytes), one ICONDIRENTRY (16 bytes) per image, then the images.
const header = Buffer.alloc(6 + 16 * images.length);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(images.length, 4);
let offset = header.length;
images.forEach(({ size, data }, index) => {
  const entry = 6 + 16 * index;
  header.writeUInt8(size, entry);
  header.writeUInt8(size, entry + 1);
  header.writeUInt8(0, entry + 2); // no palette
  header.writeUInt8(0, entry + 3);
  header.writeUInt16LE(1, entry + 4); // colour planes
  header.writeUInt16LE(32, entry + 6); // bits per pixel
  header.writeUInt32LE(data.length, entry + 8);
  header.writeUInt32LE(offset, entry + 12);
  offset += data.length;
});
const out = path.join(root, "app", "favicon.ico");
fs.writeFileSync(out, Buffer.concat([header, ...images.map((image) => image.data)]));
console.log(`wrote ${path.relative(root, out)} (${sizes.join(", ")} px, ${offset} bytes)`);
