// Summarise a .cpuprofile: self time by function and by package (node_modules/<pkg>).
import { readFileSync } from "node:fs";
const profile = JSON.parse(readFileSync(process.argv[2], "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFn = new Map(), byPkg = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  const url = n.callFrame.url || "(native)";
  const m = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  const pkg = m ? m[1] : url.includes("/src/") ? "src:" + url.split("/src/")[1].split("/").slice(0, 2).join("/") : url.startsWith("node:") ? "node" : n.callFrame.functionName.startsWith("(") ? n.callFrame.functionName : url || "(native)";
  const fn = `${n.callFrame.functionName || "(anon)"} ${url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + t);
}
const show = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).forEach(([n, t]) => console.log(`${(t / 1000).toFixed(0).padStart(7)} ms ${(100 * t / total).toFixed(1).padStart(5)}%  ${n}`));
console.log(`total ${(total / 1e6).toFixed(1)} s`);
console.log("-- by package"); show(byPkg, 25);
console.log("-- by function"); show(byFn, 30);
