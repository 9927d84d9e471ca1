// Tiny DOM helpers. Text from anywhere (saved data, share links) goes in as text,
// never as HTML.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

// A message the player must see (a damaged save, a bad link): stays until dismissed.
export function notify(text) {
  const box = document.getElementById("notice");
  document.getElementById("notice-text").textContent = text;
  box.hidden = false;
  document.getElementById("notice-close").onclick = () => { box.hidden = true; };
}

export function button(text, onClick, attrs = {}) {
  const node = el("button", { type: "button", ...attrs }, text);
  node.addEventListener("click", onClick);
  return node;
}
