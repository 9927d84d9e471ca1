// Runs the built engine (dist/pyodide: the runtime, our lock file and wheels, all
// compiled as the browser gets them) inside real Pyodide under Node.js.
// usage: node tests/pyodide_runner.mjs DIST_DIR < requests.jsonl > replies.jsonl
// Each input line is a core.api request; each output line is {reply, ms}.
// The first output line is {boot: {...timings}}.
import path from "node:path";
import { pathToFileURL } from "node:url";

const dist = path.resolve(process.argv[2] ?? "dist");
const runtime = path.join(dist, "pyodide");
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);

const t0 = performance.now();
const py = await loadPyodide({
  indexURL: runtime + "/",
  lockFileURL: path.join(runtime, "pyodide-lock.json"),
  packages: ["tablecompanion-core"], env: { PYDANTIC_DISABLE_PLUGINS: "1" },
  stdout: (line) => process.stderr.write(line + "\n"),
});
const booted = performance.now() - t0;
const loaded = Object.keys(py.loadedPackages).sort();
const t1 = performance.now();
py.runPython("import pydantic");
const pydantic = performance.now() - t1;
const t2 = performance.now();
const handle = py.pyimport("core.api").handle;
const core = performance.now() - t2;
const info = py.runPython("import sys; sys.version.split()[0]");
process.stdout.write(JSON.stringify({ boot: { booted, pydantic, core, loaded, python: info } }) + "\n");

// Read stdin as a stream: readFileSync(0) fails with EAGAIN on a large piped input.
let input = "";
for await (const chunk of process.stdin) input += chunk;
for (const line of input.split("\n")) {
  if (!line.trim()) continue;
  const t = performance.now();
  const reply = handle(line);
  process.stdout.write(JSON.stringify({ reply: JSON.parse(reply), ms: performance.now() - t }) + "\n");
}
