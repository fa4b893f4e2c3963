// The screen of a real table (/table): the advisor and the score sheet, each in its own
// module. The words come from the server's catalogues (i18n.js); the presets, the formats
// and the hint's captions from /api/presets and /api/choices, already in the page's language.

import { $ } from "./dom.js";
import { request } from "./api.js";
import * as advisor from "./table-advisor.js";
import * as sheet from "./table-sheet.js";

function show(name) {
  for (const part of ["advisor", "sheet"]) {
    $(part).hidden = part !== name;
    $(`show-${part}`).setAttribute("aria-pressed", String(part === name));
  }
}

$("show-advisor").addEventListener("click", () => show("advisor"));
$("show-sheet").addEventListener("click", () => show("sheet"));

try {
  const [presets, choices] = await Promise.all([request("/api/presets"), request("/api/choices")]);
  advisor.start(presets, choices);
  await sheet.start(presets, choices);
  if (new URLSearchParams(location.search).has("sheet")) show("sheet");
} catch {
  // Opened without a connection (the installed app): say what needs one, show no controls.
  for (const part of ["advisor", "sheet"]) $(part).hidden = true;
  document.querySelector(".switch").hidden = true;
  $("offline").hidden = false;
}
document.body.dataset.ready = "true";
