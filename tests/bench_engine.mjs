// In-engine figures inside real Pyodide under Node.js (run by tests/benchmark.py):
// boot, import costs, and the exact 12-dice-vs-8-dice distribution with rerolls,
// by our core and, for comparison, by icepool.
// usage: node tests/bench_engine.mjs DIST_DIR ICEPOOL_WHEEL RUNS
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [distArg, icepoolWheel, runsArg] = process.argv.slice(2);
const runtime = path.join(path.resolve(distArg), "pyodide");
const runs = Number(runsArg ?? 9);
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (f) => { const t = performance.now(); f(); return performance.now() - t; };

const t0 = performance.now();
const py = await loadPyodide({ indexURL: runtime + "/", lockFileURL: path.join(runtime, "pyodide-lock.json"),
  packages: ["tablecompanion-core"] });
const out = { boot_ms: performance.now() - t0 };
out.import_pydantic_ms = time(() => py.runPython("import pydantic"));
out.import_core_ms = time(() => py.runPython("import core.api"));

const request = JSON.stringify({ op: "dice.odds", args: {
  attack: { dice: 12, success_on: 4, crit_on: 6, reroll: "failures" },
  defense: { dice: 8, success_on: 4, crit_on: 6, reroll: "failures" } } });
py.globals.set("REQUEST", request);
const call = () => JSON.parse(py.runPython("core.api.handle(REQUEST)")).ms;
out.odds_12v8_first_call_ms = call();
const uncached = [];
for (let i = 0; i < runs; i++) {
  py.runPython("import core.pool; core.pool._pool_dist.cache_clear()");
  uncached.push(call());
}
out.odds_12v8_uncached_median_ms = median(uncached);
out.odds_12v8_cached_median_ms = median(Array.from({ length: runs }, call));

if (icepoolWheel) {
  py.unpackArchive(new Uint8Array(fs.readFileSync(icepoolWheel)), "wheel");
  out.icepool_import_ms = time(() => py.runPython("import icepool"));
  py.runPython(`
import icepool
def icepool_12v8():
    die = icepool.d6.reroll([1, 2, 3], depth=1)
    hits = 12 @ die.map(lambda f: int(f >= 4))
    blocks = 8 @ die.map(lambda f: int(f >= 4))
    return (hits - blocks).map(lambda n: max(0, n))
`);
  const ice = Array.from({ length: runs }, () => time(() => py.runPython("icepool_12v8()")));
  out.icepool_12v8_median_ms = median(ice);
}
process.stdout.write(JSON.stringify(out) + "\n");
