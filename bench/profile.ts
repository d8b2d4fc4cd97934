// Reads a V8 CPU profile (node --cpu-prof, as the benches' --profile writes it) and prints where the time
// went: by package or part of the runtime, and the functions with the most self time. Writes the profile's
// stacks in the folded format (one line per stack, "frame;frame;frame count") next to it, for a flame graph:
// open the .cpuprofile itself in Chrome DevTools (Performance → Load profile) or speedscope, or feed the
// .folded file to flamegraph.pl.
//
//   npm run bench:profile -- bench/results/profile-XXXX            # the folder, or a .cpuprofile file
//   --top N (25)
//   --from S --to S   only the samples between these seconds of the profile (a bench's --profile prints each
//                     run's window, so one request's profile can be read apart from the others)
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({
  options: { top: { type: "string", default: "25" }, from: { type: "string" }, to: { type: "string" } },
  allowPositionals: true,
});
const target = positionals[0];
if (!target) throw new Error("usage: npm run bench:profile -- <folder or .cpuprofile>");
// A folder holds one profile per thread (a loader's worker among them): the largest is the main thread's.
const file = statSync(target).isDirectory()
  ? (readdirSync(target)
      .filter((name) => name.endsWith(".cpuprofile"))
      .map((name) => path.join(target, name))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0] ?? "")
  : target;
const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

/** Where a frame's code lives: a package, Node's own code, the app's source, or the runtime's bookkeeping. */
function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === "(garbage collector)") return "(garbage collector)";
    if (functionName === "(idle)") return "(idle)";
    if (functionName === "(program)") return "(program: V8 and native code)";
    return "(native)";
  }
  const inModules = url.lastIndexOf("node_modules/");
  if (inModules >= 0) {
    const rest = url.slice(inModules + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith("node:")) return "node (runtime)";
  const src = url.indexOf("/src/");
  if (src >= 0)
    return `app: ${url
      .slice(src + 1)
      .split("/")
      .slice(0, 3)
      .join("/")}`;
  return url;
}
const label = (frame: CallFrame) =>
  `${frame.functionName || "(anonymous)"} ${frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : ""}`.trim();

// Each sample's duration is the delta to the next one; its time, the sum of the deltas before it.
const windowed = values.from !== undefined || values.to !== undefined;
const windowName = `${values.from ?? 0}-${values.to ?? "end"}s`;
const fromUs = values.from === undefined ? -Infinity : Number(values.from) * 1e6;
const toUs = values.to === undefined ? Infinity : Number(values.to) * 1e6;
if (Number.isNaN(fromUs) || Number.isNaN(toUs)) throw new Error("--from and --to are seconds");
const selfMs = new Map<number, number>();
let atUs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  atUs += profile.timeDeltas[i] ?? 0;
  if (atUs < fromUs || atUs > toUs) continue;
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const id = profile.samples[i]!;
  selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
}
const totalMs = [...selfMs.values()].reduce((a, b) => a + b, 0);
const idleMs = [...selfMs]
  .filter(([id]) => byId.get(id)?.callFrame.functionName === "(idle)")
  .reduce((a, [, ms]) => a + ms, 0);
const busyMs = totalMs - idleMs;

const byArea = new Map<string, number>();
const byFunction = new Map<string, { ms: number; area: string }>();
const folded = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const node = byId.get(id)!;
  const area = areaOf(node.callFrame);
  byArea.set(area, (byArea.get(area) ?? 0) + ms);
  const key = label(node.callFrame);
  byFunction.set(key, { ms: (byFunction.get(key)?.ms ?? 0) + ms, area });
  const stack: string[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at)!.callFrame;
    if (frame.functionName !== "(root)") stack.push(label(frame).replaceAll(";", ","));
  }
  const line = stack.reverse().join(";");
  folded.set(line, (folded.get(line) ?? 0) + Math.round(ms * 1000));
}

const pct = (ms: number) => `${((ms / busyMs) * 100).toFixed(1)} %`;
console.log(
  `${file}${windowed ? ` (${windowName})` : ""}\n${(totalMs / 1000).toFixed(1)} s sampled, ${(busyMs / 1000).toFixed(1)} s busy (shares below are of busy time)\n`,
);
console.table(
  [...byArea]
    .filter(([area]) => area !== "(idle)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([area, ms]) => ({ area, "self ms": Math.round(ms), share: pct(ms) })),
);
console.table(
  [...byFunction]
    .filter(([, { area }]) => area !== "(idle)")
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, Number(values.top))
    .map(([fn, { ms, area }]) => ({ function: fn, area, "self ms": Math.round(ms), share: pct(ms) })),
);
const foldedFile = file.replace(/\.cpuprofile$/, windowed ? `.${windowName}.folded` : ".folded");
writeFileSync(
  foldedFile,
  `${[...folded]
    .filter(([, n]) => n > 0)
    .map(([stack, n]) => `${stack} ${n}`)
    .join("\n")}\n`,
);
console.log(`Folded stacks (microseconds) in ${foldedFile}`);
