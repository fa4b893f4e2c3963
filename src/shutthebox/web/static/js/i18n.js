// The page's own words (buttons, keys, labels) in the reader's language. Sentences about the
// game come from the server already in that language; only what is about the page is here.
//
// The language: the one chosen with the page's menu (remembered on the device, and sent to
// the server as the `lang` cookie, so its answers speak it too), else the first of the
// browser's languages the game speaks (the server reads them from Accept-Language, which is
// navigator.languages). The words come from the server's catalogues (GET /api/words); a
// copy is kept on the device for the page opened without a connection. The page's HTML is
// the same in every language (the service worker keeps one copy): its elements marked
// data-t are translated here, as the page starts.

const CHOSEN = "shutthebox-language";
const KEPT = "shutthebox-words-";
const COOKIE = "lang";

function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function store(key, value) {
  try { localStorage.setItem(key, value); } catch { /* private browsing: not remembered */ }
}

const chosen = stored(CHOSEN);
if (chosen) document.cookie = `${COOKIE}=${chosen}; path=/; max-age=31536000; samesite=lax`;

async function fetchWords() {
  const query = chosen ? `?lang=${encodeURIComponent(chosen)}` : "";
  try {
    const response = await fetch(`/api/words${query}`, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(String(response.status));
    const found = await response.json();
    store(KEPT + found.language, JSON.stringify(found));
    return found;
  } catch {
    const kept = stored(KEPT + (chosen || (navigator.language || "en").slice(0, 2)));
    return kept ? JSON.parse(kept) : { language: "en", direction: "ltr", languages: { en: "English" }, words: {} };
  }
}

const found = await fetchWords();
const words = found.words || {};

/** The language the page speaks, its code. */
export const language = found.language;
/** Every language the page speaks, code to its own name. */
export const languages = found.languages || { en: "English" };

/** t("Roll the dice") is the page's text in the reader's language; t("Seat {n}", { n: 2 })
 * fills its {placeholders}. */
export function t(text, values) {
  const said = words[text] || text;
  return values ? said.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole)) : said;
}

/** Speak `code` from now on: remembered on the device, the page loaded again in it. */
export function choose(code) {
  store(CHOSEN, code);
  document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}

const ATTRIBUTES = ["placeholder", "aria-label", "title"];
const originals = new WeakMap();

/** The elements marked data-t, in the page's language: their placeholder, aria-label and
 * title, and their text (the data-t value, else the text itself) unless they hold other
 * elements. */
export function translate(root = document) {
  for (const element of root.querySelectorAll("[data-t]")) {
    let original = originals.get(element);
    if (!original) {
      original = { text: element.children.length ? "" : element.dataset.t || element.textContent.trim().replace(/\s+/g, " ") };
      for (const name of ATTRIBUTES) original[name] = element.getAttribute(name);
      originals.set(element, original);
    }
    if (original.text) element.textContent = t(original.text);
    for (const name of ATTRIBUTES) if (original[name]) element.setAttribute(name, t(original[name]));
  }
}

/** The language menu of the page's header: each language named in itself, the page's chosen. */
function offerLanguages() {
  const menu = document.getElementById("language");
  if (!menu) return;
  menu.replaceChildren(...Object.entries(languages).map(([code, name]) => {
    const option = new Option(name, code, code === language, code === language);
    option.lang = code;
    return option;
  }));
  menu.addEventListener("change", () => choose(menu.value));
}

document.documentElement.lang = language;
document.documentElement.dir = found.direction === "rtl" ? "rtl" : "ltr";
translate();
offerLanguages();
