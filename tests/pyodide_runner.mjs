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
// Issue 26: the standard library is trimmed to what the shipped code imports. Every module of
// every shipped package is imported here (as web/snapshot.js does with the core's), and any that
// fails to import is reported: a module the trim left out fails this test, not a player.
const t3 = performance.now();
const failures = py.runPython(`
import importlib, json, os, pkgutil
def _tc_walk(name, folder):
    out = [name]
    for m in pkgutil.iter_modules([folder], name + "."):
        out += _tc_walk(m.name, os.path.join(folder, m.name.rpartition(".")[2])) if m.ispkg else [m.name]
    return out
_tc_failed = {}
_tc_names = []
for _tc_top in ("core", "pydantic", "pydantic_core", "segno", "annotated_types", "typing_inspection", "typing_extensions"):
    _tc_module = importlib.import_module(_tc_top)
    _tc_names += _tc_walk(_tc_top, _tc_module.__path__[0]) if hasattr(_tc_module, "__path__") else [_tc_top]
for _tc_name in _tc_names:
    try:
        importlib.import_module(_tc_name)
    except Exception as error:
        _tc_failed[_tc_name] = f"{type(error).__name__}: {error}"
json.dumps({"modules": len(_tc_names), "failed": _tc_failed})
`);
const imports = { ...JSON.parse(failures), ms: performance.now() - t3 };
process.stdout.write(JSON.stringify({ boot: { booted, pydantic, core, loaded, python: info, imports } }) + "\n");

// Read stdin as a stream: readFileSync(0) fails with EAGAIN on a large piped input.
let input = "";
for await (const chunk of process.stdin) input += chunk;
for (const line of input.split("\n")) {
  if (!line.trim()) continue;
  const t = performance.now();
  const reply = handle(line);
  process.stdout.write(JSON.stringify({ reply: JSON.parse(reply), ms: performance.now() - t }) + "\n");
}
