import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
const axeSource = readFileSync("node_modules/axe-core/axe.min.js", "utf8");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox"] });
const page = await browser.newPage();
for (const variant of [
  `<button aria-label="Open notifications (1 unread)" style="position:relative"><svg aria-hidden="true" width="20" height="20"></svg><span aria-hidden="true" style="position:absolute;top:0;right:0">1</span></button>`,
  `<button aria-label="Open notifications (1 unread)" style="position:relative"><svg aria-hidden="true" width="20" height="20"></svg><span aria-hidden="true" style="position:absolute;top:0;right:0">12</span></button>`,
  `<button style="position:relative"><span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)">Open notifications,</span><svg aria-hidden="true" width="20" height="20"></svg><span style="position:absolute;top:0;right:0">1</span><span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)"> unread</span></button>`,
]) {
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head><body><main>${variant}</main></body></html>`);
  await page.addScriptTag({ content: axeSource });
  const r = await page.evaluate(async () => (await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a","wcag2aa","wcag21a","wcag21aa","best-practice"] } })).violations.map(v => v.id));
  console.log(r);
}
await browser.close();
