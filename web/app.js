// App shell: service worker, engine start-up, status line, routing between views.
import { Engine } from "./engine-client.js";
import { DiceView } from "./dice-view.js";

const BOOT_PATIENCE_MS = 45000;
const engine = new Engine();
window.tc = { engine, t0: performance.now() };

const status = document.getElementById("engine-status");
const STAGES = { runtime: "loading Python", import: "loading the rules" };
let slowTimer = null;

engine.addEventListener("state", ({ detail }) => {
  status.dataset.state = detail.state;
  if (detail.state === "loading") {
    const seconds = ((performance.now() - engine.startedAt) / 1000).toFixed(0);
    status.textContent = `Engine: ${STAGES[detail.stage] ?? "starting"}… ${seconds}s`;
  } else if (detail.state === "ready") {
    clearTimeout(slowTimer);
    status.textContent = "Engine ready";
  } else if (detail.state === "failed") {
    clearTimeout(slowTimer);
    status.textContent = `Engine failed: ${detail.message}. Reload to try again.`;
  }
});

// A wrong wasm MIME type or a broken download makes Pyodide hang without an error:
// say so visibly rather than spin for ever.
function watchBoot() {
  const tick = setInterval(() => {
    if (engine.state !== "loading") return clearInterval(tick);
    const label = status.textContent.replace(/ \d+s$/, "");
    status.textContent = `${label} ${((performance.now() - engine.startedAt) / 1000).toFixed(0)}s`;
  }, 1000);
  slowTimer = setTimeout(() => {
    if (engine.state === "loading") {
      status.dataset.state = "slow";
      status.textContent = "Engine is taking unusually long. Check the connection on a first visit, or reload.";
    }
  }, BOOT_PATIENCE_MS);
}

// On a first visit, start Pyodide only once the service worker controls the page:
// otherwise the 10 MB runtime downloads twice (once for the page, once for the cache).
async function serviceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  let registration;
  try {
    registration = await navigator.serviceWorker.register("./sw.js");
  } catch (error) {
    console.warn("no offline support:", error);
    return;
  }
  watchForUpdates(registration, hadController);
  if (hadController) return;
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    const worker = registration.installing ?? registration.waiting;
    worker?.addEventListener("statechange", () => { if (worker.state === "redundant") resolve(); });
    setTimeout(resolve, 120000);
  });
}

function watchForUpdates(registration, hadController) {
  const banner = document.getElementById("update");
  const show = () => { if (registration.waiting && navigator.serviceWorker.controller) banner.hidden = false; };
  registration.addEventListener("updatefound", () => {
    registration.installing?.addEventListener("statechange", show);
  });
  show();
  document.getElementById("update-now").addEventListener("click", () => {
    registration.waiting?.postMessage("skip-waiting");
  });
  if (hadController) {
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
  }
}

const views = { home: document.getElementById("home"), dice: document.getElementById("dice") };
const dice = new DiceView(views.dice, engine);

function route() {
  const name = location.hash.replace(/^#\/?/, "").split("/")[0] || "home";
  const shown = views[name] ? name : "home";
  for (const [key, el] of Object.entries(views)) el.hidden = key !== shown;
  if (shown === "dice") dice.show();
}

window.addEventListener("hashchange", route);
route();
if (navigator.storage?.persist) navigator.storage.persist().catch(() => {});
serviceWorker().finally(() => { engine.start(); watchBoot(); });
