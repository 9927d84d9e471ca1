// Engine start-up from a memory snapshot (issue #13; PLATFORM.md, "Memory snapshots").
//
// The first normal start in a browser makes, in the background once the engine has gone
// quiet, a snapshot of the warmed-up interpreter (runtime, packages and the whole core
// imported) and keeps it in IndexedDB under the build id and the browser's user agent.
// Later starts restore it instead of unpacking and importing everything again. Anything
// wrong with it (another build or browser, truncated, corrupted, a failed check) drops it
// and the engine starts normally: nothing here can leave the player without an engine.
// No rules live here.

const DB_NAME = "tc-engine";
const STORE = "snapshot";
const RECORD = "current";
// Where the wheels are put back after a restore, so that a module first imported after
// it (a lazy import) is found by zipimport: the file system is not part of a snapshot.
const WHEELS_DIR = "/lib/tc-wheels";

/** The key a snapshot is kept under: it is only ever restored by the same build in the same browser. */
export const snapshotKey = (build) => `${build} | ${navigator.userAgent}`;

function settle(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore(mode, action) {
  const open = indexedDB.open(DB_NAME, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  const db = await settle(open);
  try {
    const tx = db.transaction(STORE, mode);
    const done = new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onabort = tx.onerror = () => reject(tx.error ?? new Error("transaction aborted"));
    });
    const result = await settle(action(tx.objectStore(STORE)));
    await done;
    return result;
  } finally {
    db.close();
  }
}

/** The stored record: a snapshot, a "failed" marker, or undefined. */
export const readStored = () => withStore("readonly", (store) => store.get(RECORD));

/**
 * Drop the stored snapshot. With `failure` (a message), remember that this key's snapshot
 * failed, and how often: `failures` (this one included).
 */
export const dropStored = (key, failure, failures = 1) =>
  withStore("readwrite", (store) =>
    (failure ? store.put({ key, failed: failure, failures }, RECORD) : store.delete(RECORD)));

// A snapshot that failed this often for one build in one browser is not made again.
export const MAX_FAILURES = 2;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Make a snapshot of `py` (loaded with `_makeSnapshot: true`, its core answering) and store it.
 * `check` is a request whose reply is recorded and compared after every restore;
 * `failures` counts the snapshots of this key that failed before this one.
 */
export async function makeSnapshot(py, { key, check, handle, failures = 0, quiet = () => pause(0) }) {
  const t0 = performance.now();
  const M = py._module;
  if (!M.tcLoadedLibs) throw new Error("this runtime is not patched for snapshots");
  // Each piece of work below runs in one task, after `quiet()` (the engine has had no request for
  // a while): a tap never waits behind more than one piece. The longest piece is recorded.
  const steps = [];
  const step = async (name, work) => {
    await quiet();
    const t = performance.now();
    const out = work();
    steps.push([name, performance.now() - t]);
    return out;
  };
  // 1. Import every module the app can ever import, one per task. The names come from the files
  //    (pkgutil.walk_packages would import every package to walk it: every rule system at once,
  //    seconds on a phone in one piece). A rule system's package imports the whole system: the
  //    packages go first, nearest the top first, so each system is one piece.
  const names = await step("find modules", () => {
    const found = py.runPython(`
import importlib, os, pkgutil, core, segno
def _tc_modules(name, folder):
    out = [name]
    for m in pkgutil.iter_modules([folder], name + "."):
        out += _tc_modules(m.name, os.path.join(folder, m.name.rpartition(".")[2])) if m.ispkg else [m.name]
    return out
[*_tc_modules("core", core.__path__[0]), *_tc_modules("segno", segno.__path__[0])]
`);
    const list = found.toJs();
    found.destroy();
    py.runPython("del _tc_modules");
    return list;
  });
  const depth = (name) => name.split(".").length;
  const parents = new Set(names.filter((name) => names.some((other) => other.startsWith(name + "."))));
  const order = [...names].sort((a, b) => (parents.has(b) - parents.has(a)) || (depth(a) - depth(b)));
  for (const name of order) {
    await step(name, () => {
      py.globals.set("TC_MODULE", name);
      py.runPython("try:\n    importlib.import_module(TC_MODULE)\nexcept Exception:\n    pass");
    });
  }
  const imported = performance.now() - t0;
  const expected = await step("check", () => strip(handle(check)));
  // 2. The snapshot itself, in one piece: Python must not run between preparing it and taking it.
  //    Pyodide refuses it while any package is listed as loaded: the list is emptied and put back.
  //    What it returns is a copy of the memory: the engine may answer taps while it is packed.
  const loaded = { ...py.loadedPackages };
  const handles = {};
  const { snapshot: taken, wheels } = await step("snapshot", () => {
    const packages = Object.keys(py.loadedPackages).map((name) => py.lockfile.packages[name]).filter(Boolean);
    // Where each top-level module's wheel will be after a restore.
    const zips = Object.fromEntries(packages.flatMap((p) => p.imports.map((top) => [top, `${WHEELS_DIR}/${p.file_name}`])));
    for (const [handle, dso] of Object.entries(M.LDSO.loadedLibsByHandle)) {
      if (+handle) (handles[dso.name] ??= []).push(+handle);
    }
    py.globals.set("TC_SNAPSHOT_OF", key);
    const pyZips = py.toPy(zips);
    py.globals.set("TC_ZIPS", pyZips);
    pyZips.destroy();
    // A module first imported after a restore is looked for in the wheel too (zipimport): for
    // a submodule, in its package's __path__; for a new top-level module, in sys.path.
    py.runPython(`
import gc, sys
TC_SITE = "/lib/python3.14/site-packages/"
TC_SAVED = [(sys.path, list(sys.path))]
sys.path.extend(sorted(set(TC_ZIPS.values())))
for _name, _module in list(sys.modules.items()):
    _path = getattr(_module, "__path__", None)
    _zip = TC_ZIPS.get(_name.partition(".")[0])
    if _zip and isinstance(_path, list) and any(p.startswith(TC_SITE) for p in _path):
        TC_SAVED.append((_path, list(_path)))
        _path.extend(_zip + "/" + p.removeprefix(TC_SITE) for p in list(_path) if p.startswith(TC_SITE))
del _name, _module, _path, _zip
gc.collect()
`);
    try {
      for (const name of Object.keys(py.loadedPackages)) delete py.loadedPackages[name];
      return { snapshot: py.makeMemorySnapshot(), wheels: packages.map((p) => p.file_name) };
    } finally {
      Object.assign(py.loadedPackages, loaded);
      py.runPython(`
for _path, _saved in TC_SAVED:
    _path[:] = _saved
for _name in ("_path", "_saved", "TC_SAVED", "TC_SITE", "TC_ZIPS", "TC_SNAPSHOT_OF", "TC_MODULE"):
    globals().pop(_name, None)
globals().pop("_name")
`);
    }
  });
  let snapshot = taken;
  // 3. Shared libraries are not in the snapshot: keep their code and where they were placed.
  const libs = await step("libraries", () => M.tcLoadedLibs.map((lib) => {
    const code = py.FS.readFile(lib.libName);
    return { ...lib, handles: handles[lib.libName] ?? [], checksum: checksum(code), code: new Blob([code]) };
  }));
  const { pages, packed } = await step("pack", () => pack(snapshot));
  const sum = await step("checksum", () => checksum(packed));
  const blob = await step("blob", () => new Blob([packed]));
  const record = {
    key,
    made: new Date().toISOString(),
    bytes: snapshot.length,
    pages,
    packed: packed.length,
    checksum: sum,
    snapshot: blob,
    libs,
    loaded,
    wheels,
    check: { request: check, reply: expected },
    failures,
  };
  snapshot = null;
  // How long it took: each step runs in one task once the engine is quiet; the longest step is
  // the most a tap could wait behind the making (none waits behind the quiet time itself).
  const [longest, longestMs] = steps.reduce((a, b) => (b[1] > a[1] ? b : a));
  const stepTime = (name) => steps.find(([n]) => n === name)?.[1] ?? 0;
  record.making = {
    imports_ms: imported,
    snapshot_ms: stepTime("snapshot"),
    longest_step: longest,
    longest_step_ms: longestMs,
    steps_ms: steps.reduce((n, [, ms]) => n + ms, 0),
    modules: order.length,
    slowest_steps: [...steps].sort((a, b) => b[1] - a[1]).slice(0, 3),
    total_ms: performance.now() - t0,
  };
  await withStore("readwrite", (store) => store.put(record, RECORD));
  return { bytes: record.bytes, ...record.making };
}

// A third of the wasm memory is pages of zeros: only the others are stored, with their numbers.
const PAGE = 65536;

function pack(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  const pages = [];
  for (let page = 0; page * PAGE < bytes.length; page++) {
    const end = Math.min((page + 1) * PAGE, bytes.length) >>> 2;
    for (let i = (page * PAGE) >>> 2; i < end; i++) {
      if (words[i]) {
        pages.push(page);
        break;
      }
    }
  }
  const last = Math.floor((bytes.length - 1) / PAGE);
  if (pages.at(-1) !== last) pages.push(last); // keeps any bytes past the last whole word
  const packed = new Uint8Array(pages.reduce((n, page) => n + Math.min(PAGE, bytes.length - page * PAGE), 0));
  let at = 0;
  for (const page of pages) {
    const chunk = bytes.subarray(page * PAGE, (page + 1) * PAGE);
    packed.set(chunk, at);
    at += chunk.length;
  }
  return { pages, packed };
}

function unpack(packed, pages, length) {
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const page of pages) {
    const size = Math.min(PAGE, length - page * PAGE);
    if (size <= 0 || at + size > packed.length) throw new Error("the snapshot's pages do not fit its size");
    bytes.set(packed.subarray(at, at + size), page * PAGE);
    at += size;
  }
  if (at !== packed.length) throw new Error(`the snapshot has ${packed.length - at} bytes too many`);
  return bytes;
}

// A 64-bit checksum of the bytes (two multiplicative hashes over 32-bit words): it finds
// accidental damage to a stored snapshot, at a fifth of SHA-256's time on 38 MB.
function checksum(bytes) {
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  const words = new Uint32Array(view.buffer, view.byteOffset, view.byteLength >>> 2);
  let a = 0x811c9dc5, b = view.byteLength | 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    a = (Math.imul(a, 31) + w) | 0;
    b = Math.imul(b ^ w, 0x9e3779b1);
  }
  for (let i = words.length * 4; i < view.byteLength; i++) a = (Math.imul(a, 31) + view[i]) | 0;
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

async function readChecked(blob, bytes, sum, what) {
  const buffer = await blob.arrayBuffer().catch((error) => {
    throw new Error(`${what} could not be read (${error?.name}: ${error?.message})`);
  });
  if (buffer.byteLength !== bytes) throw new Error(`${what} has ${buffer.byteLength} bytes, not ${bytes}`);
  if (checksum(buffer) !== sum) throw new Error(`${what} is damaged (its checksum differs)`);
  return buffer;
}

const strip = (reply) => {
  const { ms: _, ...rest } = JSON.parse(reply);
  return JSON.stringify(rest);
};

/**
 * Start Pyodide from `record` (as `makeSnapshot` stored it). Throws on any problem, leaving
 * the caller to start normally. Returns {py, api} with core.api answering.
 */
export async function restoreSnapshot(loadPyodide, options, record, { key, base, marks }) {
  const t0 = performance.now();
  // Read while Pyodide fetches and compiles its runtime: loadPyodide waits for it only
  // just before it instantiates the runtime.
  const snapshotP = readChecked(record.snapshot, record.packed, record.checksum, "the snapshot").then((buffer) => {
    marks.snapshot_read = performance.now() - t0;
    return unpack(new Uint8Array(buffer), record.pages, record.bytes);
  });
  const codeP = Promise.all(record.libs.map(async (lib) =>
    WebAssembly.compile(await readChecked(lib.code, lib.code.size, lib.checksum, lib.libName))));
  const wheelsP = Promise.all(record.wheels.map(async (file) => {
    const response = await fetch(base + file);
    if (!response.ok) throw new Error(`${file}: ${response.status}`);
    return [file, new Uint8Array(await response.arrayBuffer())];
  }));
  // Nothing may reject unobserved when an earlier step throws.
  for (const p of [snapshotP, codeP, wheelsP]) p.catch(() => {});
  const py = await loadPyodide({ ...options, _loadSnapshot: snapshotP });
  const snapshot = await snapshotP;
  // Pyodide keeps its options: without this it would hold on to the snapshot's 38 MB.
  if (py._api?.config) py._api.config._loadSnapshot = undefined;
  marks.snapshot_restored = performance.now() - t0;
  if (py.globals.get("TC_SNAPSHOT_OF") !== key) throw new Error("the snapshot was made by another build");
  // Each shared library is loaded again at the memory and table base it had (build.py's
  // RUNTIME_PATCHES place it there), then its memory is put back as the snapshot has it:
  // loading re-ran its initialisers.
  const M = py._module;
  M.tcFixedLibs = Object.fromEntries(record.libs.map((lib) => [lib.libName, lib]));
  const offset = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 2)[1];
  const code = await codeP;
  record.libs.forEach((lib, i) => {
    const dso = M.newDSO(lib.libName, undefined, "loading");
    dso.refcount = Infinity;
    dso.global = false;
    dso.exports = M.loadWebAssemblyModule(code[i], { loadAsync: false, allowUndefined: true }, lib.libName, {});
    const start = offset + lib.memoryBase;
    M.HEAP8.set(snapshot.subarray(start, start + lib.memorySize), lib.memoryBase);
    for (const handle of lib.handles) M.LDSO.loadedLibsByHandle[handle] = dso;
    M.LDSO.loadedLibsByName[lib.libName] = dso;
  });
  Object.assign(py.loadedPackages, record.loaded);
  py.FS.mkdirTree(WHEELS_DIR);
  for (const [file, bytes] of await wheelsP) py.FS.writeFile(`${WHEELS_DIR}/${file}`, bytes);
  // The snapshot froze the random generators' state: draw a fresh seed from the browser.
  py.runPython("import random; random.seed()");
  const api = py.pyimport("core.api");
  marks.snapshot_attached = performance.now() - t0;
  const reply = strip(api.handle(record.check.request));
  if (reply !== record.check.reply) throw new Error("the restored engine answered its check differently");
  return { py, api };
}
