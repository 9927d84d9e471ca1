// Gated inputs (core: RuleSystem.gates, the game.gates operation): a modifier, option or value
// of an action that needs what the units named in the sheet lack (an ability, a weapon, a
// condition) is greyed with the engine's reason. A chip or choice button's reason is listed under
// the chips; a field of the form behind "More modifiers" carries its reason in place, so the
// sheet does not grow. Names no rule system.
import { el } from "./dom.js";
import { plain, nameOf } from "./plain.js";

const keyOf = (value) => (typeof value === "string" ? value : JSON.stringify(value));

// Grey in `root` what `gates` ({fields, values}) says the units lack; chip and choice reasons go in `list`.
export function greyGated(root, gates, list, titles = {}) {
  list.replaceChildren();
  root.querySelectorAll(".gated-why").forEach((node) => node.remove());
  const listed = new Map();
  const grey = (node, why) => {
    node.disabled = true;
    node.classList.add("gated");
    if (node.tagName === "BUTTON") node.setAttribute("aria-pressed", "false"); // a toggle only: an input may not carry it
    node.title = plain(why);
  };
  const inPlace = (name, text) => {
    const field = root.querySelector(`[data-field="${name}"]`);
    if (field) field.append(el("small", { class: "gated-why" }, plain(text)));
  };
  for (const [name, why] of Object.entries(gates?.fields ?? {})) {
    const shown = root.querySelectorAll(`[data-mod="${name}"], [data-choice-field="${name}"] button`);
    shown.forEach((node) => grey(node, why));
    if (shown.length) listed.set(titles[name] ?? nameOf(name), why);
    const field = root.querySelectorAll(`[data-field="${name}"] input, [data-field="${name}"] select`);
    field.forEach((node) => grey(node, why));
    if (field.length) inPlace(name, why);
  }
  for (const [name, values] of Object.entries(gates?.values ?? {})) {
    for (const [value, why] of Object.entries(values)) {
      for (const b of root.querySelectorAll(`[data-choice-field="${name}"] button`)) {
        if (b.dataset.value === value) { grey(b, why); listed.set(`${titles[name] ?? nameOf(name)}: ${nameOf(value)}`, why); }
      }
      for (const option of root.querySelectorAll(`[data-field="${name}"] select option`)) {
        if (keyOf(JSON.parse(option.value)) === value) { option.disabled = true; option.title = plain(why); }
      }
      // In place even where the control cannot grey one value (a number typed in).
      inPlace(name, `${nameOf(value)}: ${why}`);
    }
  }
  for (const [what, why] of listed) list.append(el("li", { "data-gated": what }, el("b", {}, what), ` ${plain(why)}`));
  list.hidden = !listed.size;
}

// A select's option for an action a unit cannot take: greyed, its reason in its text.
export function gatedOption(option, why) {
  option.disabled = true;
  option.textContent = `${option.textContent} (${plain(why)})`;
  return option;
}
