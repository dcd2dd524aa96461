// The page's four languages: the message catalogues (static/i18n/*.json), the words looked up by key,
// and the language chosen. Every text on the page comes from here; the server sends no English.

export const OWN_NAMES = { en: "English", pl: "Polski", tl: "Tagalog", az: "Azərbaycan" };

const catalogues = {};
let language = "en";

export async function loadCatalogues() {
  const langs = Object.keys(OWN_NAMES);
  const loaded = await Promise.all(langs.map((l) => fetch(new URL(`../i18n/${l}.json`, import.meta.url)).then((r) => r.json())));
  langs.forEach((l, i) => { catalogues[l] = loaded[i]; });
}

export function t(key, params = {}) {
  const text = (catalogues[language] || {})[key];
  if (text === undefined) { console.error(`missing message ${key} in ${language}`); return `[${key}]`; }
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name]));
}

export const current = () => language;

// "4 seeds" in the page's language, in the grammatical number the count takes there (Polish has three)
export function seeds(n) {
  const form = new Intl.PluralRules(language).select(n);
  const key = `a11y.seeds.${form}`;
  return t((catalogues[language] || {})[key] === undefined ? "a11y.seeds.other" : key, { n });
}
export const known = (lang) => Boolean(catalogues[lang]);

// the message ``key`` in each language in turn (the console's layout must fit them all)
export function inEveryLanguage(key) { return Object.keys(catalogues).map((l) => catalogues[l][key]); }

// choose ``lang``: <html lang>, every [data-i18n] element, the language buttons; false if unknown
export function choose(lang) {
  if (!catalogues[lang]) return false;
  language = lang;
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  document.querySelectorAll("#languages button").forEach((b) => b.classList.toggle("chosen", b.dataset.lang === lang));
  return true;
}

// the language buttons, each in its own language; ``onChoose(lang)`` when one is touched
export function buildLanguageButtons(langs, onChoose) {
  const box = document.getElementById("languages");
  if (box.dataset.built === langs.join(",")) return;
  box.dataset.built = langs.join(",");
  box.replaceChildren(...langs.map((l) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.lang = l;
    b.lang = l;
    b.textContent = OWN_NAMES[l];
    b.classList.toggle("chosen", l === language);
    b.addEventListener("click", (e) => { e.stopPropagation(); onChoose(l); });
    return b;
  }));
}
