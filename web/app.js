// App shell: service worker, engine start-up, status line, routing between views.
import { notify, working } from "./dom.js";
import { Engine } from "./engine-client.js";
import { DiceView } from "./dice-view.js";
import { CampaignsView } from "./campaign-view.js";
import { GamesView } from "./game-view.js";
import { openShared } from "./open-view.js";
import { recoverView } from "./recover-view.js";
import { SquadsView } from "./squads-view.js";
import { Store } from "./store.js";
import { Systems } from "./systems.js";

const BOOT_PATIENCE_MS = 45000;
const engine = new Engine();
window.tc = { engine, t0: performance.now() };

const status = document.getElementById("engine-status");
const STAGES = { runtime: "Getting the dice and rules ready", import: "Opening the rulebooks", restart: "Restarting after an error" };
let slowTimer = null;

engine.addEventListener("state", ({ detail }) => {
  status.dataset.state = detail.state;
  if (detail.state === "loading") {
    const seconds = ((performance.now() - engine.startedAt) / 1000).toFixed(0);
    status.textContent = `${STAGES[detail.stage] ?? "Starting"}… ${seconds}s`;
  } else if (detail.state === "ready") {
    clearTimeout(slowTimer);
    status.textContent = "Ready";
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
// otherwise the 10 MB runtime downloads twice (once for the page, once for the cache). A first
// install takes the page at once (sw.js.j2) and keeps the engine's files as they pass, so the
// engine's downloads start within a moment of the page's.
async function serviceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  let registration;
  try {
    registration = await navigator.serviceWorker.register("./sw.js");
  } catch (error) {
    console.warn("no offline support:", error);
    noOffline();
    return;
  }
  watchForUpdates(registration, hadController);
  if (hadController) return;
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    const worker = registration.installing ?? registration.waiting;
    // It could not keep the app's files (too little storage on the phone, most often): the app
    // still works, online, and the player is told so once.
    worker?.addEventListener("statechange", () => { if (worker.state === "redundant") { noOffline(); resolve(); } });
    // A first install takes the page within moments: it may have done so already.
    if (navigator.serviceWorker.controller) resolve();
    setTimeout(resolve, 120000);
  });
}

const NO_OFFLINE_TOLD = "tc.no-offline-told";
function noOffline() {
  document.documentElement.dataset.offline = "no-room"; // decided: this visit cannot keep the site
  try {
    if (localStorage.getItem(NO_OFFLINE_TOLD)) return;
    localStorage.setItem(NO_OFFLINE_TOLD, new Date().toISOString());
  } catch { /* no localStorage: said at every visit rather than never */ }
  notify("This phone did not give the app room to work offline, so it needs a connection to open. " +
    "Everything else works and your squads and games are saved. Free some space and reload to make it work offline.");
}

// Once the engine is ready, the service worker is asked to fetch what it does not hold yet
// (on a first visit: the app's own files; later: nothing). When it holds every file the app
// works offline, and the page says so on its root (data-offline="ready"). A phone that gives it
// no room is told once; a file that failed to arrive is asked for again at the next start.
function fillOffline() {
  const sw = navigator.serviceWorker;
  if (!sw?.controller) return;
  sw.addEventListener("message", ({ data }) => {
    if (data?.type !== "filled") return;
    if (data.newer) return;
    document.documentElement.dataset.offline = data.missing === 0 ? "ready" : "incomplete";
    if (data.full) noOffline();
  });
  sw.controller.postMessage("fill");
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

const views = { home: document.getElementById("home"), dice: document.getElementById("dice"), app: document.getElementById("app-view") };
const dice = new DiceView(views.dice, engine);
const store = new Store(engine);
const systems = new Systems(engine);
const squads = new SquadsView(views.app, engine, store, systems);
const games = new GamesView(views.app, engine, store, systems);
const campaigns = new CampaignsView(views.app, engine, store, systems);
window.tc.store = store;

// #/<view>/<arg>/<arg>: each dynamic view draws itself into #app-view.
const ROUTES = {
  squads: (system) => squads.list(system || null),
  squad: (id) => squads.edit(id),
  unit: (squadId, key) => squads.unit(squadId, key),
  roster: (id) => squads.roster(id),
  games: (sub, id) => games.list(sub === "new" ? id : null),
  game: (id) => games.show(id),
  sample: (system) => games.sample(system),
  campaigns: () => campaigns.list(),
  campaign: (id) => campaigns.show(id),
  "campaign-setup": (system) => campaigns.setup(system),
  open: (...token) => openShared(views.app, engine, store, systems, token.join("/")),
  recover: () => recoverView(views.app, store),
};

// Saved data: another tab or window changed a record, or something was set aside. The screen
// showing it is drawn again from the store (a game screen, the lists, the recover screen).
const SHOWS = { squads: ["squads", "squad", "unit", "roster", "games"], units: ["squads", "unit"], games: ["games", "game", "campaign"], campaigns: ["campaigns", "campaign"] };
store.addEventListener("change", ({ detail }) => {
  hintRecover();
  const name = location.hash.replace(/^#\/?/, "").split("/")[0];
  const id = location.hash.split("/")[2];
  if (name === "recover" || (SHOWS[detail.kind]?.includes(name) && (!id || !detail.id || name.endsWith("s") || safeDecode(id) === detail.id))) route();
});
function hintRecover() {
  const waiting = store.aside.length + store.newer.size;
  document.getElementById("open-recover").classList.toggle("attention", waiting > 0);
  document.getElementById("recover-hint").textContent = waiting
    ? `${waiting} saved item(s) could not be used as they are: look at them, export or delete them.`
    : "Export everything, and see anything that could not be read.";
}
store.opened.then(hintRecover);
store.ready.then(hintRecover);

function safeDecode(part) {
  try { return decodeURIComponent(part); } catch { return part; }
}

function route() {
  const [name, ...args] = location.hash.replace(/^#\/?/, "").split("/");
  const shown = name === "dice" ? "dice" : ROUTES[name] ? "app" : "home";
  for (const [key, el] of Object.entries(views)) el.hidden = key !== shown;
  document.body.dataset.view = name || "home";
  store.showFailure(); // saving stopped: over every screen but the recover screen
  // the screen is drawn (its reads and the engine's answers awaited) while the page says busy
  if (shown === "dice") working(dice.show());
  else if (shown === "app") working(ROUTES[name](...args.map(safeDecode)));
}

window.addEventListener("hashchange", route);
route();
// Ask the browser not to clear saved data when space runs low (granted to installed apps).
if (navigator.storage?.persist) navigator.storage.persist().then((granted) => { store.persisted = granted; }, () => {});
// A second visit (the service worker already controls the page) starts the engine at once:
// the runtime comes from the cache either way, so there is nothing to wait for.
const startEngine = () => { if (!engine.worker) { engine.start(); watchBoot(); } };
if (navigator.serviceWorker?.controller) startEngine();
const controlled = serviceWorker().finally(startEngine);
const engineReady = new Promise((resolve) => {
  engine.addEventListener("state", ({ detail }) => { if (detail.state === "ready") resolve(); });
});
Promise.all([controlled, engineReady]).then(fillOffline);
