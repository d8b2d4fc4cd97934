// `npm run bench:business-hours`: how long a due time and an elapsed business time take, so that SLA
// recomputation over many tickets stays cheap. Printed figures only; no test asserts a duration.
// Figures go to stdout and to bench/results/business-hours.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import { defaultBusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import { addBusinessMinutes, businessMinutesBetween } from "#shared/service-levels/business-hours.ts";

const berlin: BusinessCalendar = {
  ...defaultBusinessCalendar,
  timeZone: "Europe/Berlin",
  holidays: ["2026-12-24", "2026-12-25", "2026-12-31", "2027-01-01"].map((date) => ({ date })),
};
const start = new Date("2026-01-05T08:00:00Z");

function measure(label: string, minutes: number) {
  const firstBegan = performance.now();
  const dueAt = addBusinessMinutes(berlin, start, minutes);
  const firstMs = performance.now() - firstBegan;
  const runs = 2000;
  const batches: number[] = [];
  for (let batch = 0; batch < 5; batch++) {
    const began = performance.now();
    for (let run = 0; run < runs; run++) {
      addBusinessMinutes(berlin, start, minutes + (run % 7));
      businessMinutesBetween(berlin, start, dueAt);
    }
    batches.push(((performance.now() - began) * 1000) / (runs * 2));
  }
  const bestUs = Math.min(...batches);
  const medianUs = batches.sort((a, b) => a - b)[2]!;
  console.log(
    `${label.padEnd(22)} first call ${firstMs.toFixed(2)} ms, then per call: best ${bestUs.toFixed(1)} µs, median ${medianUs.toFixed(1)} µs`,
  );
  return { label, minutes, firstCallMs: firstMs, perCallBestUs: bestUs, perCallMedianUs: medianUs };
}

const figures = [
  measure("1 hour", 60),
  measure("8 business hours", 8 * 60),
  measure("1 business week", 5 * 8 * 60),
  measure("1 year", 52 * 2400),
];
const resultsDir = fileURLToPath(new URL("results", import.meta.url));
mkdirSync(resultsDir, { recursive: true });
writeFileSync(`${resultsDir}/business-hours.json`, `${JSON.stringify({ figures }, null, 2)}\n`);
