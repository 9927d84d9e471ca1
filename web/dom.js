// Tiny DOM helpers. Text from anywhere (saved data, share links) goes in as text,
// never as HTML.

// Direction controls (right-to-left overrides, embeddings, isolates). A string child that
// holds any is put in its own <bdi>, so it cannot turn round the app's text around it.
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(typeof child === "string" && BIDI.test(child) ? bdi(child) : child);
  return node;
}

// Text from a link or from storage (a name), isolated from the app's own text around it:
// its direction is its own (dir="auto") and does not leak out.
export function bdi(text) {
  const node = document.createElement("bdi");
  node.setAttribute("dir", "auto");
  node.textContent = text;
  return node;
}

// A route such as #/game/<id> with every part encoded, so an id holding "/" or "#" stays
// one part (app.js decodes each part).
export function hashFor(...parts) {
  return `#/${parts.map((part) => encodeURIComponent(part)).join("/")}`;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

// A message the player must see (a damaged save, a bad link): stays until dismissed.
export function notify(text) {
  const box = document.getElementById("notice");
  // A sentence: the engine's messages start in lower case to sit inside others ("step 2: ...").
  const said = String(text ?? "");
  document.getElementById("notice-text").textContent = said.charAt(0).toUpperCase() + said.slice(1);
  box.hidden = false;
  document.getElementById("notice-close").onclick = () => { box.hidden = true; };
}

// What the page is still doing for the player, counted on the page's root as data-busy where that
// work starts: a screen being drawn (app.js's route), a button's handler (button() below), the
// store's start, saves and messages from other tabs (store.js), a check waiting for typing to stop
// (debounce() below). The engine's calls are counted there as data-engine-busy (engine-client.js).
// With both at 0 the screen shows all that the last tap did: tests wait for that, never for a fixed
// time. `hold()` counts one piece of work until the function it returns is called;
// `working(promise)` counts the promise until it settles and returns a promise that settles as it
// does (a failure still reaches whoever awaits it, or is reported as unhandled where nobody does).
let busy = 0;
function showBusy() { document.documentElement.dataset.busy = String(busy); }
export function hold() {
  busy += 1;
  showBusy();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    busy -= 1;
    showBusy();
  };
}
export function working(promise) {
  const release = hold();
  return Promise.resolve(promise).finally(release);
}

// `f` once the calls stop for `ms`; the wait counts as work in flight.
export function debounce(f, ms) {
  let timer;
  let release = null;
  return () => {
    clearTimeout(timer);
    release ??= hold();
    timer = setTimeout(() => { release(); release = null; f(); }, ms);
  };
}

export function button(text, onClick, attrs = {}) {
  const node = el("button", { type: "button", ...attrs }, text);
  node.addEventListener("click", (event) => working(onClick(event)));
  return node;
}
