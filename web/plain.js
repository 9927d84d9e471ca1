// Plain language on screen: names instead of ids, rulebook line references only when the
// player asked for them (a setting kept in localStorage, never in the saved store).
const SETTINGS_KEY = "tc.settings";

export function settings() {
  try {
    return JSON.parse(localStorage.getItem(SETTINGS_KEY)) ?? {};
  } catch {
    return {};
  }
}

export function setSetting(key, value) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...settings(), [key]: value }));
}

export const showRefs = () => Boolean(settings().refs);

// "super_heavy" -> "Super heavy"; any other text is left as it is.
export function nameOf(id) {
  const text = String(id);
  if (!/^[a-z0-9_]+$/.test(text)) return text;
  const words = text.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// A rule explanation for players: without "as 'side/key'" and, unless asked for, without
// rulebook line references such as "(L1076)", "(L278-L282)" or ", L2436"; never the digest's ids ("(A14)").
export function plain(text) {
  if (!text) return "";
  let out = String(text).replace(/,? as '[a-z]+\/[a-z]+'/g, "");
  if (!showRefs()) {
    out = out
      .replace(/\s*\((?:see )?L\d+(?:[-–]L?\d+)?(?:(?:,| and) L?\d+(?:[-–]L?\d+)?)*\)/g, "")
      .replace(/,\s*L\d+(?:[-–]L?\d+)?(?=\))/g, "")
      .replace(/\s*\bL\d+(?:[-–]L?\d+)?\b/g, "");
  }
  // The digest's ids of its readings ("A14", "digest A47") are ours, never the player's.
  out = out.replace(/[;,]\s*\)/g, ")").replace(/\((?:digest )?A\d+[;,]\s*/g, "(").replace(/\s*\((?:digest )?A\d+(?:[,;] ?(?:digest )?A\d+)*\)/g, "").replace(/[;,]\s*(?:digest )?A\d+(?=[;,)])/g, "");
  // A name that reads as a plural (ending in -es, or a consonant and s) takes a bare apostrophe:
  // "Earth Federation Forces' turn", "Feds' turn"; a singular one keeps 's ("Colossus's", "Boss's").
  out = out.replace(/\b([A-Z][a-z]*(?:[b-df-hj-np-rtvwxz]s|es))'s\b/g, "$1'");
  return out.replace(/\s+([.,;:)])/g, "$1").replace(/\(\s*\)/g, "").replace(/\(\s*[,;]\s*/g, "(").trim();
}
