// Gated inputs (core: RuleSystem.gates, the game.gates operation): a modifier, option or value
// of an action that needs what the units named in the sheet lack (an ability, a weapon, a
// condition) is greyed, and the engine's reason is listed beside it. Names no rule system.
import { el } from "./dom.js";
import { plain, nameOf } from "./plain.js";

const keyOf = (value) => (typeof value === "string" ? value : JSON.stringify(value));

// Grey in `root` what `gates` ({fields, values}) says the units lack; the reasons go in `list`.
export function greyGated(root, gates, list, titles = {}) {
  list.replaceChildren();
  const reasons = new Map();
  const grey = (node, why) => {
    node.disabled = true;
    node.classList.add("gated");
    node.setAttribute("aria-pressed", "false");
    node.title = plain(why);
  };
  for (const [name, why] of Object.entries(gates?.fields ?? {})) {
    const nodes = root.querySelectorAll(`[data-mod="${name}"], [data-choice-field="${name}"] button, `
      + `[data-field="${name}"] input, [data-field="${name}"] select`);
    nodes.forEach((node) => grey(node, why));
    if (nodes.length) reasons.set(titles[name] ?? nameOf(name), why);
  }
  for (const [name, values] of Object.entries(gates?.values ?? {})) {
    for (const [value, why] of Object.entries(values)) {
      let found = false;
      for (const b of root.querySelectorAll(`[data-choice-field="${name}"] button`)) {
        if (b.dataset.value === value) { grey(b, why); found = true; }
      }
      for (const option of root.querySelectorAll(`[data-field="${name}"] select option`)) {
        if (keyOf(JSON.parse(option.value)) === value) { option.disabled = true; option.title = plain(why); found = true; }
      }
      // Listed even where the control cannot grey one value (a number typed in).
      if (found || root.querySelector(`[data-field="${name}"], [data-choice-field="${name}"]`)) {
        reasons.set(`${titles[name] ?? nameOf(name)}: ${nameOf(value)}`, why);
      }
    }
  }
  for (const [what, why] of reasons) list.append(el("li", { "data-gated": what }, el("b", {}, what), ` ${plain(why)}`));
  list.hidden = !reasons.size;
}

// A select's option for an action a unit cannot take: greyed, its reason in its text.
export function gatedOption(option, why) {
  option.disabled = true;
  option.textContent = `${option.textContent} (${plain(why)})`;
  return option;
}
