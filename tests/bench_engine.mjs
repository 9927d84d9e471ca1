// In-engine figures inside real Pyodide under Node.js (run by tests/benchmark.py):
// boot, import costs, and the exact 12-dice-vs-8-dice distribution with rerolls,
// by our core and, for comparison, by icepool.
// usage: node tests/bench_engine.mjs DIST_DIR ICEPOOL_WHEEL RUNS FULL_STDLIB_ZIP
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [distArg, icepoolWheel, runsArg, fullStdlib] = process.argv.slice(2);
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

// Every engine call a game needs, on a typical GUNFRAME squadron: time of the whole
// handle() call (JSON in and out included), median of `runs`, and the share link's length.
const ask = (op, args) => JSON.parse(py.globals.get("core").api.handle(JSON.stringify({ op, args })));
py.runPython("import core.api");
const timed = (op, args) => {
  const times = [];
  let reply;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    reply = ask(op, args);
    times.push(performance.now() - t);
  }
  if (!reply.ok) throw new Error(`${op}: ${reply.error.message}`);
  out[`call_${op}_ms`] = median(times);
  return reply.result;
};
const describe = ask("system.describe", { system: "gunframe" });
if (describe.ok) {
  out.call_system_describe_first_ms = time(() => ask("system.describe", { system: "gunframe" }));
  timed("system.describe", { system: "gunframe" });
  // A typical Clash squadron: five of the book's units, as close to 100 points as they go
  // (each pick the dearest that still leaves 8 points, a scout, for every slot after it).
  const priced = describe.result.catalogue
    .map((c) => ({ profile: c.profile, cost: ask("unit.check", { system: "gunframe", profile: c.profile }).result.cost }))
    .filter((c) => c.cost !== null)
    .sort((a, b) => b.cost - a.cost);
  const units = [];
  let total = 0;
  for (let slot = 0; slot < 5; slot++) {
    const budget = 100 - total - 8 * (4 - slot);
    const pick = priced.find((c) => c.cost <= budget && !units.some((u) => u.profile === c.profile));
    if (!pick) break;
    units.push({ key: `u${units.length + 1}`, profile: pick.profile });
    total += pick.cost;
  }
  const squad = { id: "bench", name: "Bench squadron", system: "gunframe", limit: 100, units };
  timed("squad.check", { squad });
  const token = timed("share.encode", { squad }).token;
  out.share_squad_units = units.length;
  out.share_squad_points = total;
  out.share_link_chars = `http://127.0.0.1:8000/#/open/${token}`.length;
  timed("share.decode", { token });
  timed("share.qr", { text: `http://127.0.0.1:8000/#/open/${token}` });
  const game = timed("game.new", { id: "g", name: "Bench", sides: [{ name: "A", squad }, { name: "B", squad }] });
  const attack = { attacker: "0/u1", target: "1/u2", weapon: "short" };
  timed("game.odds", { game, action: "attack", input: attack });
  const played = timed("game.act", { game, action: "attack", input: attack, seed: 1 }).game;
  timed("game.undo", { game: played });
  // The same calls late in a game: 60 attacks already in the log, with a new round after
  // every two (a weapon system attacks once per activation, L1046-1058).
  let long = timed("game.round", { game: played });
  for (let i = 0; i < 60; i++) {
    const reply = ask("game.act", { game: long, action: "attack", input: { ...attack, attacker: `${i % 2}/u1`, target: `${(i + 1) % 2}/u3` }, seed: i });
    if (reply.ok) long = reply.result.game; // a destroyed target is refused: go on
    if (i % 2 === 1) long = ask("game.round", { game: long }).result;
  }
  out.long_game_events = long.log.length;
  out.long_game_json_kb = JSON.stringify(long).length / 1000;
  long = ask("game.round", { game: long }).result;
  const before = { ...out };
  timed("game.act", { game: long, action: "attack", input: attack, seed: 1 });
  timed("game.undo", { game: long });
  out.call_game_act_long_ms = out["call_game.act_ms"];
  out.call_game_undo_long_ms = out["call_game.undo_ms"];
  out["call_game.act_ms"] = before["call_game.act_ms"];
  out["call_game.undo_ms"] = before["call_game.undo_ms"];
  timed("game.round", { game: played });
  timed("game.adjust", { game: played, changes: [{ path: ["sides", 0, "resources", "focus_points"], value: 3 }] });
  timed("store.load", { data: { schema_version: 1, squads: [squad], games: [played] } });
}

if (icepoolWheel) {
  py.unpackArchive(new Uint8Array(fs.readFileSync(icepoolWheel)), "wheel");
  // icepool imports `html`, which the app's trimmed standard library leaves out: add it back
  // from the untrimmed library, for this comparison only.
  py.FS.writeFile("/tmp/stdlib.zip", new Uint8Array(fs.readFileSync(fullStdlib)));
  py.runPython(`import zipfile
with zipfile.ZipFile("/tmp/stdlib.zip") as z:
    for n in z.namelist():
        if n.startswith("html/"):
            z.extract(n, "/lib/python3.14/site-packages")`);
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
