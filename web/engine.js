// The engine: Pyodide and the rules core, in a module Web Worker so the page never
// freezes. It speaks one protocol: {id, request} in, {id, reply} out, where request
// and reply are the JSON strings of core.api.handle. No rules live here.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const base = new URL("./pyodide/", import.meta.url).href;
const PACKAGES = ["tablecompanion-core"];
const NEEDED = ["tablecompanion-core", "pydantic", "pydantic-core", "typing-extensions",
  "annotated-types", "typing-inspection"];

const post = (message) => self.postMessage(message);

async function boot() {
  const t0 = performance.now();
  const marks = {};
  post({ type: "progress", stage: "runtime" });
  const py = await loadPyodide({
    indexURL: base,
    lockFileURL: base + "pyodide-lock.json",
    packages: PACKAGES,
    stdout: () => {},
    stderr: (line) => console.warn("[python]", line),
  });
  marks.runtime = performance.now() - t0;
  // loadPackage resolves even when a wheel fails to fetch or fails its hash:
  // check that every package really arrived.
  const loaded = Object.keys(py.loadedPackages);
  const missing = NEEDED.filter((name) => !loaded.includes(name));
  if (missing.length) throw new Error(`packages failed to load: ${missing.join(", ")}`);
  post({ type: "progress", stage: "import" });
  const t1 = performance.now();
  py.runPython("import pydantic");
  marks.import_pydantic = performance.now() - t1;
  const t2 = performance.now();
  const api = py.pyimport("core.api");
  marks.import_core = performance.now() - t2;
  marks.ready = performance.now() - t0;
  marks.wasm_bytes = py._module?.HEAPU8?.buffer?.byteLength ?? null;
  return { handle: api.handle, marks };
}

const booted = boot();
booted.then(
  ({ marks }) => post({ type: "ready", marks }),
  (error) => post({ type: "failed", message: String(error?.message ?? error) }),
);

self.onmessage = async ({ data }) => {
  const { id, request } = data;
  let reply;
  try {
    const { handle } = await booted;
    reply = handle(request);
  } catch (error) {
    reply = JSON.stringify({ ok: false, error: { code: "internal", message: String(error?.message ?? error), problems: [] } });
  }
  post({ type: "reply", id, reply });
};
