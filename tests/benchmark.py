"""Performance figures of the built site: run by `python3 build.py bench`. Prints, never fails.

Medians over RUNS runs each, on a 390x844 phone viewport in headless Chromium:

* time to first paint, to engine ready and to the first odds on screen, cold (new
  browser profile, empty cache) and warm (service-worker cache), the warm start both
  from the memory snapshot the cold visit made and normally (the snapshot refused), in
  three settings:
  unthrottled; Chromium's CPU throttling at 4x (DevTools' setting, which slows only
  the page's main thread: Chromium refuses it for workers, where Pyodide runs); and
  a slow phone, the whole browser confined to half of one core (two cores at a quarter
  speed) with a cgroup
  (root only), which slows the worker too;
* bytes served on a cold load (raw, and gzip-equivalent: each file gzipped at level 6);
* storage the browser reports once the snapshot is stored (service-worker cache,
  IndexedDB) and the snapshot's own size;
* memory after boot: the page's JS heap (CDP) and the worker's wasm memory;
* in-engine times inside Pyodide under Node.js: boot, import of pydantic and of the
  core, and the exact distribution of 12 dice against 8 dice with rerolls, by our core
  and by icepool;
* then tests/bench_table.py (issue 26): tap to answer in a scripted turn of each playable
  system, and a shared squad link opened on a first visit over a 10 Mbit/s, 40 ms network
  (`python3 build.py bench table [runs]` prints only these).
"""

from __future__ import annotations

import gzip
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import CHROMIUM_ARGS, PHONE, Server  # noqa: E402

import build  # noqa: E402

RUNS = 5

#: The engine's stored snapshot record (web/snapshot.js), summarised; null when there is none.
STORED_JS = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("tc-engine", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("snapshot");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const get = open.result.transaction("snapshot").objectStore("snapshot").get("current");
    get.onsuccess = () => {
      const r = get.result;
      open.result.close();
      resolve(r ? { key: r.key, failed: r.failed ?? null, failures: r.failures ?? 0, bytes: r.bytes ?? null,
        stored: r.snapshot?.size ?? 0, code: (r.libs ?? []).reduce((n, l) => n + l.code.size, 0),
        making: r.making ?? null } : null);
    };
  };
})"""
#: Replace the stored snapshot by the marker of a failed one: the next start is a normal one.
REFUSE_JS = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("tc-engine", 1);
  open.onsuccess = () => {
    const tx = open.result.transaction("snapshot", "readwrite");
    const store = tx.objectStore("snapshot");
    const get = store.get("current");
    get.onsuccess = () =>
      store.put({ key: get.result.key, failed: "refused by the benchmark", failures: 2 }, "current");
    tx.oncomplete = () => { open.result.close(); resolve(true); };
    tx.onabort = tx.onerror = () => reject(tx.error);
  };
})"""
ICEPOOL = ("icepool", "2.1.3")


def served_bytes(paths: list[str]) -> tuple[int, int]:
    """Bytes of the files served, raw and gzipped at level 6."""
    raw = gz = 0
    for served in paths:
        path = build.DIST / (served.lstrip("/") or "index.html")
        if path.is_file():
            data = path.read_bytes()
            raw += len(data)
            gz += len(gzip.compress(data, 6))
    return raw, gz


def load(page: Any, url: str, throttle: float) -> dict[str, float]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url + "#/dice")
    page.wait_for_function("() => performance.getEntriesByName('tc-first-odds').length > 0", timeout=180_000)
    figures = page.evaluate(
        """() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        ready: window.tc.engine.marks.page_ready,
        odds: performance.getEntriesByName('tc-first-odds')[0].startTime,
        wasm: window.tc.engine.marks.wasm_bytes,
        worker_ready: window.tc.engine.marks.ready,
        start: window.tc.engine.marks.start,
    })"""
    )
    figures["heap"] = cdp.send("Runtime.getHeapUsage")["usedSize"]
    cdp.detach()
    return figures


CGROUP = Path("/sys/fs/cgroup/cpu/tcbench")


def slow_phone_chromium(period_us: int = 100_000) -> Path | None:
    """A Chromium launcher confined with all its processes to 50% of one core, if possible,
    enforced every ``period_us`` (within a period a burst shorter than half of it runs at full
    speed: tests/bench_table.py times taps of tens of ms, so it asks for 10 ms periods)."""
    group = CGROUP if period_us == 100_000 else CGROUP.with_name(f"{CGROUP.name}-{period_us}")
    try:
        group.mkdir(exist_ok=True)
        (group / "cpu.cfs_period_us").write_text(str(period_us))
        (group / "cpu.cfs_quota_us").write_text(str(period_us // 2))
    except OSError:
        return None
    launcher = build.CACHE / "bench" / f"chromium-slow-phone-{period_us}"
    launcher.parent.mkdir(parents=True, exist_ok=True)
    launcher.write_text(f'#!/bin/sh\necho $$ > {group}/cgroup.procs\nexec {build.CHROMIUM} "$@"\n')
    launcher.chmod(0o755)
    return launcher


def snapshot_stored(page: Any, timeout_s: float = 180) -> dict[str, Any]:
    """Wait until the engine has stored its snapshot; the storage figures then."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        stored = page.evaluate(STORED_JS)
        if stored and stored.get("bytes"):
            estimate = page.evaluate("navigator.storage.estimate()")
            return {**stored, "usage": estimate["usage"], "details": estimate.get("usageDetails", {})}
        if stored and stored.get("failed"):
            raise RuntimeError(f"the snapshot could not be made: {stored['failed']}")
        time.sleep(0.25)
    raise RuntimeError("no snapshot stored")


def browser_figures(server: Server) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    settings: list[tuple[str, Path, float]] = [("1x", build.CHROMIUM, 1), ("cdp 4x", build.CHROMIUM, 4)]
    slow = slow_phone_chromium()
    if slow:
        settings.append(("slow phone", slow, 1))
    else:
        print("(no cgroup here: the slow-phone setting is skipped)")
    results: dict[str, Any] = {}
    with sync_playwright() as p:
        for name, executable, throttle in settings:
            browser = p.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
            rows: dict[str, list[dict[str, Any]]] = {"cold": [], "warm snapshot": [], "warm normal": []}
            transfer: list[tuple[int, int]] = []
            storage: list[dict[str, Any]] = []
            for _ in range(RUNS):
                context = browser.new_context(**PHONE)
                first = len(server.served)
                page = context.new_page()
                rows["cold"].append(load(page, server.url, throttle))
                transfer.append(served_bytes(server.served[first:]))
                # The cold visit makes the snapshot in the background once the engine is idle.
                storage.append(snapshot_stored(page))
                page.close()
                page = context.new_page()
                rows["warm snapshot"].append(load(page, server.url, throttle))
                # The same warm start without it: the engine is told this build's snapshot failed.
                page.evaluate(REFUSE_JS)
                page.close()
                page = context.new_page()
                rows["warm normal"].append(load(page, server.url, throttle))
                context.close()
            results[name] = {**rows, "transfer": transfer, "storage": storage}
            browser.close()
    return results


def engine_figures() -> dict[str, Any]:
    wheel_dir = build.CACHE / "bench"
    wheel_dir.mkdir(parents=True, exist_ok=True)
    if not list(wheel_dir.glob("icepool-*.whl")):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "-d",
                str(wheel_dir),
                f"{ICEPOOL[0]}=={ICEPOOL[1]}",
            ],
            check=True,
        )
    (wheel,) = wheel_dir.glob("icepool-*.whl")
    done = subprocess.run(
        [
            "node",
            str(ROOT / "tests" / "bench_engine.mjs"),
            str(build.DIST),
            str(wheel),
            "9",
            str(build.pyodide_runtime() / "python_stdlib.zip"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return figures


def med(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def main() -> None:
    global RUNS
    import bench_table

    if sys.argv[1:2] == ["table"]:  # `build.py bench table [runs]`: only the table figures (issue 26)
        server = Server()
        bench_table.report(server, int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 3)
        server.stop()
        return
    RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    server = Server()
    print(f"Table Companion benchmark: {RUNS} runs each, build {build_id()}\n")
    engine = engine_figures()
    print("In-engine, Pyodide under Node.js (median of 9 where repeated):")
    for key, value in engine.items():
        unit = " ms" if key.endswith("_ms") else ""
        print(f"  {key:34s} {value:9.1f}{unit}" if unit else f"  {key:34s} {value:9}")
    browser = browser_figures(server)
    server.stop()
    print("\nBrowser, 390x844, medians (ms from navigation start); 'started' counts the")
    print("runs whose engine started as the row says (normal start / from the snapshot):")
    print(
        f"  {'':26s} {'first paint':>12s} {'engine ready':>13s} {'first odds':>11s}"
        f" {'worker ready':>13s} {'started':>8s}"
    )
    for setting, data in browser.items():
        for kind in ("cold", "warm normal", "warm snapshot"):
            rows = data[kind]
            wanted = "snapshot" if kind == "warm snapshot" else "normal"
            started = sum(r["start"] == wanted for r in rows)
            print(
                f"  {kind + ' ' + setting:26s} {med(rows, 'paint'):12.0f} {med(rows, 'ready'):13.0f}"
                f" {med(rows, 'odds'):11.0f} {med(rows, 'worker_ready'):13.0f} {started:>4d}/{len(rows)}"
            )
    raw, gz = browser["1x"]["transfer"][0]
    print(f"\nCold load served: {raw / 1e6:.2f} MB raw, {gz / 1e6:.2f} MB gzip-equivalent")
    for setting, data in browser.items():
        stored = data["storage"][0]
        details = ", ".join(f"{k} {v / 1e6:.1f} MB" for k, v in stored["details"].items())
        print(
            f"Storage after the snapshot ({setting}): snapshot {stored['stored'] / 1e6:.1f} MB (of a"
            f" {stored['bytes'] / 1e6:.1f} MB wasm memory, zero pages left out) + library code "
            f"{stored['code'] / 1e6:.1f} MB; the browser reports {stored['usage'] / 1e6:.1f} MB in use"
            f" ({details})"
        )
    for setting, data in browser.items():
        making = [s["making"] for s in data["storage"]]
        print(
            f"Making the snapshot ({setting}, medians): {med(making, 'total_ms'):.0f} ms in the background,"
            f" of which imports {med(making, 'imports_ms'):.0f} ms (one module per task) and the snapshot"
            f" itself {med(making, 'snapshot_ms'):.0f} ms (the engine waits that long)"
        )
    warm = browser["1x"]["warm snapshot"]
    print(
        f"Memory after boot (warm from the snapshot, 1x): page JS heap {med(warm, 'heap') / 1e6:.1f} MB, "
        f"worker wasm memory {med(warm, 'wasm') / 1e6:.1f} MB, "
        f"total {(med(warm, 'heap') + med(warm, 'wasm')) / 1e6:.1f} MB"
    )
    server = Server()
    bench_table.report(server, min(RUNS, 3))
    server.stop()


def build_id() -> str:
    html = (build.DIST / "index.html").read_text()
    return html.split('name="tc-build" content="')[1].split('"')[0]


if __name__ == "__main__":
    main()
